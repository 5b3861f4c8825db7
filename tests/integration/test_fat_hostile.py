"""The FAT driver on hostile disks, through the shell under `ember-run --disk`.

The disks are made by mkfs.vfat and mtools, then one directory entry is patched here:
- a subdirectory whose first cluster is its parent's (FAT16) or the root's (FAT32). Such a
  directory used to list its parent's or the root's files as its own: `rm` of it deleted
  files that were never named and then went round for ever, `ls -r` recursed until the
  shell crashed, and `cp -r` filled the volume. The driver now reports the directory as
  damaged: every command ends, and no file of the volume is lost (fsck.fat finds what it
  found before);
- a file and a directory of one name (the directory's long name "SAME." is "SAME" once its
  trailing dot goes, as names are looked up): `ls -r` opened the file for the directory and
  listed its bytes as entries. The name is now refused as damaged.
"""
import os
import struct
import subprocess

import pytest

from conftest import app

ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1", LC_ALL="C.UTF-8")
MIB = 1 << 20
FILES = {"ROOT1.TXT": b"first root file\n", "ROOT2.TXT": b"second root file\n",
         "DIR/IN.TXT": b"inside DIR\n"}


def tool(*args):
    return subprocess.run(list(map(str, args)), check=True, capture_output=True, env=ENV)


class Volume:
    """Where things are in a FAT image, from its boot sector."""

    def __init__(self, data):
        (self.sector, self.per_cluster, reserved, fats, root_entries, total16, _,
         fat16) = struct.unpack_from("<HBHBHHBH", data, 11)
        self.fat32 = fat16 == 0
        fat_sectors = struct.unpack_from("<I", data, 36)[0] if self.fat32 else fat16
        root_sectors = (root_entries * 32 + self.sector - 1) // self.sector
        self.root_offset = (reserved + fats * fat_sectors) * self.sector
        self.data_offset = self.root_offset + root_sectors * self.sector
        self.root_cluster = struct.unpack_from("<I", data, 44)[0] if self.fat32 else 0

    def cluster_offset(self, cluster):
        return self.data_offset + (cluster - 2) * self.sector * self.per_cluster

    def dir_offset(self, cluster):
        """The first slot of a directory (cluster 0: the root)."""
        if cluster == 0:
            cluster = self.root_cluster
            if not self.fat32:
                return self.root_offset
        return self.cluster_offset(cluster)


def entry(data, at, name):
    """Offset of the 8.3 entry `name` (11 bytes) in the directory starting at `at`."""
    for slot in range(512):
        off = at + 32 * slot
        if data[off] == 0:
            break
        if data[off + 11] != 0x0F and data[off:off + 11] == name:
            return off
    raise AssertionError(f"{name!r} not found")


def cluster_of(data, off):
    return struct.unpack_from("<H", data, off + 20)[0] << 16 | struct.unpack_from("<H", data, off + 26)[0]


def set_cluster(data, off, cluster):
    struct.pack_into("<HH", data, off + 20, cluster >> 16, cluster & 0xFFFF)
    struct.pack_into("<H", data, off + 26, cluster & 0xFFFF)


def hostile_disk(tmp_path, fat):
    """\\ROOT1.TXT, \\ROOT2.TXT, \\DIR\\IN.TXT, and \\DIR\\SUB pointing at DIR (FAT16) or
    at the root (FAT32)."""
    disk = tmp_path / "hostile.img"
    size, extra = (16 * MIB, []) if fat == 16 else (64 * MIB, ["-s", "1"])
    tool("mkfs.vfat", "-C", "-F", fat, *extra, disk, size // 1024)
    tool("mmd", "-i", disk, "::/DIR", "::/DIR/SUB")
    for name, contents in FILES.items():
        src = tmp_path / "src"
        src.write_bytes(contents)
        tool("mcopy", "-i", disk, src, "::/" + name)
    data = bytearray(disk.read_bytes())
    vol = Volume(data)
    dir_entry = entry(data, vol.dir_offset(0), b"DIR        ")
    dir_cluster = cluster_of(data, dir_entry)
    sub = entry(data, vol.dir_offset(dir_cluster), b"SUB        ")
    set_cluster(data, sub, vol.root_cluster if fat == 32 else dir_cluster)
    disk.write_bytes(bytes(data))
    return disk


def fsck(disk):
    result = subprocess.run(["fsck.fat", "-n", str(disk)], capture_output=True, text=True,
                            env=ENV)
    return result.stdout.replace(str(disk), "DISK")


def run_shell(ember, esp, disk, lines):
    typed = "".join(line + "\n" for line in lines) + "exit\n"
    result = ember("--disk", disk, "--esp", esp, app("shell"), "-nostartup", "-noversion",
                   "-nomap", input=typed.encode(), timeout=60)
    return (result.stdout.decode("utf-8", "replace"),
            result.stderr.decode("utf-8", "replace"), result.returncode)


@pytest.mark.parametrize("fat", [16, 32], ids=["sub-is-parent-fat16", "sub-is-root-fat32"])
def test_directory_loop_loses_nothing(ember, tmp_path, fat):
    disk = hostile_disk(tmp_path, fat)
    esp = tmp_path / "esp"
    esp.mkdir()
    before = fsck(disk)
    out, err, rc = run_shell(ember, esp, disk, [
        r"ls -r fs1:\DIR",
        r"cp -r fs1:\DIR fs0:\COPY",
        r"rm fs1:\DIR\SUB",
        r"ls fs1:\DIR\SUB",
    ])
    assert rc == 0, f"exit status {rc}\n{out}\n{err}"
    assert "damaged" in err.lower(), err
    # Every file is still there, with its contents; fsck.fat sees what it saw before.
    for name, contents in FILES.items():
        assert tool("mtype", "-i", disk, "::/" + name).stdout == contents, name
    assert fsck(disk) == before
    # cp -r walks the tree before it copies: a damaged tree is not copied at all (and
    # never the volume over and over).
    copied = sorted(str(p.relative_to(esp)) for p in esp.rglob("*"))
    assert copied == [] and "nothing copied" in err, (copied, err)


def test_file_and_directory_of_one_name(ember, tmp_path):
    disk = tmp_path / "same.img"
    tool("mkfs.vfat", "-C", "-F", 16, disk, 16 * MIB // 1024)
    src = tmp_path / "src"
    src.write_bytes(bytes(range(256)) * 8)  # what would be read as directory entries
    tool("mmd", "-i", disk, "::/DIR", "::/DIR/Same Dir")
    tool("mcopy", "-i", disk, src, "::/DIR/SAME")
    data = bytearray(disk.read_bytes())
    vol = Volume(data)
    dir_cluster = cluster_of(data, entry(data, vol.dir_offset(0), b"DIR        "))
    lfn = entry(data, vol.dir_offset(dir_cluster), b"SAMEDI~1   ") - 32
    assert data[lfn] == 0x41 and data[lfn + 11] == 0x0F
    units = [ord(c) for c in "SAME."] + [0] + [0xFFFF] * 7
    for i, unit in enumerate(units):
        at = 1 + 2 * i if i < 5 else 14 + 2 * (i - 5) if i < 11 else 28 + 2 * (i - 11)
        struct.pack_into("<H", data, lfn + at, unit)
    disk.write_bytes(bytes(data))
    esp = tmp_path / "esp"
    esp.mkdir()
    out, err, rc = run_shell(ember, esp, disk, [r"ls -r fs1:\DIR"])
    assert rc == 0, f"exit status {rc}\n{out}\n{err}"
    assert "Directory of: fs1:\\DIR\\SAME." not in out, out
    assert "fs1:\\DIR\\SAME.: the file system is damaged" in err, err
