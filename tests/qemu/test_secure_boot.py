"""Secure Boot key enrolment under QEMU (issue 11): apps/sb-enroll, booted from a FAT disk
as \\EFI\\BOOT\\BOOTX64.EFI with the .auth files beside it (tests/integration/sb_keys.py),
enrolls PK, KEK, db, a db append and dbx by SetVariable and checks the modes and the
refusals, on Ember's firmware with its pflash pair and on OVMF's Secure Boot build (SMM,
a secure pflash), which proves the test right. The keys then stay in Ember's VARS flash."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILD, ROOT
from disk_images import fat_partition

sys.path.insert(0, str(ROOT / "tests" / "integration"))
from sb_keys import make_keys  # noqa: E402

APP = BUILD / "apps" / "sb-enroll.efi"
SUMMARY = re.compile(r"sb-enroll: (\d+) passed, (\d+) failed")
OVMF_SECBOOT = Path("/usr/share/OVMF/OVMF_CODE_4M.secboot.fd")
MIB = 1024 * 1024


def key_files(tmp_path):
    if not APP.exists():
        pytest.fail(f"{APP} is missing: run make first")
    return make_keys(tmp_path / "keys", APP)


def test_enrolment_on_ember_pflash(machine, tmp_path):
    keys = key_files(tmp_path)
    files = {"EFI/BOOT/BOOTX64.EFI": APP}
    files.update({p.name: p for p in keys.iterdir() if p.suffix in (".auth", ".esl")})
    disk = fat_partition(tmp_path / "disk.img", 16 * MIB, files)
    vars_file = tmp_path / "vars.fd"
    m = machine(firmware="pflash", vars_file=vars_file, timeout=300,
                extra=["-drive", f"if=none,id=keys,format=raw,file={disk}",
                       "-device", "virtio-blk-pci,drive=keys"])
    m.expect(r"sb-enroll: \d+ passed, \d+ failed", timeout=300)
    m.wait_exit(60)
    passed, failed = map(int, SUMMARY.findall(m.text)[-1])
    assert failed == 0 and passed >= 37, m.text
    # What the guest enrolled is in the VARS flash: KEK, db and dbx stay, PK was deleted.
    listing = subprocess.run([str(BUILD / "ember-varstore"), str(vars_file), "list"],
                             capture_output=True, timeout=60).stdout.decode()
    for name in ("KEK", "db", "dbx"):
        assert re.search(rf"NV,BS,RT,AT +\d+ {name}$", listing, re.M), listing
    assert not re.search(r" PK$", listing, re.M), listing


@pytest.mark.skipif(not OVMF_SECBOOT.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF's Secure Boot build (Debian package ovmf) or QEMU missing")
def test_enrolment_on_ovmf_secboot(tmp_path):
    keys = key_files(tmp_path)
    files = tmp_path / "files"
    files.mkdir()
    for p in keys.iterdir():
        if p.suffix in (".auth", ".esl"):
            shutil.copy(p, files / p.name)
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--secboot", "--timeout", "400",
                          "--files", str(files), str(APP)], capture_output=True, timeout=500)
    out = run.stdout.decode("utf-8", "replace")
    assert run.returncode == 0, out[-3000:] + run.stderr.decode()
    passed, failed = map(int, SUMMARY.findall(out)[-1])
    assert failed == 0 and passed >= 37, out[-3000:]
