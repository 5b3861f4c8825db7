"""EFI_RAM_DISK_PROTOCOL under QEMU (apps/ramdisk-test), on Ember's firmware and on OVMF (which
has RamDiskDxe): the app boots as removable media from a FAT disk that also holds a mkfs.vfat
image and an xorriso ISO, reads both into memory, registers them as a virtual disk and a
virtual CD, reads a file of each, starts the ISO's gnu-efi program with LoadImage from the
RAM disk's device path, unregisters both and checks 13.17's argument errors. OVMF's
RamDiskDxe gives virtual CDs 512-byte writable blocks: the app reports that as KNOWN."""
import re
import subprocess

import pytest

from conftest import BUILD
from disk_images import MIB, fat_partition, ram_disk_images

APP = BUILD / "apps" / "ramdisk-test.efi"
HELLO = BUILD / "tests" / "programs" / "hello.efi"
SUMMARY = r"ramdisk-test: (\d+) passed, (\d+) failed"


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_ram_disk_boots_iso_program(machine, tmp_path, firmware):
    files = tmp_path / "files"
    files.mkdir()
    ram_disk_images(files, tmp_path, HELLO)
    disk = fat_partition(tmp_path / "disk.img", 32 * MIB, {
        "EFI/BOOT/BOOTX64.EFI": APP,
        "ramdisk.img": files / "ramdisk.img",
        "ramdisk.iso": files / "ramdisk.iso"})
    m = machine(firmware=firmware, disks=[f"format=raw,if=virtio,file={disk}"], timeout=300)
    m.expect(SUMMARY)
    out = m.text
    assert "read \\HELLO.TXT: hello from a RAM disk" in out, out[-3000:]
    assert "read \\RAMDISK.TXT: an El Torito image" in out, out[-3000:]
    assert re.search(r"starting BOOTX64.EFI from the RAM disk\n(.*\n)*Hello World!", out), \
        out[-3000:]
    found = re.findall(SUMMARY, out)
    assert found[-1][1] == "0" and int(found[-1][0]) >= 40, out[-3000:]
    if firmware == "bios":
        assert "KNOWN" not in out and "cd: block size 2048" in out, out[-3000:]
    assert m.wait_exit() == 0
