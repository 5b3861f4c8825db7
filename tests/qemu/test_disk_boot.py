"""End to end: a GPT disk (sgdisk) whose EFI system partition (mkfs.vfat, mtools) holds one
of the article's programs (hello.efi, gop_mode.efi) as \\EFI\\BOOT\\BOOTX64.EFI boots through
the disk controller drivers, the partition driver and the FAT driver, on virtio-blk and on
AHCI, under q35 and pc, with -bios and with the pflash pair; and an ISO with an El Torito
EFI image boots from an AHCI CD-ROM."""
import subprocess

import pytest

from conftest import BUILD
from disk_images import MIB, fat_partition, gpt_esp_disk

HELLO = BUILD / "tests" / "programs" / "hello.efi"
# The article's two programs and what each prints.
PROGRAMS = {"hello": r"Hello World!", "gop_mode": r"Mode 0 is running at 1024x768"}


def controller_args(controller, machine_type, image, cdrom=False):
    fmt = f"file={image},format=raw" + (",media=cdrom" if cdrom else "")
    if controller == "virtio":
        return ["-drive", f"if=none,id=boot,{fmt}", "-device", "virtio-blk-pci,drive=boot"]
    device = "ide-cd" if cdrom else "ide-hd"
    if machine_type == "q35":
        return ["-drive", f"if=none,id=boot,{fmt}", "-device", f"{device},drive=boot,bus=ide.0"]
    return ["-device", "ahci,id=ahci", "-drive", f"if=none,id=boot,{fmt}",
            "-device", f"{device},drive=boot,bus=ahci.0"]


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("firmware", ["bios", "pflash"])
@pytest.mark.parametrize("machine_type", ["q35", "pc"])
@pytest.mark.parametrize("controller", ["virtio", "ahci"])
def test_article_programs_boot_from_gpt_disk(machine, tmp_path, controller, machine_type,
                                             firmware, program):
    image = BUILD / "tests" / "programs" / f"{program}.efi"
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": image})
    m = machine(machine=machine_type, firmware=firmware,
                extra=controller_args(controller, machine_type, disk))
    m.expect(PROGRAMS[program])
    assert "BOOTX64.EFI" in m.debug_log


def test_hello_boots_from_ahci_cdrom(machine, tmp_path):
    """El Torito: the ISO's EFI boot image is a FAT image with BOOTX64.EFI."""

    content = tmp_path / "iso"
    content.mkdir()
    fat_partition(content / "efiboot.img", 2 * MIB, {"EFI/BOOT/BOOTX64.EFI": HELLO})
    iso = tmp_path / "boot.iso"
    subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-V", "EMBERBOOT", "-e",
                    "efiboot.img", "-no-emul-boot", "-o", str(iso), str(content)],
                   check=True, capture_output=True)
    m = machine(machine="q35", extra=controller_args("ahci", "q35", iso, cdrom=True))
    m.expect(r"Hello World!")
