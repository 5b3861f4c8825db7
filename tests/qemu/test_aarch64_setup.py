"""The setup screen ("Ember settings", apps/setup built for AArch64) in the AArch64 image,
carried after the shell (platform/qemu-aarch64/shell_blob.S) as on x86-64
(test_setup_boot.py, test_setup_settings.py).

- BOOT_TO_FW_UI written into the variables' flash beforehand (ember-varstore on the store's
  region at the start of the bank) opens it: the boot timeout and the resolution (ramfb's
  GOP) are changed and saved with keys, System information lists the PCIe host bridge
  through the shared root bridge; leaving it, nothing boots, the shell runs, and its `exit`
  opens the setup screen again, which shows the saved timeout. The variables are read back
  from the flash, and the next boot starts ramfb in the mode chosen.
- BOOT_TO_FW_UI set at run time by a program (tests/aarch64/fw_ui.c, the disk's removable
  media file, which then resets) opens the setup screen: Ember's, and on AAVMF, the
  oracle, its front page ("Device Manager")."""
import shutil
import struct
import subprocess
import time

import pytest

from conftest import BUILD
from disk_images import MIB, fat_partition
from test_aarch64 import AAVMF_CODE, QEMU, Arm64Machine, program

pytestmark = pytest.mark.skipif(shutil.which(QEMU) is None,
                                reason=f"{QEMU} is missing (Debian package qemu-system-arm)")

VARSTORE = BUILD / "ember-varstore"
REGION = 512 * 1024  # the store's region at the start of the variables' bank
SETTINGS_GUID = "8f1d2a64-5c3e-4b71-9e02-7a6bd41358e9"
DOWN, ESC, F10 = "\x1b[B", "\x1b", "\x1b[21~"
FOOTER = "F10 save"


def varstore(region, *args):
    return subprocess.run([VARSTORE, region, *args], capture_output=True, timeout=60)


def vars_with_boot_to_fw_ui(tmp_path):
    """A 64 MiB variables bank whose store holds OsIndications = BOOT_TO_FW_UI."""
    region = tmp_path / "region.bin"
    got = varstore(region, "set", "OsIndications", "--hex", struct.pack("<Q", 1).hex())
    assert got.returncode == 0, got
    vars_file = tmp_path / "vars.fd"
    data = region.read_bytes()
    vars_file.write_bytes(data + b"\xff" * ((64 << 20) - len(data)))
    return vars_file


def read_var(tmp_path, vars_file, *name):
    """A variable's data from the bank's store, None when absent."""
    region = tmp_path / "after.bin"
    region.write_bytes(vars_file.read_bytes()[:REGION])
    got = varstore(region, "get", *name, "--raw")
    return got.stdout if got.returncode == 0 else None


def press(m, key, pattern, timeout=120):
    """Sends a key and waits until what is drawn after it shows pattern; returns that."""
    start = len(m.text)
    m.send(key)
    if key == ESC:
        time.sleep(1)  # a lone Esc is told from a sequence by the pause after it
    deadline = time.monotonic() + timeout
    while pattern not in m.text[start:]:
        assert time.monotonic() < deadline, f"no {pattern!r} after {key!r}:\n{m.text[-2000:]}"
        time.sleep(0.1)
    return m.text[start:]


def test_settings_saved_and_used(tmp_path):
    vars_file = vars_with_boot_to_fw_ui(tmp_path)
    with Arm64Machine(None, vars_file=vars_file, extra=["-device", "ramfb"], timeout=300) as m:
        m.expect(r"Ember settings")
        m.expect(FOOTER)
        time.sleep(1)
        press(m, "\r", "Boot timeout")  # the first page: Boot options
        press(m, "\r", "Value (0-65535): ")
        press(m, "7\r", "<7>")
        press(m, F10, "Saved.")
        press(m, ESC, "Enter opens a page")
        press(m, DOWN, FOOTER)
        press(m, DOWN, FOOTER)
        shown = press(m, "\r", "Resolution at the next boot")
        assert "Now: 1024x768" in shown, shown  # ramfb's GOP, mode 0
        for _ in range(3):  # the driver's default, 1024x768, 640x480, 800x600
            shown = press(m, "+", FOOTER)
        assert "<800x600>" in shown, shown
        press(m, F10, "Sav")
        press(m, ESC, "Enter opens a page")
        for _ in range(3):  # Serial console, Date and time, System information
            press(m, DOWN, FOOTER)
        press(m, "\r", "Devices:")
        m.expect(r"PCI 0000:00:00\.0  1b36:0008")  # virt's PCIe host bridge
        press(m, ESC, "Enter opens a page")
        m.send(ESC)  # leaves: nothing boots, the shell runs
        m.expect(r"Shell> ")
        time.sleep(1)
        press(m, "exit\r", "Ember settings")
        m.expect(FOOTER)
        time.sleep(1)
        press(m, "\r", "<7>")  # a new setup screen reads the saved timeout
    assert read_var(tmp_path, vars_file, "Timeout") == struct.pack("<H", 7)
    assert read_var(tmp_path, vars_file, "ConsoleResolution", SETTINGS_GUID) == \
        struct.pack("<2I", 800, 600)
    assert read_var(tmp_path, vars_file, "OsIndications") == struct.pack("<Q", 0)
    with Arm64Machine(program("gop_mode"), vars_file=vars_file, extra=["-device", "ramfb"],
                      timeout=120) as m:
        m.expect(r"Mode \d+ is running at 800x600\n")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_boot_to_fw_ui_from_a_program(tmp_path, firmware):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    disk = fat_partition(tmp_path / "esp.img", 8 * MIB,
                         {"EFI/BOOT/BOOTAA64.EFI": program("fw_ui")})
    with Arm64Machine(None, firmware=firmware, disk=disk, no_reboot=False,
                      timeout=120 if firmware == "ember" else 300) as m:
        m.expect(r"fw-ui: OsIndications set; resetting")
        m.expect({"ember": r"Ember settings", "aavmf": r"Device Manager"}[firmware])
