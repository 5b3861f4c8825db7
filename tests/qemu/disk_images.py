"""Disk images for the QEMU disk tests: raw disks with a known pattern, ISO 9660 images made
by xorriso, and GPT disks with a FAT EFI system partition made by sgdisk, mkfs.vfat and
mtools. Everything is deterministic, so a failure can be reproduced."""
import random
import struct
import subprocess
from pathlib import Path

MIB = 1024 * 1024


def pattern_image(path, size=16 * MIB, seed=1):
    """A raw disk whose every 512-byte sector is distinct: its number and the seed."""
    sectors = []
    for i in range(size // 512):
        sectors.append(struct.pack("<QQ", i, seed ^ (i * 0x9E3779B97F4A7C15 & (2**64 - 1))) * 32)
    Path(path).write_bytes(b"".join(sectors))
    return Path(path)


def iso_image(path, work, data_size=3 * MIB, seed=2):
    """An ISO 9660 image (xorriso) holding one file of pseudo-random bytes."""
    content = Path(work) / "iso-content"
    content.mkdir(exist_ok=True)
    (content / "data.bin").write_bytes(random.Random(seed).randbytes(data_size))
    subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-V", "EMBERCD", "-o", str(path),
                    str(content)], check=True, capture_output=True)
    return Path(path)


def written_pattern(offset, size):
    """What blk-test's write step puts at a byte offset of a disk (blk_test_pattern)."""
    return bytes((((o >> 9) * 7 + o * 13 + 0x5A) & 0xFF) for o in range(offset, offset + size))


def fat_partition(path, size, files):
    """A FAT file system image (mkfs.vfat) holding files {"EFI/BOOT/X.EFI": host_path}."""
    subprocess.run(["truncate", "-s", str(size), str(path)], check=True)
    subprocess.run(["mkfs.vfat", "-n", "EMBER", str(path)], check=True, capture_output=True)
    made = set()
    for name, src in files.items():
        parts = name.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in made:
                subprocess.run(["mmd", "-i", str(path), "::/" + d], check=True)
                made.add(d)
        subprocess.run(["mcopy", "-i", str(path), str(src), "::/" + name], check=True)
    return Path(path)


def gpt_esp_disk(path, work, files, size=64 * MIB, esp_start=MIB, esp_size=40 * MIB):
    """A GPT disk (sgdisk) whose one partition is an EFI system partition with files."""
    esp = fat_partition(Path(work) / "esp.img", esp_size, files)
    subprocess.run(["truncate", "-s", str(size), str(path)], check=True)
    first = esp_start // 512
    last = first + esp_size // 512 - 1
    subprocess.run(["sgdisk", "-n", f"1:{first}:{last}", "-t", "1:ef00", "-c", "1:ESP",
                    str(path)], check=True, capture_output=True)
    with open(path, "r+b") as disk:
        disk.seek(esp_start)
        disk.write(esp.read_bytes())
    return Path(path)


RAM_DISK_HELLO = "hello from a RAM disk\n"
RAM_DISK_CD_TEXT = "an El Torito image in a RAM disk\n"


def ram_disk_images(directory, work, boot_program):
    """apps/ramdisk-test's two images in directory: ramdisk.img, a FAT file system without
    a partition table (mkfs.vfat) holding HELLO.TXT, and ramdisk.iso, an xorriso ISO whose
    El Torito EFI image holds boot_program as EFI/BOOT/BOOTX64.EFI and RAMDISK.TXT."""
    directory, work = Path(directory), Path(work)
    hello = work / "hello.txt"
    hello.write_text(RAM_DISK_HELLO)
    fat_partition(directory / "ramdisk.img", 4 * MIB, {"HELLO.TXT": hello})
    content = work / "ram-disk-iso"
    content.mkdir(exist_ok=True)
    text = work / "ramdisk.txt"
    text.write_text(RAM_DISK_CD_TEXT)
    fat_partition(content / "efiboot.img", 2 * MIB,
                  {"EFI/BOOT/BOOTX64.EFI": boot_program, "RAMDISK.TXT": text})
    subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-V", "EMBERRAM", "-e",
                    "efiboot.img", "-no-emul-boot", "-o", str(directory / "ramdisk.iso"),
                    str(content)], check=True, capture_output=True)
