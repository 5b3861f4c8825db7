"""The shell's script suite (shell_scripts/, see test_shell.py) on OVMF: shell.efi boots as
\\EFI\\BOOT\\BOOTX64.EFI of a FAT disk holding the suite (scripts/run-ovmf --files), runs
startup.nsh after its countdown, and every script's output must equal what it gives under
ember-run (expected/NAME.out). Skipped when OVMF or QEMU is missing."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, app
from test_shell import SCRIPT_NAMES, SCRIPTS, copy_suite, sections

OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")

pytestmark = pytest.mark.skipif(
    not OVMF_CODE.exists() or not shutil.which("qemu-system-x86_64") or
    not shutil.which("mcopy"), reason="OVMF (Debian package ovmf), QEMU or mtools missing")


@pytest.fixture(scope="module")
def ovmf_output(tmp_path_factory):
    files = tmp_path_factory.mktemp("disk")
    copy_suite(files)
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--timeout", "180", "--files",
                          str(files), str(app("shell"))], capture_output=True, timeout=240)
    return (run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace"))


def test_shell_boots_and_powers_off(ovmf_output):
    out, err = ovmf_output
    assert "Ember Shell" in out and "on EDK II" in out, out[-2000:]
    assert "Press any key to skip startup.nsh" in out
    assert "QEMU ended: shutdown (guest-shutdown)" in err, err
    assert out.rstrip().endswith("==== end"), out[-2000:]


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_script_suite_on_ovmf(ovmf_output, name):
    out, err = ovmf_output
    got = sections(out)
    assert name in got, f"{name} did not run on OVMF\n{out[-3000:]}\n{err}"
    assert got[name] == (SCRIPTS / "expected" / name.replace(".nsh", ".out")).read_text()
