"""ember-run --esp DIR: a host directory as an EFI_SIMPLE_FILE_SYSTEM_PROTOCOL volume.

Runs apps/fs-test (build/apps/fs-test.efi) from inside the directory (so it is loaded through the volume)
and checks what it left on the host, byte for byte; then runs it again on a read-only
directory and checks that nothing changed.
"""
import os
import re
import shutil
import stat
import time
from pathlib import Path

import pytest

from conftest import app

SUMMARY = re.compile(r"fs-test: (\d+) passed, (\d+) failed")
UNICODE_NAME = "\u00dcn\u00efc\u00f6d\u00e9 \u00d1ame.txt"
VERY_LONG_NAME = (
    "This name is long enough to need many long-name directory entries on FAT, and "
    "it keeps its Mixed Case exactly as given.txt"
)

# Every file the read-write run leaves, with its exact contents (None: a directory).
EXPECTED_TREE = {
    "fs-test.efi": "app",
    "FsTest": None,
    "FsTest/Nested Dir": None,
    "FsTest/Nested Dir/Deeper Still": None,
    "FsTest/Nested Dir/Deeper Still/A Long File Name With Mixed Case.Text":
        b"Hello, hosted volume!\nAppended line.\n",
    "FsTest/Nested Dir/" + VERY_LONG_NAME: b"long",
    "FsTest/Nested Dir/Zeroes.bin": b"0123\0\0\0\0",
    "FsTest/Case.TXT": b"first second",
    "FsTest/" + UNICODE_NAME: b"unicode",
    "FsTest/Digits.txt": b"0123456789",
    "FsTest/Seek.dat": b"AxAA\0\0\0\0BBCC",
    "FsTest/Full Dir": None,
    "FsTest/Full Dir/keep.txt": b"kept",
    "FsTest/List": None,
    "FsTest/List/b.txt": b"b",
    "FsTest/List/A.TXT": b"aa",
    "FsTest/List/c dir": None,
    "FsTest/Moved": None,
    "FsTest/Moved/Final.txt": b"move me",
    "FsTest/Moved/Taken.txt": b"taken",
    "FsTest/LOWER.TXT": b"case",
    "FsTest/ReadOnly.txt": b"locked",
    "FsTest/Timed.txt": b"time",
    "FsTest/Async.txt": b"ASYNC data",
}


def run_fs_test(ember, esp):
    result = ember("--esp", esp, esp / "fs-test.efi", timeout=120)
    out = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace")
    summary = SUMMARY.search(out)
    assert summary, f"no summary line\nstdout:\n{out}\nstderr:\n{err}"
    passed, failed = int(summary.group(1)), int(summary.group(2))
    assert failed == 0 and passed > 0, f"stdout:\n{out}\nstderr:\n{err}"
    assert result.returncode == 0, f"exit status {result.returncode}\nstderr:\n{err}"
    return out


def host_tree(top):
    """Relative path -> bytes (files) or None (directories), with the names as stored."""
    tree = {}
    for dirpath, dirnames, filenames in os.walk(top):
        base = Path(dirpath).relative_to(top)
        for name in dirnames:
            tree[str(base / name)] = None
        for name in filenames:
            tree[str(base / name)] = (Path(dirpath) / name).read_bytes()
    return tree


def snapshot(top):
    """Everything a read-only run must leave alone: names, contents, modes, times."""
    shot = {}
    for path in [top, *sorted(top.rglob("*"))]:
        st = path.lstat()
        data = path.read_bytes() if path.is_file() else None
        shot[str(path.relative_to(top))] = (data, st.st_mode, st.st_mtime_ns, st.st_size)
    return shot


@pytest.fixture
def esp(tmp_path):
    esp = tmp_path / "EmberESP"
    esp.mkdir()
    shutil.copy(app("fs-test"), esp / "fs-test.efi")
    yield esp
    # Leave the tree removable for pytest's clean-up when not running as root.
    for path in [esp, *esp.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


def test_read_write_volume(ember, esp):
    out = run_fs_test(ember, esp)
    assert "mode: read-write" in out
    assert "label: EmberESP" in out
    tree = host_tree(esp)
    assert sorted(tree) == sorted(EXPECTED_TREE)
    for name, want in EXPECTED_TREE.items():
        if want == "app":
            assert tree[name] == app("fs-test").read_bytes()
        else:
            assert tree[name] == want, name
    # EFI_FILE_READ_ONLY is the absence of write permission on the host.
    assert (esp / "FsTest/ReadOnly.txt").stat().st_mode & 0o222 == 0
    assert (esp / "FsTest/Digits.txt").stat().st_mode & stat.S_IWUSR
    # SetInfo's ModificationTime is a local time.
    mtime = time.localtime((esp / "FsTest/Timed.txt").stat().st_mtime)
    assert tuple(mtime)[:6] == (2001, 2, 3, 4, 5, 6)
    # Names are UTF-8 on the host.
    assert UNICODE_NAME.encode() in os.listdir(bytes(esp / "FsTest"))


def test_read_only_volume(ember, esp):
    (esp / "ro-data.txt").write_bytes(b"read-only volume\n")
    (esp / "RoDir").mkdir()
    (esp / "RoDir" / "inner.txt").write_bytes(b"inner\n")
    for path in [esp, *esp.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    before = snapshot(esp)
    out = run_fs_test(ember, esp)
    assert "mode: read-only" in out
    assert snapshot(esp) == before


def test_symlinks_out_of_the_directory_are_not_followed(ember, tmp_path):
    """A symlink in the --esp directory is followed only when it leads to something inside
    it: one to a file or a directory outside can be neither read, written nor listed."""
    top = tmp_path / "esp"
    outside = tmp_path / "outside"
    (top / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("secret outside")
    (top / "sub" / "in.txt").write_text("inside")
    links = {"out.txt": "../outside/secret.txt", "outdir": "../outside",
             "abs.txt": str(outside / "secret.txt"), "sub/up.txt": "../../outside/secret.txt",
             "rel.txt": "sub/in.txt", "absin.txt": str(top / "sub" / "in.txt")}
    for name, target in links.items():
        os.symlink(target, top / name)
    typed = ("ls\ntype out.txt\ntype outdir\\secret.txt\ntype abs.txt\ntype sub\\up.txt\n"
             "echo overwritten > out.txt\ntype rel.txt\ntype absin.txt\nexit\n")
    r = ember("--esp", top, app("shell"), "-nostartup", "-noversion", "-nomap",
              input=typed.encode(), timeout=60)
    out, err = r.stdout.decode(), r.stderr.decode()
    assert "secret outside" not in out, out
    assert (outside / "secret.txt").read_text() == "secret outside"
    assert out.count("inside") == 2, out  # links that stay inside work
    for name in ("out.txt", "outdir", "abs.txt", "sub/up.txt"):
        assert f"{name} is a symlink out of the directory" in err, err
    listing = out.split("fs0:\\> type out.txt")[0]
    assert "rel.txt" in listing and "out.txt" not in listing and "outdir" not in listing
