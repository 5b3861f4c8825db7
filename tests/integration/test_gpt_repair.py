"""ember-run --disk on GPT disks with one damaged or hostile table: the partition driver
repairs a copy only from a header whose geometry holds (UEFI 2.10, 5.3.2), and a repair
leaves a disk that sgdisk -v accepts, or leaves the disk untouched.

Disks are made by sgdisk and then patched here, header fields at the byte offsets of the
spec's table 5-5 and CRC32s recomputed, so that each damaged header is CRC-valid and only
its geometry is wrong.
"""
import re
import shutil
import struct
import subprocess
import zlib

import pytest

from conftest import app

SECTOR = 512
ARRAY_BLOCKS = 32  # sgdisk's 128 entries of 128 bytes
# EFI_PARTITION_TABLE_HEADER fields (table 5-5).
HEADER_SIZE, HEADER_CRC, MY_LBA, ALTERNATE_LBA = 12, 16, 24, 32
FIRST_USABLE, LAST_USABLE, ENTRY_LBA = 40, 48, 72
PART_LINE = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s")


def sh(*args):
    return subprocess.run([str(a) for a in args], check=True, capture_output=True,
                          text=True).stdout


def make_gpt(path):
    if not shutil.which("sgdisk"):
        pytest.fail("sgdisk is missing (scripts/deps installs it)")
    with open(path, "wb") as f:
        f.truncate(64 << 20)
    sh("sgdisk", "-n", "1:2048:+20M", "-t", "1:ef00", "-n", "2:0:+10M", "-t", "2:8300", path)
    return path


def sgdisk_partitions(path):
    """{number: (first, last)} as sgdisk -p reads the disk."""
    parts = {}
    for line in sh("sgdisk", "-p", path).splitlines():
        m = PART_LINE.match(line)
        if m:
            parts[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    return parts


def sgdisk_clean(path):
    return "No problems found" in sh("sgdisk", "-v", path)


class Image:
    """The disk's bytes, with the GPT header fields and blocks the tests patch."""

    def __init__(self, path):
        self.path = path
        self.data = bytearray(path.read_bytes())
        self.last = len(self.data) // SECTOR - 1

    def block(self, lba, count=1):
        return self.data[lba * SECTOR:(lba + count) * SECTOR]

    def put_block(self, lba, data):
        self.data[lba * SECTOR:lba * SECTOR + len(data)] = data

    def field(self, lba, offset):
        return struct.unpack_from("<Q", self.data, lba * SECTOR + offset)[0]

    def set_field(self, lba, offset, value):
        struct.pack_into("<Q", self.data, lba * SECTOR + offset, value)

    def fix_crc(self, lba):
        base = lba * SECTOR
        size = struct.unpack_from("<I", self.data, base + HEADER_SIZE)[0]
        struct.pack_into("<I", self.data, base + HEADER_CRC, 0)
        crc = zlib.crc32(bytes(self.data[base:base + size]))
        struct.pack_into("<I", self.data, base + HEADER_CRC, crc)

    def save(self):
        self.path.write_bytes(self.data)


def run_ember(ember, disk):
    """Lists the disk's devices with disk-test; returns (partition paths, stderr)."""
    result = ember("--debug", "--disk", disk, app("disk-test"), "list", timeout=120)
    out = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 0, f"stdout:\n{out}\nstderr:\n{err}"
    return re.findall(r"/HD\((\d+),GPT,", out), err


def test_hostile_primary_array_over_the_backup_area(ember, tmp_path):
    """Issue 10, item 1: the primary header is CRC-valid but its entry array lies near the
    end of the disk, overlapping where the backup array goes, and the backup header is
    gone. Repairing the backup from it used to overwrite the array it was copying from,
    breaking both tables."""
    disk = make_gpt(tmp_path / "hostile.img")
    expected = sgdisk_partitions(disk)
    assert sorted(expected) == [1, 2]
    img = Image(disk)
    moved = img.last - ARRAY_BLOCKS - 9  # nine blocks before the backup array's place
    img.put_block(moved, img.block(2, ARRAY_BLOCKS))
    img.set_field(1, ENTRY_LBA, moved)
    img.set_field(1, LAST_USABLE, moved - 31)  # so the array is outside the usable area
    img.fix_crc(1)
    img.put_block(img.last, bytes(SECTOR))  # no backup header
    img.save()
    hostile = disk.read_bytes()
    assert sgdisk_partitions(disk) == expected

    parts, err = run_ember(ember, disk)
    assert disk.read_bytes() == hostile or sgdisk_clean(disk), sh("sgdisk", "-v", disk)
    assert sgdisk_partitions(disk) == expected
    # Neither header may be trusted, so Ember shows no partitions and says why.
    assert parts == []
    assert "no valid GPT" in err and "partition entry array" in err
    # --debug shows each failing step: both headers, then the driver's Start.
    assert "gpt: header at LBA 1: partition entry array is not between" in err
    assert f"gpt: header at LBA {img.last}: no \"EFI PART\" signature" in err
    assert "partition: no partitions, so the disk is left to others" in err
    # And a second run finds the disk as the first left it.
    run_ember(ember, disk)
    assert sgdisk_partitions(disk) == expected


def test_primary_with_bad_geometry_is_restored_from_the_backup(ember, tmp_path):
    """A CRC-valid primary whose array is the backup's (outside [MyLBA+1, FirstUsableLBA))
    is not used; the valid backup restores it."""
    disk = make_gpt(tmp_path / "primary.img")
    expected = sgdisk_partitions(disk)
    img = Image(disk)
    img.set_field(1, ENTRY_LBA, img.last - ARRAY_BLOCKS)
    img.fix_crc(1)
    img.put_block(2, bytes(ARRAY_BLOCKS * SECTOR))
    img.save()

    parts, err = run_ember(ember, disk)
    assert sorted(parts) == ["1", "2"]
    assert "primary GPT is damaged" in err and "restored the primary GPT" in err
    assert sgdisk_clean(disk), sh("sgdisk", "-v", disk)
    assert sgdisk_partitions(disk) == expected
    img = Image(disk)
    assert img.field(1, ENTRY_LBA) == 2 and img.field(1, ALTERNATE_LBA) == img.last
    _, err = run_ember(ember, disk)
    assert "damaged" not in err


def test_missing_backup_is_restored_from_the_primary(ember, tmp_path):
    disk = make_gpt(tmp_path / "backup.img")
    expected = sgdisk_partitions(disk)
    img = Image(disk)
    img.put_block(img.last - ARRAY_BLOCKS, bytes((ARRAY_BLOCKS + 1) * SECTOR))
    img.save()

    parts, err = run_ember(ember, disk)
    assert sorted(parts) == ["1", "2"]
    assert "backup GPT is damaged" in err and "restored the backup GPT" in err
    assert sgdisk_clean(disk), sh("sgdisk", "-v", disk)
    assert sgdisk_partitions(disk) == expected
    img = Image(disk)
    assert img.field(img.last, MY_LBA) == img.last
    assert img.field(img.last, ENTRY_LBA) == img.last - ARRAY_BLOCKS


def test_backup_with_bad_geometry_is_not_a_repair_source(ember, tmp_path):
    """No primary, and a CRC-valid backup whose AlternateLBA points into the primary's
    entry array instead of at LBA 1: restoring the primary from it used to write the header
    over its own array. The disk is left as it is."""
    disk = make_gpt(tmp_path / "both.img")
    expected = sgdisk_partitions(disk)
    img = Image(disk)
    img.put_block(1, bytes(SECTOR))
    img.set_field(img.last, ALTERNATE_LBA, 5)
    img.fix_crc(img.last)
    img.save()
    before = disk.read_bytes()

    parts, err = run_ember(ember, disk)
    assert disk.read_bytes() == before or sgdisk_clean(disk), sh("sgdisk", "-v", disk)
    assert sgdisk_partitions(disk) == expected
    assert parts == [] and "no valid GPT" in err and "AlternateLBA" in err
