"""The FAT driver against real tools: mkfs.vfat, sgdisk, sfdisk, parted, mtools, fsck.fat.

Runs apps/fat-test from inside FAT12/16/32 images (whole-disk, and inside GPT and MBR
partitions) under `ember-run --disk`:
- `fat-test write` builds \\FatTest through EFI_FILE_PROTOCOL; mtools must extract exactly
  EXPECTED (names, contents, attributes, label) and `fsck.fat -n` must stay silent;
- `fat-test dump` lists a tree that mtools wrote (long and Unicode names, nested
  directories, many files); every name, size and CRC-32 must match the host's copy.
Also: a read-only disk (`:ro`) is refused every write and left byte-for-byte unchanged.
"""
import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from conftest import app

SUMMARY = re.compile(r"fat-test: (\d+) passed, (\d+) failed")
ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1", LC_ALL="C.UTF-8")
MIB = 1 << 20
# FAT type -> (volume size, extra mkfs.vfat arguments). mtools needs 65525 clusters to see
# FAT32, so that volume is 64 MiB of 512-byte clusters.
VOLUMES = {12: (4 * MIB, []), 16: (16 * MIB, []), 32: (64 * MIB, ["-s", "1"])}
PART_START = MIB  # partitions start at 1 MiB (LBA 2048)


def pattern(size, seed):
    """The same bytes as ft_pattern() in apps/fat-test/util.c."""
    x = (seed * 2654435761 + 1) & 0xFFFFFFFF
    out = bytearray(size)
    for i in range(size):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        out[i] = (x >> 16) & 0xFF
    return bytes(out)


VERY_LONG = ("This name is long enough to need many long-name directory entries on FAT, it has "
             "well over two hundred characters, keeps its Mixed Case exactly as given, and "
             "still stays below the limit of two hundred and fifty-five units.txt")
BIG = None  # pattern(3 MiB, 7), made once


def expected_tree():
    """What `fat-test write` leaves in \\FatTest (None: a directory)."""
    global BIG
    if BIG is None:
        BIG = pattern(3 * MIB, 7)
    tree = {
        "Nested Dir": None,
        "Nested Dir/Deeper Still": None,
        "Nested Dir/Deeper Still/A Long File Name With Mixed Case.Text":
            b"Hello, FAT volume!\nAppended line.\n",
        "Nested Dir/" + VERY_LONG: b"long",
        "\u00dcn\u00efc\u00f6d\u00e9 \u00d1ame.txt": b"unicode",
        "lower.txt": b"lower",
        "UPPER.TXT": b"upper",
        "Mixed.Txt": b"mixed",
        "Zeroes.bin": b"0123\0\0\0\0" b"4567",
        "Many": None,
        "Renamed Target.txt": b"renamed",
        "Moved": None,
        "Moved/Final.txt": b"move me",
        "Moved/Dir Moved": None,
        "Moved/Dir Moved/inside.txt": b"inside",
        "Truncated.bin": pattern(5000, 1)[:1000],
        "Extended.bin": b"abc" + bytes(4997),
        "ReadOnly.txt": b"locked",
        "Hidden.txt": b"hidden",
        "Big.bin": BIG,
    }
    for i in range(300):
        if i % 3:
            tree[f"Many/file {i:03d} with a long name.txt"] = f"{i:03d}".encode()
    return tree


def tool(*args, **kwargs):
    return subprocess.run(list(map(str, args)), check=True, capture_output=True, env=ENV,
                          **kwargs)


def make_volume(path, fat):
    size, extra = VOLUMES[fat]
    tool("mkfs.vfat", "-C", "-F", fat, *extra, path, size // 1024)


def make_disk(tmp_path, fat, layout):
    """A disk image holding one FAT volume; returns (disk, byte offset of the volume)."""
    volume = tmp_path / "volume.img"
    make_volume(volume, fat)
    if layout == "plain":
        return volume, 0
    disk = tmp_path / "disk.img"
    size = PART_START + volume.stat().st_size + MIB
    with open(disk, "wb") as f:
        f.truncate(size)
    end = PART_START + volume.stat().st_size
    if layout == "gpt":
        tool("sgdisk", "-n", f"1:{PART_START // 512}:{end // 512 - 1}", "-t", "1:ef00", disk)
    elif layout == "mbr":
        tool("sfdisk", disk, input=f"start={PART_START // 512}, size={volume.stat().st_size // 512}, "
             "type=ef\n".encode())
    elif layout == "parted":
        tool("parted", "-s", disk, "mklabel", "msdos", "mkpart", "primary", "fat32",
             f"{PART_START}B", f"{end - 1}B")
    with open(disk, "r+b") as f:
        f.seek(PART_START)
        f.write(volume.read_bytes())
    volume.unlink()
    return disk, PART_START


def mtools_image(disk, offset):
    return f"{disk}@@{offset}" if offset else str(disk)


def fsck_clean(disk, offset, fat, tmp_path):
    """fsck.fat -n on the volume (copied out of a partitioned disk): silent, exit 0."""
    target = disk
    if offset:
        target = tmp_path / "fsck.img"
        with open(disk, "rb") as src:
            src.seek(offset)
            target.write_bytes(src.read(VOLUMES[fat][0]))
    result = subprocess.run(["fsck.fat", "-n", str(target)], capture_output=True, text=True,
                            env=ENV)
    lines = [l for l in result.stdout.splitlines() if l.strip()]
    # "fsck.fat 4.2 (...)", then "<image>: N files, A/B clusters"; nothing else.
    assert result.returncode == 0 and len(lines) <= 2, result.stdout + result.stderr


def run_fat_test(ember, disk, command):
    result = ember("--disk", disk, r"fs0:\fat-test.efi", command, timeout=300)
    out = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace")
    summary = SUMMARY.search(out)
    assert summary, f"no summary line\nstdout:\n{out}\nstderr:\n{err}"
    assert int(summary.group(2)) == 0 and int(summary.group(1)) > 0, f"{out}\n{err}"
    assert result.returncode == 0, f"exit status {result.returncode}\n{err}"
    return out


def extract(disk, offset, tmp_path):
    """The \\FatTest tree as mtools reads it: relative path -> bytes or None."""
    out = tmp_path / "extracted"
    out.mkdir()
    tool("mcopy", "-s", "-n", "-i", mtools_image(disk, offset), "::/FatTest", out)
    top = out / "FatTest"
    tree = {}
    for path in sorted(top.rglob("*")):
        rel = str(path.relative_to(top))
        tree[rel] = None if path.is_dir() else path.read_bytes()
    return tree


LAYOUTS = [(fat, layout) for layout in ("plain", "gpt", "mbr") for fat in (12, 16, 32)]
LAYOUTS.append((32, "parted"))


@pytest.mark.parametrize("fat,layout", LAYOUTS, ids=[f"fat{f}-{l}" for f, l in LAYOUTS])
def test_ember_writes_mtools_reads(ember, tmp_path, fat, layout):
    disk, offset = make_disk(tmp_path, fat, layout)
    image = mtools_image(disk, offset)
    tool("mcopy", "-i", image, app("fat-test"), "::/fat-test.efi")
    run_fat_test(ember, disk, "write")
    tree = extract(disk, offset, tmp_path)
    want = expected_tree()
    assert sorted(tree) == sorted(want)
    for name, data in want.items():
        assert tree[name] == data, name
    attrs = tool("mattrib", "-i", image, "::/FatTest/ReadOnly.txt", "::/FatTest/Hidden.txt",
                 "::/FatTest/lower.txt").stdout.decode()
    assert re.search(r"^  A    R\s+::/FatTest/ReadOnly.txt$", attrs, re.M), attrs
    assert re.search(r"^  A   H\s+::/FatTest/Hidden.txt$", attrs, re.M), attrs
    assert re.search(r"^  A\s+::/FatTest/lower.txt$", attrs, re.M), attrs
    label = tool("mlabel", "-s", "-i", image, "::").stdout.decode()
    assert "EMBERFAT" in label
    # 8.3 names keep their case through the NT flags; long names their own.
    listing = tool("mdir", "-i", image, "::/FatTest").stdout.decode()
    assert re.search(r"^lower    txt", listing, re.M), listing
    assert "Renamed Target.txt" in listing
    fsck_clean(disk, offset, fat, tmp_path)


def host_tree_lines(top):
    """What `fat-test dump` should print for a host tree copied in by mtools."""
    lines = []
    for path in sorted(top.rglob("*")):
        rel = str(path.relative_to(top))
        if path.is_dir():
            lines.append(f"D {rel}")
        else:
            data = path.read_bytes()
            lines.append(f"F {rel} {len(data)} {zlib.crc32(data):08x}")
    return lines


def make_source_tree(top):
    files = {
        "EFI/BOOT/BOOTX64.EFI": pattern(70000, 3),
        "EFI/Ember/A configuration file with a long name.conf": b"timeout 5\n",
        "EFI/Ember/nested/deeper/still deeper/leaf.txt": b"leaf\n",
        "README.TXT": b"upper case 8.3\n",
        "readme2.txt": b"lower case 8.3\n",
        "Mixed Case Name.Md": b"# mixed\n",
        "name.with.many.dots.tar.gz": pattern(5000, 4),
        "caf\u00e9 \u00fcber \u00e9t\u00e9.txt": "unicode \u00e9\n".encode(),
        "empty.txt": b"",
        "Empty Directory": None,
    }
    for i in range(150):
        files[f"many/entry number {i:04d} in a big directory.dat"] = f"{i}".encode() * (i % 7)
    for rel, data in files.items():
        path = top / rel
        if data is None:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.mark.parametrize("fat,layout", [(12, "plain"), (16, "gpt"), (32, "mbr")],
                         ids=["fat12-plain", "fat16-gpt", "fat32-mbr"])
def test_mtools_writes_ember_reads(ember, tmp_path, fat, layout):
    disk, offset = make_disk(tmp_path, fat, layout)
    image = mtools_image(disk, offset)
    source = tmp_path / "source"
    make_source_tree(source)
    tool("mcopy", "-s", "-i", image, *sorted(source.iterdir()), "::/")
    tool("mlabel", "-i", image, "::FROMMTOOLS")
    tool("mcopy", "-i", image, app("fat-test"), "::/fat-test.efi")
    out = run_fat_test(ember, disk, "dump")
    got = sorted(l for l in out.splitlines() if l.startswith(("D ", "F ")))
    want = host_tree_lines(source)
    want.append(f"F fat-test.efi {app('fat-test').stat().st_size} "
                f"{zlib.crc32(app('fat-test').read_bytes()):08x}")
    assert got == sorted(want)
    assert "label FROMMTOOLS" in out


def test_read_only_disk_is_left_alone(ember, tmp_path):
    disk, _ = make_disk(tmp_path, 16, "plain")
    tool("mcopy", "-i", disk, app("fat-test"), "::/fat-test.efi")
    before = disk.read_bytes()
    result = ember("--disk", f"{disk}:ro", r"fs0:\fat-test.efi", "write", timeout=120)
    out = result.stdout.decode("utf-8", "replace")
    # Every write is refused (EFI_WRITE_PROTECTED), so the scenario fails early...
    assert "EFI_WRITE_PROTECTED" in out, out
    # ...and the disk is unchanged, byte for byte.
    assert disk.read_bytes() == before
