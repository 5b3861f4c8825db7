"""Ember's settings variables honoured at the next boot on QEMU (include/ember/core/
settings.h): ConsoleResolution picks the GOP mode qemu_video starts in
(gop_front_set_boot_mode) and SerialConsole the serial console's speed, which the terminal
driver sets on the UART before its Uart() node records it. The variables are what the
setup screen's Resolution and Serial pages save (apps/setup/settings_*.c); here
ember-varstore writes them into the VARS image, and one boot checks both. The second test
drives the pages themselves over the serial console.

OVMF has neither variable (its resolution is PcdVideoHorizontalResolution, set by its own
setup UI in its own variable): the test is Ember's only."""
import re
import shutil
import struct
import subprocess
import time

from conftest import BUILD
from disk_images import fat_partition

GOP_MODE = BUILD / "tests" / "programs" / "gop_mode.efi"
SETTINGS_GUID = "8f1d2a64-5c3e-4b71-9e02-7a6bd41358e9"


def set_setting(vars_file, name, data):
    subprocess.run([BUILD / "ember-varstore", vars_file, "set", name, SETTINGS_GUID, "--hex",
                    data.hex(), "--attrs", "nv,bs"], check=True, capture_output=True,
                   timeout=60)


def test_resolution_and_serial_speed_from_the_settings(machine, tmp_path):
    vars_file = tmp_path / "vars.fd"
    shutil.copy(BUILD / "qemu-x86_64" / "ember-vars.fd", vars_file)
    set_setting(vars_file, "ConsoleResolution",
                (800).to_bytes(4, "little") + (600).to_bytes(4, "little"))
    set_setting(vars_file, "SerialConsole", (57600).to_bytes(4, "little"))
    m = machine(firmware="pflash", vars_file=vars_file, app=GOP_MODE, timeout=120)
    m.expect(r"^Mode [1-9]\d* is running at 800x600$")
    log = m.debug_log
    assert re.search(r"Uart\(57600,8,N,1\)/VenUtf8\(\)", log), log[-3000:]


DOWN, ESC, F10 = "\x1b[B", "\x1b", "\x1b[21~"
FOOTER = "Esc back"


def press(m, key, pattern, timeout=120):
    """Sends a key and waits until what is drawn after it shows pattern; returns that."""
    start = len(m.text)
    m.send(key)
    if key == ESC:
        time.sleep(1)  # a lone Esc is told from a sequence by the pause after it
    deadline = time.monotonic() + timeout
    while pattern not in m.text[start:] or (
            pattern != FOOTER and FOOTER not in m.text[start:].split(pattern)[-1]):
        assert time.monotonic() < deadline, f"no {pattern!r} after {key!r}:\n{m.text[-2000:]}"
        time.sleep(0.1)
    return m.text[start:]


def choose(m, name, others):
    """In the file picker (already open), the first volume, then the file called name."""
    start = len(m.text)
    m.send("\r")
    deadline = time.monotonic() + 120
    while not all(n in m.text[start:] for n in [name, *others]):
        assert time.monotonic() < deadline, m.text[-2000:]
        time.sleep(0.1)
    time.sleep(0.5)
    listing = m.text[start:]
    order = sorted([name, *others], key=listing.rfind)
    for _ in range(order.index(name)):
        m.send(DOWN)
        time.sleep(0.3)
    return press(m, "\r", "Last change")


def test_setup_screen_enrolls_keys_and_changes_the_resolution(machine, tmp_path):
    """Issue 15's acceptance points over the serial console: a db certificate enrolled
    from a file, then the PK, after which the Secure Boot page shows Secure Boot enabled;
    800x600 chosen on the Resolution page, and the GOP in that mode at the next boot."""
    keys = tmp_path / "keys"
    keys.mkdir()
    for name in ("db", "PK"):
        subprocess.run(["openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-subj", f"/CN=Ember QEMU setup {name}/", "-keyout",
                        tmp_path / f"{name}.key", "-outform", "DER", "-out",
                        keys / f"{name}.der"], check=True, capture_output=True, timeout=60)
    disk = fat_partition(tmp_path / "keys.img", 8 * 1024 * 1024,
                         {"db.der": keys / "db.der", "PK.der": keys / "PK.der"})
    drive = ["-drive", f"format=raw,if=ide,file={disk}"]
    vars_file = tmp_path / "vars.fd"
    shutil.copy(BUILD / "qemu-x86_64" / "ember-vars.fd", vars_file)
    subprocess.run([BUILD / "ember-varstore", vars_file, "set", "OsIndications", "--hex",
                    struct.pack("<Q", 1).hex()], check=True, capture_output=True, timeout=60)
    m = machine(firmware="pflash", vars_file=vars_file, disks=[drive], timeout=300)
    m.expect(r"Enter opens a page", timeout=300)
    m.expect(FOOTER, timeout=300)
    time.sleep(1)
    press(m, DOWN, FOOTER)
    shown = press(m, "\r", "Key changes")  # the Secure Boot page
    assert "Secure Boot: disabled" in shown and "Key changes: allowed" in shown, shown
    press(m, DOWN, FOOTER)
    press(m, DOWN, FOOTER)  # Enroll db from a file
    m.send("\r")
    m.expect("Choose a key file", timeout=120)
    shown = choose(m, "db.der", ["PK.der"])
    assert "Last change: enrolling db: done" in shown, shown
    assert "Signatures: PK 0, KEK 0, db 1, dbx 0" in shown and "Secure Boot: disabled" in shown
    m.send("\r")  # the rebuilt form starts at "Enroll PK from a file"
    m.expect("Choose a key file", timeout=120)
    shown = choose(m, "PK.der", ["db.der"])
    assert "Last change: enrolling PK: done" in shown, shown
    assert "Secure Boot: enabled" in shown and "Mode: User Mode" in shown, shown
    press(m, ESC, "Enter opens a page")
    press(m, DOWN, FOOTER)
    press(m, DOWN, FOOTER)
    shown = press(m, "\r", "Resolution at the next boot")
    assert "Now: 1024x768" in shown, shown
    for _ in range(3):  # the driver's default, 1024x768, 640x480, 800x600
        shown = press(m, "+", FOOTER)
    assert "<800x600>" in shown, shown
    press(m, F10, "Sav")
    m.close()
    listing = subprocess.run([BUILD / "ember-varstore", vars_file, "list"], capture_output=True,
                             timeout=60).stdout.decode()
    assert re.search(r"NV,BS,RT,AT +\d+ PK$", listing, re.M), listing
    assert re.search(r"NV,BS,RT,AT +\d+ db$", listing, re.M), listing
    again = machine(firmware="pflash", vars_file=vars_file, timeout=300)
    again.expect_log(r"gop: mode \d+ \(800x600\) from the ConsoleResolution setting",
                     timeout=300)
