"""Memory protection on QEMU's AArch64 virt machine (platform/qemu-aarch64/mmu.c, issue 17),
the checks of test_memory_protection.py on x86-64 with the same program
(tests/programs/memory_protection.c built for AArch64): EFI_MEMORY_ATTRIBUTE_PROTOCOL's
Get/Set/Clear on pages the program allocates, which change what a write does; its own code
read-only and its data never-execute; a write to the firmware's or its own code and a jump
into its data or pool memory reported as a permission fault, ending the program only; after
ExitBootServices the loader's memory runs code again. Debian's AAVMF (2022.11) has no
EFI_MEMORY_ATTRIBUTE_PROTOCOL (ArmPkg's CpuDxe published it from edk2-stable202302): the
program then powers off at once, and the test says so."""
import pytest

from test_aarch64 import AAVMF_CODE, Arm64Machine, program

ENDED = r"!!!! Ember: app\.efi ends as if it had called Exit\(EFI_ABORTED\); the boot goes on\."


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_memory_attribute_protocol(firmware):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    with Arm64Machine(program("memory_protection"), firmware=firmware,
                      timeout=120 if firmware == "ember" else 300) as m:
        m.expect(r"memory_protection: (\d+ passed, \d+ failed|no EFI_MEMORY_ATTRIBUTE_PROTOCOL)")
        if firmware == "aavmf" and "no EFI_MEMORY_ATTRIBUTE_PROTOCOL" in m.text:
            pytest.skip("AAVMF 2022.11 (Debian's) has no EFI_MEMORY_ATTRIBUTE_PROTOCOL")
        assert "FAILED" not in m.text and ", 0 failed" in m.text, m.text[-2000:]


MISDEEDS = {
    "write-firmware": r"in app\.efi\+0x[0-9a-f]+\nwrite to read-only memory at ember\+0x",
    "write-code": r"in app\.efi\+0x[0-9a-f]+\nwrite to read-only memory at app\.efi\+0x",
    # ClearMemoryAttributes(XP) lets code run on the page, SetMemoryAttributes(RO) stops writes.
    "set-ro": r"cleared XP \(Success\): ran code at 0x([0-9a-f]+)\n"
              r"[\s\S]*set RO \(Success\): writing to 0x\1\n[\s\S]*"
              r"write to read-only memory at 0x\1\n",
    "jump-data": r"jump into non-executable memory at app\.efi\+0x[0-9a-f]+\n",
    # Pool memory lies in no image: the link register names the program.
    "jump-pool": r"jump into non-executable memory at 0x[0-9a-f]+\n  called from app\.efi\+0x",
}


@pytest.mark.parametrize("misdeed", MISDEEDS)
def test_protection_fault_is_reported(misdeed):
    with Arm64Machine(program("memory_protection"), args=f"memory_protection.efi {misdeed}") as m:
        m.expect(r"Ember: synchronous exception from EL1: (data|instruction) abort")
        m.expect(MISDEEDS[misdeed])
        m.expect(ENDED)
        m.expect(r"opt/ember/app returned EFI_ABORTED")
        assert "still running" not in m.text
        assert "system halted" not in m.text


def test_memory_is_the_loaders_after_exit_boot_services():
    """After ExitBootServices a loader runs code it copied into free memory and writes over
    its own code (GRUB's relocator does both): the protections are lifted, and the program
    powers off (with EFI_ABORTED should it not run in EL1h again, as loaders expect)."""
    with Arm64Machine(program("memory_protection"), args="memory_protection.efi after-exit") as m:
        m.expect(r"shutdown: EFI_SUCCESS")
        assert "exception" not in m.text, m.text[-2000:]
