"""EFI_DECOMPRESS_PROTOCOL on ember-run (apps/decompress-test): streams made by Ember's
encoder at build time decode to their inputs through the protocol, and the bad arguments
answer EFI_INVALID_PARAMETER. tests/qemu/test_decompress.py runs the same app on QEMU and
on OVMF."""
import re

from conftest import app

STREAMS = ["text", "zeros", "random", "one byte", "window edge", "PE file"]


def test_decompress_protocol_on_ember_run(ember):
    run = ember(app("decompress-test"), timeout=60)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    for name in STREAMS:
        assert re.search(rf"decompress-test: {name}: \d+ bytes from \d+", out), out[-2000:]
    found = re.findall(r"decompress-test: (\d+) passed, (\d+) failed", out)
    assert found and found[-1][1] == "0" and int(found[-1][0]) >= 40, out[-2000:]
    assert run.returncode == 0, out[-2000:]
