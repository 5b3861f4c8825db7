"""MP services under ember-run: none. A program there runs on one host thread, there is no
AP to start, and the PI spec asks for EFI_MP_SERVICES_PROTOCOL only where there is more
than one processor (docs/design.md, "Multiprocessor"); apps/mp-test says so and checks
that no handle carries the protocol. tests/qemu/test_mp.py runs it on QEMU and OVMF."""
import re

from conftest import app


def test_no_mp_services_on_ember_run(ember):
    run = ember(app("mp-test"), timeout=60)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    assert "mp-test: no MP services" in out, out[-2000:]
    found = re.findall(r"mp-test: (\d+) passed, (\d+) failed", out)
    assert found == [("1", "0")], out[-2000:]
