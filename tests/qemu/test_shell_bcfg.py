"""The shell on QEMU (issue 7): when no boot option works the boot manager starts the shell
embedded in the firmware, which runs startup.nsh from the disk; the script looks at the
machine with the system commands (pci, smbiosview, acpiview, devices, drivers, memmap),
adds a boot option for a program with bcfg and resets. On the next boot, from the same
variable store, the boot manager starts that program."""
import re

import pytest

from conftest import BUILD
from disk_images import gpt_esp_disk

PROGRAMS = BUILD / "tests" / "programs"

STARTUP = r"""echo -off
echo startup.nsh: running
pci
smbiosview -t 1
acpiview
devices
drivers
memmap
date
time
bcfg boot add 0 fs0:\hello.efi "Hello from bcfg"
bcfg boot dump
echo startup.nsh: resetting
reset
"""


@pytest.fixture(scope="module")
def disk(tmp_path_factory):
    work = tmp_path_factory.mktemp("shell-bcfg")
    (work / "startup.nsh").write_text(STARTUP.replace("\n", "\r\n"))
    # No \EFI\BOOT\BOOTX64.EFI: nothing boots, so the shell comes up.
    return gpt_esp_disk(work / "disk.img", work, {"startup.nsh": work / "startup.nsh",
                                                  "hello.efi": PROGRAMS / "hello.efi"})


def drive(path):
    return [["-drive", f"file={path},format=raw,if=none,id=d0",
             "-device", "virtio-blk-pci,drive=d0"]]


def test_startup_script_adds_a_boot_option_that_the_next_boot_starts(machine, disk, tmp_path):
    vars_file = tmp_path / "vars.fd"
    m = machine(firmware="pflash", vars_file=vars_file, disks=drive(disk), timeout=120)
    m.expect(r"startup\.nsh: running")
    m.expect(r"startup\.nsh: resetting")
    out = m.text
    # The system commands saw QEMU's machine: q35's host bridge and virtio disk on PCI,
    # SMBIOS from QEMU, ACPI tables through the table loader.
    assert re.search(r"^    00   00   00    00 ==> Bridge Device - Host/PCI bridge$", out, re.M)
    assert re.search(r"^             Vendor 1AF4 Device 10(01|42) ", out, re.M), out
    assert re.search(r"^Handle [0-9A-F]{4}, type 1 \(System Information\)", out, re.M)
    assert re.search(r"^  Manufacturer:    QEMU$", out, re.M), out
    assert re.search(r"^FACP  [0-9A-F]{16} .* ok$", out, re.M), out
    assert re.search(r"^XSDT  ", out, re.M) or re.search(r"^RSDT  ", out, re.M)
    assert "Virtio Block Driver" in out and "PCI Bus Driver" in out
    assert re.search(r"^Total Memory: +2\d\d MB", out, re.M), out
    assert re.search(r"^\d\d/\d\d/20\d\d\n\d\d:\d\d:\d\d \(LOCAL\)$", out, re.M), out
    target = re.search(r"Target = ([0-9A-F]{4}): Boot\1 added at position 0\.", out)
    assert target, out
    assert re.search(r"^Option: 00\. Variable: Boot" + target.group(1) + r"\n"
                     r"  Desc    - Hello from bcfg\n"
                     r"  DevPath - PciRoot\(0x0\)/Pci\([^)]*\)/HD\(1,GPT,[^)]*\)/\\hello\.efi\n",
                     out, re.M), out
    assert m.wait_exit(60) is not None  # reset ends QEMU (-no-reboot)

    # The next boot, from the same variable store, starts the program first.
    m = machine(firmware="pflash", vars_file=vars_file, disks=drive(disk), timeout=120)
    m.expect("Hello World!")
    assert "startup.nsh: running" not in m.text.split("Hello World!")[0]
