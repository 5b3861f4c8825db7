"""Debian's own signed boot chain with Secure Boot on (issue 11): with
build/qemu-x86_64/ember-vars.ms.fd (Microsoft's keys), the Microsoft-signed shim
(shim-signed) as \\EFI\\BOOT\\BOOTX64.EFI starts Debian-signed GRUB
(grub-efi-amd64-signed, grubx64.efi beside it, reading $cmdpath/grub.cfg) which starts
Debian's signed kernel with the Linux tests' initramfs, where Linux reports Secure Boot
enabled and lockdown. The same chain with the kernel's signature removed (sbattach
--remove) does not boot: GRUB refuses it through shim. On Ember's pflash pair and on OVMF's
Secure Boot build with its OVMF_VARS_4M.ms.fd, which proves the test right. Two Linux
boots per firmware."""
import re
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT
from test_secure_boot import OVMF_SECBOOT, run_ovmf_until

sys.path.insert(0, str(ROOT / "tests" / "crypto"))
import debian_signed  # noqa: E402

MS_VARS = BUILD / "qemu-x86_64" / "ember-vars.ms.fd"
OVMF_MS_VARS = "/usr/share/OVMF/OVMF_VARS_4M.ms.fd"
DONE = r"EMBER-DONE: report"
REFUSED = r"bad shim signature|you need to load the kernel first"


def chain_disk(tmp_path, strip_kernel):
    """The ESP: shim, GRUB and grub.cfg in \\EFI\\BOOT, the kernel and initramfs at its
    root; strip_kernel: the kernel's signature removed."""
    import linux_payloads as lp
    try:
        kernel, initrd = lp.kernel(), lp.initramfs()
        signed = debian_signed.fetch(BUILD / "crypto-test.debs")
    except (lp.PayloadError, subprocess.CalledProcessError) as e:
        pytest.fail(f"cannot fetch Debian's packages: {e}")
    work = tmp_path / ("unsigned" if strip_kernel else "signed")
    work.mkdir()
    if strip_kernel:
        stripped = work / "vmlinuz"
        shutil.copy(kernel, stripped)
        subprocess.run(["sbattach", "--remove", str(stripped)], check=True,
                       capture_output=True, timeout=60)
        kernel = stripped
    cfg = ("set timeout=0\n"
           f"linux /vmlinuz {lp.CMDLINE} ember_stage=report\n"
           "initrd /initrd.gz\n"
           "boot\n")
    files = {"EFI/BOOT/BOOTX64.EFI": signed / "usr/lib/shim/shimx64.efi.signed",
             "EFI/BOOT/grubx64.efi":
                 signed / "usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed",
             "EFI/BOOT/grub.cfg": cfg, "vmlinuz": kernel, "initrd.gz": initrd}
    disk = lp.esp_disk(tmp_path / f"{work.name}.img", work, files)
    return ["-drive", f"file={disk},format=raw,if=virtio"]


def check_booted(text):
    assert re.search(DONE, text), text[-3000:]
    assert re.search(r"EMBER-DMESG: .*secureboot: Secure boot enabled", text), text[-3000:]
    assert re.search(r"EMBER-DMESG: .*Kernel is locked down from EFI Secure Boot", text), \
        text[-3000:]


def check_refused(text):
    assert re.search(REFUSED, text), text[-3000:]
    assert not re.search(DONE, text), text[-3000:]


def test_debian_chain_on_ember(machine, tmp_path):
    vars_file = tmp_path / "vars.fd"
    shutil.copy(MS_VARS, vars_file)
    m = machine(firmware="pflash", vars_file=vars_file, memory=512, timeout=600,
                extra=chain_disk(tmp_path, False))
    m.expect(DONE, timeout=600)
    check_booted(m.text)
    m.close()
    shutil.copy(MS_VARS, vars_file)
    m = machine(firmware="pflash", vars_file=vars_file, memory=512, timeout=600,
                extra=chain_disk(tmp_path, True))
    m.expect(REFUSED, timeout=600)
    check_refused(m.text)
    m.close()


@pytest.mark.skipif(not OVMF_SECBOOT.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF's Secure Boot build (Debian package ovmf) or QEMU missing")
def test_debian_chain_on_ovmf_secboot(tmp_path):
    vars_file = tmp_path / "ovmf-vars.fd"
    shutil.copy(OVMF_MS_VARS, vars_file)
    devices = ["-m", "512"] + chain_disk(tmp_path, False)
    check_booted(run_ovmf_until(vars_file, devices, DONE, 900))
    shutil.copy(OVMF_MS_VARS, vars_file)
    devices = ["-m", "512"] + chain_disk(tmp_path, True)
    check_refused(run_ovmf_until(vars_file, devices, REFUSED, 900))
