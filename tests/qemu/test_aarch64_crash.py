"""A program that crashes on QEMU's AArch64 virt machine (platform/qemu-aarch64/exceptions.c,
issue 17), the checks of test_crash.py on x86-64 with the same programs (tests/programs,
built for AArch64): a stack that overflows runs into the guard page below the firmware's
stack and is reported as such, on the exception stack (no fault while reporting); a bad
pointer a program passes to Ember faults in Ember's code and ends the program only; the
report walks the frame records (x29) to name each caller as image+offset. Each time the
program ends as if it had called Exit(EFI_ABORTED) and the boot goes on.

Not run on AAVMF, where none of it behaves the same: its exception handler (ArmPkg's
DefaultExceptionHandler) prints a report of its own and halts the machine rather than
ending the program, and it has no guard page below its stack (the recursion writes on until
something else faults). Each test is one short boot (about a second under TCG)."""
from test_aarch64 import Arm64Machine, program

ENDED = r"!!!! Ember: app\.efi ends as if it had called Exit\(EFI_ABORTED\); the boot goes on\."


def test_stack_overflow_is_reported():
    with Arm64Machine(program("stack_overflow")) as m:
        m.expect(r"stack_overflow: recursing")
        m.expect(r"synchronous exception from EL1: data abort")
        m.expect(r"stack overflow: the stack ran into its guard page\nin app\.efi\+0x[0-9a-f]+\n")
        m.expect(r"SP  000000007[0-9a-f]+\n")
        m.expect(ENDED)
        m.expect(r"opt/ember/app returned EFI_ABORTED")
        assert "while reporting one" not in m.text
        assert "system halted" not in m.text


def test_bad_pointer_passed_to_ember_ends_the_program():
    with Arm64Machine(program("bad_getvariable")) as m:
        m.expect(r"bad_getvariable: calling GetVariable with Data at 0xdead0000010")
        m.expect(r"synchronous exception from EL1: data abort")
        # The fault lies in Ember's code, in the call the program made, on its bad pointer;
        # the frame walk goes from Ember's code back to the program.
        m.expect(r"in ember\+0x[0-9a-f]+\n")
        m.expect(r"FAR  ?0*dead0000010")
        m.expect(r"  called from ember\+0x[0-9a-f]+\n(  called from ember\+0x[0-9a-f]+\n)*"
                 r"  called from app\.efi\+0x[0-9a-f]+\n")
        m.expect(ENDED)
        m.expect(r"opt/ember/app returned EFI_ABORTED")
        assert "GetVariable returned" not in m.text
        assert "system halted" not in m.text
