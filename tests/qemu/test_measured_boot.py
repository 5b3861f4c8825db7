"""Measured boot (issue 12, TCG PC Client Platform Firmware Profile): a boot application on a
GPT disk is booted with swtpm behind tpm-crb, on Ember and on OVMF (Debian's build measures
too), and what the TPM received is checked. The PCRs are computed from the TPM_PCR_Extend
commands swtpm itself logs (level 20 prints every command), replayed on the host in every
bank the firmware extended: the TPM's own view, not the firmware's.

Checks that hold on both firmwares: every PCR 0-7 got the separator (SHA-256 of four zero
bytes); PCR 4 got the boot application's Authenticode SHA-256 as `pesign -h` computes it;
booting the same disk twice gives the same PCRs 0-7 in every bank; changing the boot
application (the same disk with the file's bytes changed) changes PCR 4 and no other PCR of
0-7. The application powers the machine off, so the PCRs are final when QEMU ends."""
import hashlib
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import BUILD, FW, OVMF_CODE, OVMF_VARS
from disk_images import MIB, gpt_esp_disk
from test_tpm import Swtpm

APP = BUILD / "tests/programs/measured_app.efi"
TPM_CC_PCR_EXTEND = 0x182
DIGEST_SIZES = {0x0004: 20, 0x000B: 32, 0x000C: 48, 0x000D: 64}
HASHES = {0x0004: hashlib.sha1, 0x000B: hashlib.sha256, 0x000C: hashlib.sha384,
          0x000D: hashlib.sha512}
SHA256 = 0x000B
SEPARATOR_SHA256 = hashlib.sha256(b"\0\0\0\0").digest()
ESP_START = MIB

pytestmark = [
    pytest.mark.skipif(not shutil.which("swtpm"), reason="swtpm not installed (scripts/deps)"),
    pytest.mark.skipif(not shutil.which("pesign"), reason="pesign not installed (scripts/deps)"),
]


def extends(pairs):
    """(pcr, {alg: digest}) of each PCR_Extend the TPM accepted, in order."""
    out = []
    for cmd, rsp in pairs:
        if int.from_bytes(cmd[6:10], "big") != TPM_CC_PCR_EXTEND or \
                int.from_bytes(rsp[6:10], "big") != 0:
            continue
        pcr = int.from_bytes(cmd[10:14], "big")
        at = 18 + int.from_bytes(cmd[14:18], "big")
        count = int.from_bytes(cmd[at:at + 4], "big")
        at += 4
        digests = {}
        for _ in range(count):
            alg = int.from_bytes(cmd[at:at + 2], "big")
            size = DIGEST_SIZES[alg]
            digests[alg] = cmd[at + 2:at + 2 + size]
            at += 2 + size
        out.append((pcr, digests))
    return out


def replay(extended):
    """{(alg, pcr): value} of PCRs 0-7 after the extends (PCRs start at zero)."""
    pcrs = {}
    for pcr, digests in extended:
        for alg, digest in digests.items():
            old = pcrs.get((alg, pcr), bytes(DIGEST_SIZES[alg]))
            pcrs[(alg, pcr)] = HASHES[alg](old + digest).digest()
    return {k: v for k, v in pcrs.items() if k[1] < 8}


def authenticode_sha256(path):
    out = subprocess.run(["pesign", "-h", "-d", "sha256", "-i", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return bytes.fromhex(out.split("hash:")[1].split()[0])


def firmware_args(firmware, work):
    if firmware == "ember":
        return ["-bios", str(FW / "ember.fd")]
    vars_copy = Path(work) / "ovmf-vars.fd"
    shutil.copy(OVMF_VARS, vars_copy)
    return ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
            "-drive", f"if=pflash,format=raw,file={vars_copy}"]


def measured_boot(firmware, disk, work, device="tpm-crb", timeout=300):
    """Boots disk until the application powers off; the TPM's extends, and the console."""
    tpm = Swtpm()
    qemu = None
    try:
        qemu = subprocess.Popen(
            ["qemu-system-x86_64", "-machine", "q35,accel=tcg", "-m", "256", "-display",
             "none", "-net", "none", "-serial", "stdio", "-monitor", "none", "-no-reboot",
             "-drive", f"format=raw,if=virtio,file={disk}"]
            + firmware_args(firmware, work) + tpm.qemu_args(device),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            console, _ = qemu.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            qemu.kill()
            console, _ = qemu.communicate()
        # swtpm logs a command once it answered it: give it a moment after QEMU ended.
        time.sleep(0.5)
        return extends(tpm.pairs()), console.decode(errors="replace")
    finally:
        if qemu and qemu.poll() is None:
            qemu.kill()
            qemu.wait()
        tpm.stop()


def replace_app(disk, app):
    """Puts app as \\EFI\\BOOT\\BOOTX64.EFI in the disk's ESP, leaving its GPT as it was."""
    subprocess.run(["mcopy", "-o", "-i", f"{disk}@@{ESP_START}", str(app),
                    "::/EFI/BOOT/BOOTX64.EFI"], check=True)


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    """The boot application and a changed one (eight more bytes after its end, which its
    Authenticode digest covers)."""
    work = tmp_path_factory.mktemp("apps")
    changed = work / "changed.efi"
    changed.write_bytes(APP.read_bytes() + b"CHANGED!")
    assert authenticode_sha256(APP) != authenticode_sha256(changed)
    return APP, changed


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_measured_boot(firmware, apps, tmp_path):
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) not installed")
    app, changed = apps
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": app})

    first, console = measured_boot(firmware, disk, tmp_path)
    assert "measured app ran" in console, console[-2000:]
    pcrs = replay(first)
    banks = {alg for alg, _ in pcrs}
    assert SHA256 in banks, banks
    for pcr in range(8):
        assert (pcr, SEPARATOR_SHA256) in [(p, d.get(SHA256)) for p, d in first], \
            f"no separator in PCR {pcr}"
    assert (4, authenticode_sha256(app)) in [(p, d.get(SHA256)) for p, d in first], \
        "the boot application's Authenticode digest is not in PCR 4"
    # Every event went into every bank the firmware uses.
    assert all(set(d) == banks for _, d in first)

    again, _ = measured_boot(firmware, disk, tmp_path)
    assert replay(again) == pcrs, "the same disk booted twice gave other PCRs"

    replace_app(disk, changed)
    other, console = measured_boot(firmware, disk, tmp_path)
    assert "measured app ran" in console, console[-2000:]
    assert (4, authenticode_sha256(changed)) in [(p, d.get(SHA256)) for p, d in other]
    changed_pcrs = {pcr for (alg, pcr), value in replay(other).items() if pcrs[(alg, pcr)] != value}
    assert changed_pcrs == {4}
