"""Memory protection on QEMU: EFI_MEMORY_ATTRIBUTE_PROTOCOL as shim and the Linux EFI stub
use it, a program's own code read-only and its data non-executable, and a write to its
code or a jump into its data reported as a page fault naming the protection, the image
and the offset; the program ends and the boot goes on. The protocol part runs on OVMF
too, where OVMF has the protocol."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import BUILD, ROOT

PROGRAM = BUILD / "tests" / "programs" / "memory_protection.efi"
OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
ENDED = r"!!! Ember: app\.efi ends as if it had called Exit\(EFI_ABORTED\); the boot goes on\."


def test_memory_attribute_protocol_on_ember(machine):
    m = machine(app=PROGRAM, timeout=120)
    m.expect(r"memory_protection: \d+ passed, 0 failed")
    assert "FAILED" not in m.text


@pytest.mark.parametrize("misdeed, report", [
    ("write-code", r"write to read-only memory at app\.efi\+0x[0-9a-f]+"),
    ("jump-data", r"jump into non-executable memory at app\.efi\+0x[0-9a-f]+"),
    # Pool memory lies in no image: the call's return address names the program.
    ("jump-pool", r"jump into non-executable memory at 0x[0-9a-f]+\n  called from app\.efi\+0x"),
])
def test_protection_fault_is_reported(machine, misdeed, report):
    m = machine(app=PROGRAM, args=f"memory_protection.efi {misdeed}", timeout=120)
    m.expect(r"CPU exception 14 \(page fault\)")
    m.expect(report)
    m.expect(ENDED)
    assert "still running" not in m.text
    assert "system halted" not in m.text


def test_memory_is_the_loaders_after_exit_boot_services(machine):
    """After ExitBootServices a loader runs code it copied into free memory and writes
    over its own code (GRUB 2.06's relocator does both): the protections are lifted, and
    the program powers off."""
    m = machine(app=PROGRAM, args="memory_protection.efi after-exit", timeout=120)
    m.wait_exit()
    assert "CPU exception" not in m.text, m.text[-2000:]


@pytest.mark.skipif(not OVMF_CODE.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF (Debian package ovmf) or QEMU not installed")
def test_memory_attribute_protocol_on_ovmf():
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--timeout", "150", str(PROGRAM)],
                         capture_output=True, text=True, timeout=240)
    if "no EFI_MEMORY_ATTRIBUTE_PROTOCOL" in run.stdout:
        pytest.skip("this OVMF (Debian's 2022.11) does not publish EFI_MEMORY_ATTRIBUTE_PROTOCOL")
    found = re.findall(r"memory_protection: (\d+) passed, (\d+) failed", run.stdout)
    assert found and found[-1][1] == "0", run.stdout[-3000:]
