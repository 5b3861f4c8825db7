"""EFI_RAM_DISK_PROTOCOL on ember-run (apps/ramdisk-test): a mkfs.vfat image and an xorriso
ISO read into memory are registered as a virtual disk and a virtual CD, a file is read from
each through SimpleFileSystem, the ISO's El Torito image starts a gnu-efi program, both are
unregistered, and the bad arguments get 13.17's statuses. tests/qemu/test_ram_disk.py runs
the same app on QEMU and on OVMF."""
import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import ROOT, app, program

sys.path.insert(0, str(ROOT / "tests" / "qemu"))
from disk_images import ram_disk_images  # noqa: E402

SUMMARY = r"ramdisk-test: (\d+) passed, (\d+) failed"


def test_ram_disk_protocol_on_ember_run(ember, tmp_path):
    for tool in ("xorriso", "mkfs.vfat", "mcopy"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing: scripts/deps installs it")
    esp = tmp_path / "esp"
    esp.mkdir()
    ram_disk_images(esp, tmp_path, program("hello"))
    shutil.copy(app("ramdisk-test"), esp / "ramdisk-test.efi")
    run = ember("--esp", esp, esp / "ramdisk-test.efi", timeout=60)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    assert "ramdisk-test: disk: block size 512" in out, out[-3000:]
    assert "ramdisk-test: cd: block size 2048" in out and "read-only" in out, out[-3000:]
    assert "read \\HELLO.TXT: hello from a RAM disk" in out, out[-3000:]
    assert "read \\RAMDISK.TXT: an El Torito image" in out, out[-3000:]
    assert "Hello World!" in out, out[-3000:]
    found = re.findall(SUMMARY, out)
    assert found and found[-1][1] == "0" and int(found[-1][0]) >= 40, out[-3000:]
    assert "KNOWN" not in out
    assert run.returncode == 0, out[-3000:]
