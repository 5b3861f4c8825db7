"""A program that crashes on QEMU: the report, then the program ends as if it had called
Exit(EFI_ABORTED) and the boot goes on with the next option. A stack that overflows runs
into the guard page below it and is reported as such (no triple fault)."""

import pytest

from conftest import BUILD
from disk_images import gpt_esp_disk

PROGRAMS = BUILD / "tests" / "programs"
ENDED = r"!!! Ember: app\.efi ends as if it had called Exit\(EFI_ABORTED\); the boot goes on\."


def test_stack_overflow_is_reported(machine):
    m = machine(app=PROGRAMS / "stack_overflow.efi")
    m.expect(r"stack_overflow: recursing")
    m.expect(r"CPU exception 14 \(page fault\)")
    m.expect(r"stack overflow: the stack ran into its guard page")
    m.expect(r"at app\.efi\+0x[0-9a-f]+")
    m.expect(ENDED)
    m.expect_log(r"opt/ember/app returned EFI_ABORTED")
    assert "system halted" not in m.text


def crashing_disks(work, crasher):
    a = gpt_esp_disk(work / "a.img", work, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / f"{crasher}.efi"})
    (work / "esp.img").unlink()
    b = gpt_esp_disk(work / "b.img", work, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    return [["-drive", f"file={a},format=raw,if=none,id=a",
             "-device", "virtio-blk-pci,drive=a,bootindex=1",
             "-drive", f"file={b},format=raw,if=none,id=b",
             "-device", "virtio-blk-pci,drive=b,bootindex=2"]]


@pytest.mark.parametrize("crasher, where", [
    ("null_pointer", r"at BOOTX64\.EFI\+0x[0-9a-f]+"),
    # The fault lies in Ember's code, in the call the program made, on its bad pointer.
    ("bad_getvariable", r"at ember\+0x[0-9a-f]+"),
    ("stack_overflow", r"stack overflow: the stack ran into its guard page"),
])
def test_crashing_boot_option_lets_the_next_one_boot(machine, tmp_path, crasher, where):
    m = machine(firmware="pflash", disks=crashing_disks(tmp_path, crasher), timeout=120)
    m.expect(r"CPU exception 14 \(page fault\)")
    m.expect(where)
    m.expect(r"!!! Ember: BOOTX64\.EFI ends as if it had called Exit\(EFI_ABORTED\)")
    # The second option boots, after the first one's report.
    m.expect(r"Hello World!")
    assert m.text.index("CPU exception 14") < m.text.index("Hello World!")
    assert "system halted" not in m.text
    m.expect_log(r"returned EFI_ABORTED")
