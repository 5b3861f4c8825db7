"""EFI_TCG2_PROTOCOL on QEMU (issue 12) with swtpm behind tpm-crb and tpm-tis: apps/tcg2-test
checks GetCapability, the services' argument checks, the crypto-agile event log, events
measured by HashLogExtendEvent (data, a PE/COFF image, extend-only), the final events table,
and replays the log against every PCR 0-23 of every active bank read through SubmitCommand.
The same app runs on OVMF, which measures much more: a replay that matches there proves the
app right."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILD, OVMF_CODE
from test_tpm import Swtpm, pytestmark  # noqa: F401 (skips without swtpm)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import edk2_shell  # noqa: E402

APP = BUILD / "apps" / "tcg2-test.efi"
SUMMARY = r"tcg2-test: (\d+) passed, (\d+) failed"


def shell_disk(work, command):
    """A FAT disk that boots the EDK2 Shell (both firmwares, removable media) whose
    startup.nsh runs tcg2-test with arguments, as a user would type it: the way to hand
    OVMF's boot of tcg2-test its arguments (Ember takes them through fw_cfg too)."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    shell = edk2_shell.extract_shell(work / "Shell.efi")
    script = work / "startup.nsh"
    script.write_bytes(f"echo -off\r\nfs0:\r\n{command}\r\n".encode())
    disk = work / "shell.img"
    with open(disk, "wb") as f:
        f.truncate(32 * 1024 * 1024)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    for cmd in (["mformat", "-i", disk, "-T", "65536", "::"],
                ["mmd", "-i", disk, "::/EFI", "::/EFI/BOOT"],
                ["mcopy", "-i", disk, shell, "::/EFI/BOOT/BOOTX64.EFI"],
                ["mcopy", "-i", disk, script, "::/startup.nsh"],
                ["mcopy", "-i", disk, APP, "::/tcg2-test.efi"]):
        subprocess.run([str(c) for c in cmd], check=True, env=env, stdout=subprocess.DEVNULL)
    return ["-drive", f"file={disk},format=raw,if=none,id=shell",
            "-device", "virtio-blk-pci,drive=shell"]


def printed_log(text):
    """The event log tcg2-test printed ("tcg2-log: HEX" lines)."""
    return bytes.fromhex("".join(re.findall(r"^tcg2-log: ([0-9a-f]+)\r?$", text, re.M)))


def run_app(machine, firmware, device):
    tpm = Swtpm()
    try:
        m = machine(firmware=firmware, app=APP, extra=tpm.qemu_args(device), timeout=300)
        found = m.expect(SUMMARY)
        assert "no EFI_TCG2_PROTOCOL" not in m.text
        assert found.group(2) == "0", m.text[-4000:]
        assert int(found.group(1)) > 40, m.text[-4000:]
        return m.text
    finally:
        tpm.stop()


@pytest.mark.parametrize("device", ["tpm-crb", "tpm-tis"])
def test_tcg2_on_ember(machine, device):
    text = run_app(machine, "bios", device)
    assert re.search(r"tcg2-test: banks 0xf active of 0xf", text), text[-3000:]
    # The SHA-1 bank is active: the SHA-1 log is offered, and replays to the SHA-1 PCRs.
    assert "tcg2-test: SHA-1 log replayed" in text, text[-3000:]


@pytest.mark.skipif(not OVMF_CODE.exists(), reason="OVMF (Debian package ovmf) not installed")
@pytest.mark.parametrize("device", ["tpm-crb", "tpm-tis"])
def test_tcg2_on_ovmf(machine, device):
    text = run_app(machine, "ovmf", device)
    # OVMF measures its firmware, variables and boot attempts: a long log, all replayed.
    events = int(re.search(r"tcg2-test: replayed (\d+) events", text).group(1))
    assert events > 10, text[-3000:]
    assert "tcg2-test: SHA-1 log replayed" in text, text[-3000:]


def expect_banks_changed(m):
    """After the request and the firmware's reset: GetResultOfSetActivePcrBanks reports
    success, SHA-256 is the only active bank and the log replays in it."""
    found = m.expect(SUMMARY)
    assert found.group(2) == "0", m.text[-4000:]
    assert "tcg2-test: banks after SetActivePcrBanks: 0x2" in m.text, m.text[-3000:]
    assert "tcg2-test: banks 0x2 active of 0xf" in m.text, m.text[-3000:]
    # The firmware's own measurements (PCRs 0-7) and the app's two events.
    replayed = re.findall(r"tcg2-test: replayed (\d+) events", m.text)
    assert replayed and int(replayed[-1]) > 2, m.text[-3000:]


def test_set_active_pcr_banks_on_ember(machine):
    """SetActivePcrBanks(SHA-256) and a reset; the firmware sends PCR_Allocate and resets
    again; then the result and the bank are checked (expect_banks_changed)."""
    tpm = Swtpm()
    try:
        m = machine(firmware="pflash", app=APP, args="tcg2-test.efi set-banks",
                    extra=tpm.qemu_args("tpm-crb"), no_reboot=False, timeout=300)
        m.expect(r"SHA-256 alone requested, resetting")
        expect_banks_changed(m)
    finally:
        tpm.stop()


@pytest.mark.skipif(edk2_shell.missing() is not None, reason=str(edk2_shell.missing()))
def test_set_active_pcr_banks_on_ovmf(machine, tmp_path):
    """The same request on OVMF, whose boot of tcg2-test is the EDK2 Shell's startup.nsh (so
    that it gets its argument). After the reset OVMF asks for physical presence: its prompt
    names the banks, and the user confirms with F12 on the keyboard (PS/2, as QMP presses
    it); OVMF then allocates, resets, and the result and the bank are checked as on Ember."""
    tpm = Swtpm()
    try:
        m = machine(firmware="ovmf", disks=[shell_disk(tmp_path, "tcg2-test.efi set-banks")],
                    extra=tpm.qemu_args("tpm-crb"), no_reboot=False, timeout=300)
        m.expect(r"SHA-256 alone requested, resetting")
        m.expect(r"New PCRBanks is 0x2")
        m.expect(r"Press F12 to change the boot measurements")
        m.send_keys("f12")
        expect_banks_changed(m)
    finally:
        tpm.stop()


def test_no_tcg2_without_a_tpm(machine):
    m = machine(app=APP, timeout=120)
    m.expect(SUMMARY)
    assert "tcg2-test: no EFI_TCG2_PROTOCOL" in m.text
