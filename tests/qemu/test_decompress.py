"""EFI_DECOMPRESS_PROTOCOL (apps/decompress-test) on Ember's firmware and on OVMF: streams
Ember's encoder made decode to their inputs (on OVMF, EDK II's decoder accepting them
proves the encoder right), and the bad arguments answer EFI_INVALID_PARAMETER on both."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BUILD, ROOT

APP = BUILD / "apps" / "decompress-test.efi"
OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
SUMMARY = r"decompress-test: (\d+) passed, (\d+) failed"
STREAMS = ["text", "zeros", "random", "one byte", "window edge", "PE file"]


def check(out):
    for name in STREAMS:
        assert re.search(rf"decompress-test: {name}: \d+ bytes from \d+", out), out[-3000:]
    found = re.findall(SUMMARY, out)
    assert found and found[-1][1] == "0" and int(found[-1][0]) >= 40, out[-3000:]
    assert "KNOWN" not in out


def test_decompress_protocol_on_ember(machine):
    m = machine(firmware="pflash", app=APP, timeout=120)
    m.expect(SUMMARY)
    check(m.text)
    assert m.wait_exit() == 0


@pytest.mark.skipif(not OVMF_CODE.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF (Debian package ovmf) or QEMU not installed")
def test_decompress_protocol_on_ovmf():
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--timeout", "200", str(APP)],
                         capture_output=True, text=True, timeout=300)
    check(run.stdout)
    assert run.returncode == 0, run.stdout[-3000:]
