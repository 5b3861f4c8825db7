"""The setup screen ("Ember settings", apps/setup, carried in the x86 image like the shell)
over the serial console in QEMU.

- The boot order changed in it is the order the next boot follows: two boot options start
  copies of one program at \\A.EFI and \\B.EFI (tests/programs/boot_marker.c prints the path
  it was loaded from); the setup screen, opened by BOOT_TO_FW_UI set in the VARS image
  beforehand, moves Beta above Alpha and saves; the boot that follows it, and the next
  one (QEMU started again on the same VARS), start Beta first.
- BOOT_TO_FW_UI written by a program at run time (boot_marker.efi booted as the disk's
  removable-media file sets OsIndications and resets, as `systemctl reboot --firmware-setup` does
  from Linux) opens the firmware's setup screen on the next boot: Ember's, and on OVMF,
  the oracle, OVMF's front page ("Device Manager", "Boot Manager").
- A driver's own form set appears under Device settings: apps/forms-test linked as a boot
  service driver (forms-driver.efi), put in the firmware volume of a copy of
  ember-code.fd by ember-fw, stays resident with its form set; the setup screen shows it,
  and the checkbox turned on there is saved through the driver's Config Access (its FtData
  variable). Ember only: OVMF's own browser shows the same form set in
  test_forms_browser.py, which proves the form set; OVMF has no volume ember-fw can add to.
"""
import struct
import subprocess
import time

import pytest

from conftest import BUILD, FW
from disk_images import fat_partition

MARKER = BUILD / "tests" / "programs" / "boot_marker.efi"
FORMS_DRIVER = BUILD / "apps" / "forms-driver.efi"
FT_GUID = "8d2b7f3e-51a4-4c06-9b1e-2f446a7013c5"  # apps/forms-test's variable
VARSTORE = BUILD / "ember-varstore"
DOWN, ESC, F10 = "\x1b[B", "\x1b", "\x1b[21~"
FOOTER = "F10 save"


def load_option(description, path):
    """An EFI_LOAD_OPTION (UEFI 2.10, 3.1.3), active, of a short-form file path."""
    name = (path + "\0").encode("utf-16-le")
    file_node = struct.pack("<BBH", 4, 4, 4 + len(name)) + name
    end = struct.pack("<BBH", 0x7F, 0xFF, 4)
    text = (description + "\0").encode("utf-16-le")
    return struct.pack("<IH", 1, len(file_node) + len(end)) + text + file_node + end


def setvar(vars_file, name, data):
    subprocess.run([VARSTORE, vars_file, "set", name, "--hex", data.hex()], check=True,
                   capture_output=True)


def boot_order(vars_file):
    out = subprocess.run([VARSTORE, vars_file, "get", "BootOrder", "--raw"],
                         capture_output=True, check=True).stdout
    return list(struct.unpack(f"<{len(out) // 2}H", out))


def marker_disk(work, names):
    """A FAT disk holding boot_marker.efi under each name."""
    return fat_partition(work / "esp.img", 8 * 1024 * 1024, {n: MARKER for n in names})


def press(m, key, pattern, timeout=120):
    """Sends a key and waits until what is drawn after it matches pattern."""
    start = len(m.text)
    m.send(key)
    if key == ESC:
        time.sleep(1)  # a lone Esc is told from a sequence by the pause after it
    deadline = time.monotonic() + timeout
    while pattern not in m.text[start:]:
        assert time.monotonic() < deadline, f"no {pattern!r} after {key!r}:\n{m.text[-2000:]}"
        time.sleep(0.1)


def test_reorder_then_boot_the_new_first(machine, tmp_path):
    vars_file = tmp_path / "vars.fd"
    vars_file.write_bytes((FW / "ember-vars.fd").read_bytes())
    setvar(vars_file, "Boot0001", load_option("Alpha", "\\A.EFI"))
    setvar(vars_file, "Boot0002", load_option("Beta", "\\B.EFI"))
    setvar(vars_file, "BootOrder", struct.pack("<2H", 1, 2))
    setvar(vars_file, "OsIndications", struct.pack("<Q", 1))
    disk = marker_disk(tmp_path, ["A.EFI", "B.EFI"])
    drive = ["-drive", f"format=raw,if=ide,file={disk}"]
    m = machine(firmware="pflash", vars_file=vars_file, disks=[drive], timeout=300)
    m.expect(r"Ember settings", timeout=300)
    m.expect(FOOTER, timeout=300)
    time.sleep(1)
    press(m, "\r", "Boot timeout")  # the first page: Boot options
    for _ in range(3):  # timeout, Alpha, Beta, then "Move an option up"
        press(m, DOWN, FOOTER)
    press(m, "\r", "F10 saves the order")
    press(m, DOWN, FOOTER)
    press(m, "\r", "Done.")  # Beta moves up
    press(m, F10, "Saved.")
    press(m, ESC, "Move an option down")
    press(m, ESC, "Enter opens a page")
    m.send(ESC)
    first = m.expect(r"boot-marker: (\S+)\n", timeout=120).group(1)
    assert first.upper().endswith("B.EFI"), m.text[-2000:]
    m.close()
    assert boot_order(vars_file)[:2] == [2, 1]
    again = machine(firmware="pflash", vars_file=vars_file, disks=[drive], timeout=300)
    first = again.expect(r"boot-marker: (\S+)\n", timeout=300).group(1)
    assert first.upper().endswith("B.EFI"), again.text[-2000:]
    assert "Ember settings" not in again.text  # BOOT_TO_FW_UI is used once


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"])
def test_boot_to_fw_ui_from_a_program(machine, tmp_path, firmware):
    disk = marker_disk(tmp_path, ["EFI/BOOT/BOOTX64.EFI"])
    m = machine(firmware=firmware, disks=[["-drive", f"format=raw,if=ide,file={disk}"]],
                timeout=300, no_reboot=False)
    m.expect(r"OsIndications set Success; resetting", timeout=300)
    want = {"pflash": r"Ember settings", "ovmf": r"Device Manager"}[firmware]
    m.expect(want, timeout=300)


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_shell_exit_opens_the_setup_screen(machine, firmware):
    """Nothing to boot: the shell runs; its `exit` opens the setup screen (on OVMF, the
    oracle, its front page), and leaving that (Ember) goes through the boot order again
    to the shell."""
    m = machine(firmware=firmware, timeout=300)
    m.expect(r"Shell> ", timeout=300)
    time.sleep(1)
    press(m, "exit\r", {"bios": "Ember settings", "ovmf": "Device Manager"}[firmware])
    if firmware == "bios":
        m.expect(FOOTER)
        press(m, ESC, "Shell> ")


def test_a_drivers_form_set_in_device_settings(machine, tmp_path):
    code = tmp_path / "code.fd"
    code.write_bytes((FW / "ember-code.fd").read_bytes())
    subprocess.run([BUILD / "ember-fw", code, "add", FORMS_DRIVER], check=True,
                   capture_output=True)
    vars_file = tmp_path / "vars.fd"
    vars_file.write_bytes((FW / "ember-vars.fd").read_bytes())
    setvar(vars_file, "OsIndications", struct.pack("<Q", 1))
    m = machine(firmware="pflash", vars_file=vars_file, code_file=code, timeout=300)
    m.expect(r"Ember settings", timeout=300)
    m.expect(FOOTER, timeout=300)
    time.sleep(1)
    for _ in range(6):  # Boot options ... System information, then Device settings
        press(m, DOWN, FOOTER)
    press(m, "\r", "The settings drivers offer")
    assert "Forms test" in m.text[-3000:], m.text[-3000:]
    press(m, "\r", "Enable feature")  # the driver's form set
    press(m, "\r", "[X]")
    press(m, F10, "Saved")
    press(m, ESC, "The settings drivers offer")  # back in the setup screen
    m.close()
    got = subprocess.run([VARSTORE, vars_file, "get", "FtData", FT_GUID, "--raw"],
                         capture_output=True)
    assert got.returncode == 0 and got.stdout[0] == 1, got
