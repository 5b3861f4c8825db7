"""The shell's walks over directory trees (ls -r, rm, cp -r; apps/shell/pure/walk.c and
cmd/tree_check.c) on hostile FAT volumes and on deep trees, under ember-run.

Issue 10, item 2: a subdirectory whose start cluster is its parent or the root made rm
delete files that were never named, then hang; ls -r recursed until the shell crashed;
cp -r filled the volume. Item 6: ls -r read a file's bytes as directory entries when a
file and a directory shared a name. The volumes are made by mkfs.vfat and mtools, then one
directory entry is patched. The FAT driver may come to refuse such directories itself;
the deep legal trees on --esp check the shell's bounds without the driver.
"""
import os
import shutil
import struct
import subprocess

import pytest

from conftest import app
from test_shell import clean

pytestmark = pytest.mark.skipif(
    not shutil.which("mkfs.vfat") or not shutil.which("mcopy"),
    reason="mkfs.vfat (dosfstools) or mtools missing")

MTOOLS_ENV = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}
SHELL_ARGS = ("-nostartup", "-noversion", "-nomap")
TOO_DEEP = "directories nested more than 64 levels deep"
DAMAGED = "the file system is damaged"


def stopped(err):
    """The shell's bound stopped the walk, or the FAT driver refused the looping
    directory (as it may come to); either way with a message."""
    return TOO_DEEP in err or DAMAGED in err


def mtools(*args, check=True):
    return subprocess.run(args, check=check, env=MTOOLS_ENV, capture_output=True)


def make_volume(path, fat, size_mb, dirs, files):
    with open(path, "wb") as f:
        f.truncate(size_mb << 20)
    subprocess.run(["mkfs.vfat", "-F", str(fat), "-n", "HOSTILE", str(path)], check=True,
                   capture_output=True)
    for d in dirs:
        mtools("mmd", "-i", path, "::/" + d)
    for name, data in files.items():
        src = path.parent / "content"
        src.write_bytes(data)
        mtools("mcopy", "-i", path, src, "::/" + name)


class Fat:
    """Just enough of a FAT volume to find 8.3 entries and patch them."""

    def __init__(self, path):
        self.path = path
        self.img = bytearray(path.read_bytes())
        bps, spc, reserved, fats, root_entries = struct.unpack_from("<HBHBH", self.img, 11)
        fat_size = struct.unpack_from("<H", self.img, 22)[0] or \
            struct.unpack_from("<I", self.img, 36)[0]
        self.cluster_bytes = bps * spc
        self.root_cluster = 0 if root_entries else struct.unpack_from("<I", self.img, 44)[0]
        root = (reserved + fats * fat_size) * bps
        self.data = root + root_entries * 32
        self.root = (root, root_entries) if root_entries else \
            (self.cluster_offset(self.root_cluster), self.cluster_bytes // 32)

    def cluster_offset(self, cluster):
        return self.data + (cluster - 2) * self.cluster_bytes

    def entry(self, where, name):
        """The offset of the 8.3 entry name ("SUB        ") in a directory (offset, count)."""
        start, count = where
        for i in range(count):
            e = start + 32 * i
            if bytes(self.img[e:e + 11]) == name:
                return e
        raise KeyError(name)

    def cluster(self, e):
        return struct.unpack_from("<H", self.img, e + 26)[0] | \
            struct.unpack_from("<H", self.img, e + 20)[0] << 16

    def set_cluster(self, e, cluster):
        struct.pack_into("<H", self.img, e + 26, cluster & 0xffff)
        struct.pack_into("<H", self.img, e + 20, cluster >> 16)

    def subdir(self, e):
        return (self.cluster_offset(self.cluster(e)), self.cluster_bytes // 32)

    def save(self):
        self.path.write_bytes(bytes(self.img))


def short(name):
    base, _, ext = name.partition(".")
    return (base.ljust(8) + ext.ljust(3)).encode()


@pytest.fixture
def parent_loop(tmp_path):
    """FAT16: \\DIR\\SUB starts at \\DIR's cluster."""
    img = tmp_path / "parent.img"
    make_volume(img, 16, 32, ["DIR", "DIR/SUB"],
                {"ROOT1.TXT": b"root one\n", "DIR/F.TXT": b"in dir\n", "DIR/SUB/G.TXT": b"g\n"})
    fat = Fat(img)
    d = fat.entry(fat.root, short("DIR"))
    fat.set_cluster(fat.entry(fat.subdir(d), short("SUB")), fat.cluster(d))
    fat.save()
    return img


@pytest.fixture
def root_loop(tmp_path):
    """FAT32: \\LOOP starts at the root directory's cluster."""
    img = tmp_path / "root.img"
    make_volume(img, 32, 64, ["DIR", "LOOP"],
                {"ROOT1.TXT": b"root one\n", "ROOT2.TXT": b"root two\n",
                 "DIR/F.TXT": b"in dir\n", "LOOP/IN.TXT": b"x\n"})
    fat = Fat(img)
    fat.set_cluster(fat.entry(fat.root, short("LOOP")), fat.root_cluster)
    fat.save()
    return img


def shell(ember, esp, lines, disk=None):
    typed = "".join(line + "\n" for line in lines) + "exit\n"
    extra = ("--disk", disk) if disk else ()
    result = ember(*extra, "--esp", esp, app("shell"), *SHELL_ARGS, input=typed.encode(),
                   timeout=60)
    return clean(result.stdout), clean(result.stderr), result.returncode


def listing(img, path="::/"):
    out = mtools("mdir", "-b", "-i", img, path, check=False).stdout.decode()
    return sorted(line.rstrip("/").rsplit("/", 1)[-1] for line in out.split())


@pytest.fixture
def esp(tmp_path):
    d = tmp_path / "esp"
    d.mkdir()
    return d


# ---- Loops on FAT volumes ----

def test_rm_leaves_a_loop_through_the_parent_alone(ember, esp, parent_loop):
    out, err, rc = shell(ember, esp, ["rm fs1:\\DIR\\SUB", "echo %lasterror%"], parent_loop)
    assert stopped(err) and "; nothing deleted" in err, err
    if TOO_DEEP in err:
        assert "rm: fs1:\\DIR\\SUB\\SUB\\" in err
        assert "it lists what fs1:\\DIR\\SUB lists; nothing deleted" in err
    # F.TXT sits in \DIR, never named: it must stay, as must everything else.
    assert listing(parent_loop, "::/DIR") == ["F.TXT", "SUB"]
    assert "ROOT1.TXT" in listing(parent_loop)
    assert "0x800000000000000a" in out.split("\n")  # EFI_VOLUME_CORRUPTED
    assert rc == 0


def test_ls_r_stops_at_a_loop(ember, esp, parent_loop):
    out, err, rc = shell(ember, esp, ["ls -r fs1:\\"], parent_loop)
    assert stopped(err), err
    if TOO_DEEP in err:
        assert "it lists what fs1:\\DIR lists; not listed" in err
    # The walk went 64 levels below fs1:\ at most.
    assert 1 <= out.count("Directory of: fs1:\\") <= 1 + 64
    assert "fs0:\\> exit" in out


def test_cp_r_copies_nothing_of_a_loop(ember, esp, parent_loop):
    free_before = mtools("minfo", "-i", parent_loop, "::").stdout
    out, err, rc = shell(ember, esp, ["cp -r fs1:\\DIR fs1:\\COPY", "cp -r fs1:\\DIR fs0:\\copy"],
                         parent_loop)
    assert err.count("nothing copied") == 2, err
    assert "COPY" not in listing(parent_loop) and not (esp / "copy").exists()
    assert mtools("minfo", "-i", parent_loop, "::").stdout == free_before


def test_rm_leaves_a_loop_through_the_root_alone(ember, esp, root_loop):
    before = listing(root_loop)
    out, err, rc = shell(ember, esp, ["rm fs1:\\LOOP", "ls -r fs1:\\LOOP"], root_loop)
    assert stopped(err) and "rm: fs1:\\LOOP" in err and "; nothing deleted" in err, err
    assert listing(root_loop) == before == ["DIR", "LOOP", "ROOT1.TXT", "ROOT2.TXT"]
    assert listing(root_loop, "::/DIR") == ["F.TXT"]
    assert err.count("ls: fs1:\\LOOP") == 1


# ---- Deep legal trees (no driver trick involved) ----

def nest(top, levels):
    path = top
    for _ in range(levels):
        path = path / "d"
    path.mkdir(parents=True)
    (path / "leaf.txt").write_bytes(b"deepest\n")
    return path


def test_tree_deeper_than_the_bound_is_refused_whole(ember, esp):
    leaf = nest(esp / "deep", 70)
    out, err, rc = shell(ember, esp, ["ls -r deep", "rm deep", "cp -r deep copy"])
    assert err.count(TOO_DEEP) == 3, err
    assert "; not listed" in err and "; nothing deleted" in err and "; nothing copied" in err
    assert (leaf / "leaf.txt").exists()
    assert not (esp / "copy").exists()
    assert out.count("Directory of: fs0:\\deep") == 65


def test_tree_as_deep_as_the_bound_is_walked(ember, esp):
    nest(esp / "deep", 64)
    out, err, rc = shell(ember, esp, ["ls -r deep", "cp -r deep copy", "rm deep"])
    assert err == ""
    assert out.count("Directory of: fs0:\\deep") == 65
    assert not (esp / "deep").exists()
    assert (nest_path(esp / "copy", 64) / "leaf.txt").read_bytes() == b"deepest\n"


def nest_path(top, levels):
    return top.joinpath(*["d"] * levels)


def test_nested_directories_that_list_alike_are_no_loop(ember, esp):
    # Made in one go, a\a\a\a list alike down to the times; they are still walked.
    out, err, rc = shell(ember, esp, ["mkdir a a\\a a\\a\\a a\\a\\a\\a", "ls -r a", "rm a"])
    assert err == ""
    assert out.count("Directory of: fs0:\\a") == 4
    assert not (esp / "a").exists()


# ---- A file and a directory with one name ----

@pytest.fixture
def same_name(tmp_path):
    """FAT16: \\SAME is a directory, then a file called SAME too (a damaged volume)."""
    img = tmp_path / "same.img"
    make_volume(img, 16, 32, ["SAME"], {"SAME/INNER.TXT": b"inner\n",
                                        "SAMEF": b"\x50\0\0\0\0\0\0\0" + b"A" * 4000})
    fat = Fat(img)
    e = fat.entry(fat.root, short("SAMEF"))
    fat.img[e:e + 11] = short("SAME")
    fat.save()
    return img


def test_ls_r_never_reads_a_file_as_entries(ember, esp, same_name):
    out, err, rc = shell(ember, esp, ["ls -r fs1:\\", "rm fs1:\\SAME"], same_name)
    assert "\u4141" not in out  # "AA" read as UCS-2: the file's bytes shown as names
    # Unless the FAT driver comes to report the name given twice as damage itself.
    assert "ls: fs1:\\SAME: opens a file, not the directory listed" in err or DAMAGED in err, err
    assert "fs0:\\> exit" in out
