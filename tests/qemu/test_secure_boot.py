"""Secure Boot under QEMU (issue 11). Key enrolment: apps/sb-enroll, booted from a FAT disk
as \\EFI\\BOOT\\BOOTX64.EFI with the .auth files beside it (tests/integration/sb_keys.py),
enrolls PK, KEK, db, a db append and dbx by SetVariable and checks the modes and the
refusals, on Ember's firmware with its pflash pair and on OVMF's Secure Boot build (SMM,
a secure pflash), which proves the test right. The keys then stay in Ember's VARS flash.
Image verification: apps/sb-verify enrolls keys and checks LoadImage's verdicts on signed,
unsigned, tampered, unknown-signer and dbx-listed images; then, with the keys enrolled,
an unsigned \\EFI\\BOOT\\BOOTX64.EFI is refused and the boot manager boots the next
disk's signed one; on both firmwares."""
import os
import re
import shutil
import subprocess
import sys
import time
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


# ---- Image verification (apps/sb-verify, tests/integration/sb_images.py) ----

from sb_images import make_images, sign  # noqa: E402

VERIFY_APP = BUILD / "apps" / "sb-verify.efi"
VERIFY_SUMMARY = re.compile(r"sb-verify: (\d+) passed, (\d+) failed")
PROGRAMS = BUILD / "tests" / "programs"


def verify_disks(tmp_path):
    """Two FAT disks: the first boots sb-verify (unsigned) with the keys and images beside
    it, the second a hello signed by the db key."""
    if not VERIFY_APP.exists():
        pytest.fail(f"{VERIFY_APP} is missing: run make first")
    files_dir = make_images(tmp_path / "files", PROGRAMS / "hello.efi",
                            PROGRAMS / "exit_status.efi")
    files = {"EFI/BOOT/BOOTX64.EFI": VERIFY_APP}
    for p in files_dir.rglob("*"):
        if p.is_file() and "keys" not in p.parts:
            files[str(p.relative_to(files_dir))] = p
    first = fat_partition(tmp_path / "first.img", 16 * MIB, files)
    sign("db", PROGRAMS / "hello.efi", tmp_path / "hello-signed.efi", files_dir / "keys")
    second = fat_partition(tmp_path / "second.img", 16 * MIB,
                           {"EFI/BOOT/BOOTX64.EFI": tmp_path / "hello-signed.efi"})
    devices = []
    for i, disk in enumerate((first, second), 1):
        devices += ["-drive", f"if=none,id=d{i},format=raw,file={disk}",
                    "-device", f"virtio-blk-pci,drive=d{i},bootindex={i}"]
    return devices


def check_verify_summary(text):
    found = VERIFY_SUMMARY.findall(text)
    assert found, text[-3000:]
    passed, failed = map(int, found[-1])
    assert failed == 0 and passed >= 25, text[-3000:]


def test_image_verification_on_ember_pflash(machine, tmp_path):
    """Boot 1 (Setup Mode): sb-verify enrolls the keys and checks LoadImage's verdicts.
    Boot 2 (User Mode): the same unsigned BOOTX64.EFI is refused, the boot manager says
    so and boots the next disk's signed hello."""
    devices = verify_disks(tmp_path)
    vars_file = tmp_path / "vars.fd"
    m = machine(firmware="pflash", vars_file=vars_file, timeout=300, extra=devices)
    m.expect(r"sb-verify: \d+ passed, \d+ failed", timeout=300)
    m.wait_exit(60)
    check_verify_summary(m.text)
    m = machine(firmware="pflash", vars_file=vars_file, timeout=300, extra=devices)
    m.expect("Hello World!", timeout=300)
    assert re.search(r"refused by Secure Boot", m.text), m.text
    assert "sb-verify: firmware" not in m.text, m.text


def run_ovmf_until(vars_file, devices, pattern, timeout):
    """Boots OVMF's Secure Boot build (SMM, secure pflash) until pattern shows on the
    serial console; returns the console text."""
    cmd = ["qemu-system-x86_64", "-machine", "q35,smm=on,accel=tcg", "-m", "256",
           "-display", "none", "-net", "none", "-serial", "stdio", "-monitor", "none",
           "-no-reboot", "-global", "driver=cfi.pflash01,property=secure,value=on",
           "-drive", f"if=pflash,format=raw,unit=0,readonly=on,file={OVMF_SECBOOT}",
           "-drive", f"if=pflash,format=raw,unit=1,file={vars_file}", *devices]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = b""
    try:
        os.set_blocking(proc.stdout.fileno(), False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            chunk = proc.stdout.read()
            if chunk:
                out += chunk
                if re.search(pattern, out.decode("utf-8", "replace")):
                    break
            elif proc.poll() is not None:
                break
            else:
                time.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    return out.decode("utf-8", "replace")


@pytest.mark.skipif(not OVMF_SECBOOT.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF's Secure Boot build (Debian package ovmf) or QEMU missing")
def test_image_verification_on_ovmf_secboot(tmp_path):
    devices = verify_disks(tmp_path)
    vars_file = tmp_path / "ovmf-vars.fd"
    shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", vars_file)
    text = run_ovmf_until(vars_file, devices, r"sb-verify: \d+ passed, \d+ failed", 400)
    check_verify_summary(text)
    text = run_ovmf_until(vars_file, devices, r"Hello World!", 400)
    assert "Hello World!" in text, text[-3000:]
    assert "Access Denied" in text, text[-3000:]
    assert "sb-verify: firmware" not in text, text[-3000:]


def test_signed_uki_boots_with_secure_boot(machine, tmp_path):
    """The systemd-stub UKI of the Linux tests, signed by a db key, boots to userspace with
    Secure Boot on (Debian's kernel inside is signed by Debian, not by a db key: the stub
    vouches for it), and Linux sees Secure Boot enabled and locks itself down. One Linux boot, on
    Ember only (the other tests of this file prove sb-verify on OVMF)."""
    import linux_payloads as lp
    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    devices = verify_disks(tmp_path)
    vars_file = tmp_path / "vars.fd"
    m = machine(firmware="pflash", vars_file=vars_file, timeout=300, extra=devices)
    m.expect(r"sb-verify: \d+ passed, \d+ failed", timeout=300)
    m.wait_exit(60)
    check_verify_summary(m.text)
    sign("db", uki, tmp_path / "uki-signed.efi", tmp_path / "files" / "keys")
    (tmp_path / "esp").mkdir()
    disk = lp.esp_disk(tmp_path / "uki.img", tmp_path / "esp",
                       {"EFI/BOOT/BOOTX64.EFI": tmp_path / "uki-signed.efi"})
    m = machine(firmware="pflash", vars_file=vars_file, memory=512, timeout=400,
                disks=[["-drive", f"file={disk},format=raw,if=virtio"]])
    m.expect(r"EMBER-DONE: report", timeout=400)
    assert "refused by Secure Boot" not in m.text, m.text[-3000:]
    assert re.search(r"EMBER-DMESG: .*secureboot: Secure boot enabled", m.text), m.text[-3000:]
    assert re.search(r"EMBER-VAR: SecureBoot-8be4df61", m.text), m.text[-3000:]
    assert re.search(r"EMBER-DMESG: .*Kernel is locked down from EFI Secure Boot", m.text), \
        m.text[-3000:]
    assert "EFI stub: UEFI Secure Boot is enabled." in m.text, m.text[-3000:]
