"""The firmware reaches its boot path and runs a program, on both machines and in both
flash configurations."""
import pytest

from conftest import BUILD

PROGRAMS = BUILD / "tests" / "programs"


@pytest.mark.parametrize("machine_type", ["q35", "pc"])
@pytest.mark.parametrize("firmware", ["bios", "pflash"])
def test_faulting_program_gets_a_report(machine, machine_type, firmware):
    """The report, then the program ends as Exit(EFI_ABORTED) would end it: the firmware
    goes on (tests/qemu/test_crash.py boots the next option after it)."""
    m = machine(machine=machine_type, firmware=firmware, app=PROGRAMS / "wild_pointer.efi")
    m.expect(r"CPU exception 14 \(page fault\)")
    m.expect(r"at app\.efi\+0x[0-9a-f]+")
    m.expect(r"fault address \(CR2\) 0xdead0000000")
    m.expect(r"app\.efi ends as if it had called Exit\(EFI_ABORTED\)")
    m.expect_log(r"opt/ember/app returned EFI_ABORTED")


@pytest.mark.parametrize("firmware", ["bios", "pflash"])
def test_bios_says_once_that_variables_live_in_ram(machine, firmware):
    """With -bios the flash is read-only: the console says once that variables are kept
    in RAM; with the pflash pair it says nothing."""
    m = machine(firmware=firmware, app=PROGRAMS / "hello.efi")
    m.expect(r"Hello World!")
    m.expect_log(r"opt/ember/app returned EFI_SUCCESS")
    notice = "Ember: variables are kept in RAM and lost at power-off"
    assert m.text.count(notice) == (1 if firmware == "bios" else 0), m.text
