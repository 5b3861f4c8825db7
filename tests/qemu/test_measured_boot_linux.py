"""Measured boot under Debian's Linux (issue 12's acceptance): a unified kernel image (systemd's
stub, Debian's kernel, an initramfs whose /init is tests/qemu/linux/tpm_init.sh) is booted
from a GPT disk with swtpm behind tpm-crb and then tpm-tis, on Ember and on OVMF. Linux must
find /sys/class/tpm/tpm0 and the firmware's event log (binary_bios_measurements, which its
EFI stub took from EFI_TCG2_PROTOCOL and the final events table); the log, printed as hex on
the console, is replayed on the host by tpm2_eventlog (Debian's tpm2-tools) and every
replayed SHA-256 PCR 0-7 must equal what Linux read from the TPM. The log has the Spec ID
event, a separator in each PCR 0-7, the UKI's Authenticode SHA-256 (pesign -h) as the boot
application in PCR 4, and systemd-stub's own measurements (PCR 11) made through
HashLogExtendEvent. The same through Debian's GRUB (grub-mkstandalone) loading the kernel
and the initramfs from the ESP, once per interface: GRUB is then the boot application in
PCR 4. The Linux payloads come from tests/qemu/linux_payloads.py (Debian's packages,
cached); this test's initramfs, UKI and disks are made in its own directory."""
import gzip
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

import linux_payloads as lp
from conftest import FW, OVMF_CODE, OVMF_VARS
from test_measured_boot import authenticode_sha256
from test_tpm import Swtpm

TPM_INIT = Path(__file__).resolve().parent / "linux" / "tpm_init.sh"
BOOT_TIMEOUT = 400

pytestmark = [
    pytest.mark.skipif(not shutil.which("swtpm"), reason="swtpm not installed (scripts/deps)"),
    pytest.mark.skipif(not shutil.which("tpm2_eventlog"),
                       reason="tpm2_eventlog not installed (scripts/deps: tpm2-tools)"),
]


def tpm_initrd(work):
    """linux_payloads' initramfs with tpm_init.sh as /init."""
    entries = [e for e in lp._initramfs_entries() if e[0] != "init"]
    entries.append(("init", 0o100755, TPM_INIT.read_bytes()))
    initrd = work / "initrd.gz"
    initrd.write_bytes(gzip.compress(lp.cpio_newc(entries), 6, mtime=0))
    return initrd


def tpm_uki(work, initrd):
    """The UKI: the stub's sections placed as linux_payloads.uki places them."""
    (work / "cmdline").write_bytes(lp.CMDLINE.encode() + b"\0")
    (work / "osrel").write_bytes(b'NAME="Ember test"\nID=ember-test\n')
    sections = [(".osrel", work / "osrel"), (".cmdline", work / "cmdline"),
                (".linux", lp.kernel()), (".initrd", initrd)]
    vma, cmd = 0x20000, ["objcopy"]
    for section, src in sections:
        cmd += ["--add-section", f"{section}={src}",
                "--change-section-vma", f"{section}={vma:#x}"]
        vma += (src.stat().st_size + 0xFFFF) & ~0xFFFF
    uki = work / "uki.efi"
    subprocess.run(cmd + [str(lp.unpacked() / lp.STUB), str(uki)], check=True,
                   capture_output=True)
    return uki


# Debian's GRUB (grub-mkstandalone, as tests/qemu/test_linux.py makes it) loading the
# kernel and the initramfs from the ESP. Debian 12's GRUB (2.06) boots `linux` through its
# own x86 loader when Secure Boot is off: Linux's EFI stub then never runs, and Linux gets
# no event log from the firmware (on OVMF as on Ember). `linuxefi` (what it uses with
# Secure Boot on) enters the stub through the EFI handover protocol. GRUB's tpm module
# measures what it loads into PCRs 8 and 9 through HashLogExtendEvent.
GRUB_CFG = ("set timeout=0\n"
            "insmod tpm\n"
            "search --no-floppy --set=root --file /ember/vmlinuz\n"
            f"linuxefi /ember/vmlinuz {lp.CMDLINE}\n"
            "initrdefi /ember/initrd-tpm.gz\n"
            "boot\n")


@pytest.fixture(scope="module")
def disks(tmp_path_factory):
    """{"uki": (boot application, disk), "grub": (boot application, disk)}."""
    work = tmp_path_factory.mktemp("tpm-linux")
    try:
        initrd = tpm_initrd(work)
        uki = tpm_uki(work, initrd)
        grub = lp.grub_standalone(GRUB_CFG, name="grubx64-tpm.efi", extra_modules="linuxefi tpm")
        kernel = lp.kernel()
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    (work / "uki").mkdir()
    (work / "grub").mkdir()
    return {
        "uki": (uki, lp.esp_disk(work / "uki.img", work / "uki",
                                 {"EFI/BOOT/BOOTX64.EFI": uki})),
        "grub": (grub, lp.esp_disk(work / "grub.img", work / "grub",
                                   {"EFI/BOOT/BOOTX64.EFI": grub, "ember/vmlinuz": kernel,
                                    "ember/initrd-tpm.gz": initrd})),
    }


def boot_linux(firmware, disk, device, work):
    """Boots the disk to tpm_init.sh's power-off; the console."""
    tpm = Swtpm()
    if firmware == "ember":
        fw = ["-bios", str(FW / "ember.fd")]
    else:
        shutil.copy(OVMF_VARS, work / "vars.fd")
        fw = ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
              "-drive", f"if=pflash,format=raw,file={work / 'vars.fd'}"]
    qemu = None
    try:
        qemu = subprocess.Popen(
            ["qemu-system-x86_64", "-machine", "q35,accel=tcg", "-m", "512", "-display",
             "none", "-net", "none", "-serial", "stdio", "-monitor", "none", "-no-reboot",
             "-drive", f"file={disk},format=raw,if=virtio,snapshot=on"]
            + fw + tpm.qemu_args(device),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            out, _ = qemu.communicate(timeout=BOOT_TIMEOUT)
        except subprocess.TimeoutExpired:
            qemu.kill()
            out, _ = qemu.communicate()
        return out.decode(errors="replace").replace("\r", "")
    finally:
        if qemu and qemu.poll() is None:
            qemu.kill()
            qemu.wait()
        tpm.stop()
        time.sleep(0.1)


def eventlog(log_file):
    """tpm2_eventlog's YAML: the events [(pcr, type, sha256 hex)] and the replayed SHA-256
    PCRs {pcr: hex}."""
    out = subprocess.run(["tpm2_eventlog", str(log_file)], check=True, capture_output=True,
                         text=True).stdout
    events = []
    for block in re.split(r"\n- EventNum:", out)[1:]:
        pcr = int(re.search(r"PCRIndex: (\d+)", block).group(1))
        kind = re.search(r"EventType: (\w+)", block).group(1)
        sha256 = re.search(r"AlgorithmId: sha256\s+Digest: \"([0-9a-f]+)\"", block)
        events.append((pcr, kind, sha256.group(1) if sha256 else None))
    pcrs = {}
    bank = re.search(r"^  sha256:\n((?:    \d+ *: 0x[0-9A-Fa-f]+\n)+)", out, re.M)
    assert bank, out[-3000:]
    for pcr, value in re.findall(r"(\d+) *: 0x([0-9A-Fa-f]+)", bank.group(1)):
        pcrs[int(pcr)] = value.lower()
    return out, events, pcrs


def expect_log_replays(firmware, disk, app_digest, device, work):
    """Boots Linux on device; its log replays to the PCRs 0-7 it read. The events."""
    console = boot_linux(firmware, disk, device, work)
    assert "EMBER-DONE: tpm" in console, console[-4000:]
    assert "EMBER-TPM: tpm0" in console, console[-4000:]
    linux_pcrs = {int(p): v.lower() for p, v in
                  re.findall(r"^EMBER-PCR: (\d) ([0-9A-Fa-f]{64})$", console, re.M)}
    assert sorted(linux_pcrs) == list(range(8)), console[-4000:]
    hex_log = "".join(re.findall(r"^EMBER-TPMLOG: ([0-9a-f]+)$", console, re.M))
    assert hex_log, f"{device}: no binary_bios_measurements"
    log_file = work / f"{device}.log"
    log_file.write_bytes(bytes.fromhex(hex_log))

    out, events, replayed = eventlog(log_file)
    for pcr in range(8):
        assert replayed.get(pcr) == linux_pcrs[pcr], \
            f"{device}: PCR {pcr} replayed {replayed.get(pcr)}, Linux read {linux_pcrs[pcr]}"
    assert "Spec ID Event03" in out
    assert {p for p, kind, _ in events if kind == "EV_SEPARATOR"} >= set(range(8))
    assert (4, "EV_EFI_BOOT_SERVICES_APPLICATION", app_digest) in events, \
        f"{device}: the boot application's Authenticode digest {app_digest} is not in PCR 4"
    return events


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_linux_replays_the_firmware_log(firmware, disks, tmp_path):
    """The UKI, on tpm-crb and on tpm-tis."""
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) not installed")
    uki, disk = disks["uki"]
    for device in ("tpm-crb", "tpm-tis"):
        events = expect_log_replays(firmware, disk, authenticode_sha256(uki).hex(), device,
                                    tmp_path)
        assert any(p == 11 for p, _, _ in events), f"{device}: no systemd-stub event in PCR 11"


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_linux_through_grub_replays_the_firmware_log(firmware, disks, tmp_path):
    """Debian's GRUB loading the kernel and the initramfs from the ESP, on tpm-crb and on
    tpm-tis: GRUB is the boot application in PCR 4, and the log Linux's EFI stub took
    replays."""
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) not installed")
    grub, disk = disks["grub"]
    for device in ("tpm-crb", "tpm-tis"):
        events = expect_log_replays(firmware, disk, authenticode_sha256(grub).hex(), device,
                                    tmp_path)
        assert any(p == 9 for p, _, _ in events), f"{device}: no GRUB event in PCR 9"
