"""ember-run --tpm SOCKET (issue 12): swtpm's socket interface as the machine's TPM 2.0, so
apps/tcg2-test checks EFI_TCG2_PROTOCOL and replays the event log against the PCRs without
QEMU (tests/qemu/test_tcg2.py runs the same app on QEMU and OVMF). Each test starts its own
swtpm and stops it."""
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import app

pytestmark = pytest.mark.skipif(not shutil.which("swtpm"),
                                reason="swtpm not installed (scripts/deps)")


@pytest.fixture
def swtpm(tmp_path):
    sock = tmp_path / "tpm.sock"
    proc = subprocess.Popen(
        ["swtpm", "socket", "--tpm2", "--tpmstate", f"dir={tmp_path}",
         "--server", f"type=unixio,path={sock}",
         "--ctrl", f"type=unixio,path={sock}.ctrl"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if sock.exists() and (tmp_path / "tpm.sock.ctrl").exists():
            break
        time.sleep(0.05)
    yield sock
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)


def test_tcg2_on_ember_run_with_swtpm(ember, swtpm):
    run = ember("--tpm", swtpm, app("tcg2-test"), timeout=120)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    found = re.findall(r"tcg2-test: (\d+) passed, (\d+) failed", out)
    assert found and found[-1][1] == "0" and int(found[-1][0]) > 40, out[-3000:]
    assert "tcg2-test: banks 0xf active of 0xf" in out, out[-3000:]
    # The program ember-run loads comes from outside the firmware: the Secure Boot policy
    # (five variables and PCR 7's separator) and the program are measured before it runs,
    # then the two of its refused ExitBootServices (Invocation, Returned with Failure) and
    # its own two events.
    assert "tcg2-test: replayed 11 events" in out, out[-3000:]


def test_no_tcg2_without_tpm(ember):
    run = ember(app("tcg2-test"), timeout=60)
    assert b"tcg2-test: no EFI_TCG2_PROTOCOL" in run.stdout, run.stdout[-2000:]


def test_missing_swtpm_is_a_usage_error(ember, tmp_path):
    run = ember("--tpm", tmp_path / "none", app("tcg2-test"), timeout=60)
    assert run.returncode == 2
    assert b"no swtpm control channel" in run.stderr, run.stderr
