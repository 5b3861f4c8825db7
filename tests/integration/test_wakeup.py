"""The wake-up alarm on ember-run: a process cannot wake the host, so GetWakeupTime and
SetWakeupTime answer EFI_UNSUPPORTED after their argument checks, and the
EFI_RT_PROPERTIES_TABLE leaves both out (apps/wakeup-test takes that branch when the
table says so; tests/qemu/test_wakeup.py runs the alarm itself on QEMU)."""
import re

from conftest import app


def test_wakeup_alarm_is_unsupported_on_ember_run(ember):
    run = ember(app("wakeup-test"), timeout=60)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    assert "wakeup-test: no wake-up alarm (RT properties table)" in out, out[-2000:]
    found = re.findall(r"wakeup-test: (\d+) passed, (\d+) failed", out)
    assert found and found[-1][1] == "0" and int(found[-1][0]) >= 13, out[-2000:]
    assert run.returncode == 0, out[-2000:]
