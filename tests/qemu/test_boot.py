"""The firmware reaches its boot path and runs a program, on both machines and in both
flash configurations."""
import pytest

from conftest import BUILD

PROGRAMS = BUILD / "tests" / "programs"


@pytest.mark.parametrize("machine_type", ["q35", "pc"])
@pytest.mark.parametrize("firmware", ["bios", "pflash"])
def test_faulting_program_gets_a_report(machine, machine_type, firmware):
    m = machine(machine=machine_type, firmware=firmware, app=PROGRAMS / "wild_pointer.efi")
    m.expect(r"CPU exception 14 \(page fault\)")
    m.expect(r"at app\.efi\+0x[0-9a-f]+")
    m.expect(r"fault address \(CR2\) 0xdead0000000")
    m.expect(r"system halted")
