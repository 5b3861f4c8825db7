"""The setup screen's Secure Boot and Resolution pages (apps/setup/sb_page.c,
settings_console_page.c) driven by keys on an 80x25 terminal under ember-run, started as
the firmware's own setup program (--firmware-ui): a db certificate enrolled from a file
in Setup Mode, then the PK, after which the page shows Secure Boot enabled and User Mode;
a resolution chosen and saved, and the GOP in that mode at the next start.

Issue 15's acceptance points "enroll a db certificate from a file and see Secure Boot
state change after the PK is enrolled" and "change the resolution and see the GOP mode
change on the next boot", on ember-run (the QEMU firmware does not embed the setup
screen yet)."""
import os
import re
import shutil
import subprocess
import time

from conftest import BUILD, app
from test_console import drain, read_until, spawn_on_pty

DOWN, ESC, F10 = b"\x1b[B", b"\x1b", b"\x1b[21~"
FOOTER = b"Esc back"
CSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def screen_text(data):
    return CSI.sub(b"\n", data).decode(errors="replace")


def press(master, keys, marker=FOOTER, timeout=60):
    """Types keys; reads until marker and the footer after it (the whole screen drawn)."""
    os.write(master, keys)
    out = read_until(master, marker, timeout=timeout)
    if marker != FOOTER and FOOTER not in out.split(marker)[-1]:
        out += read_until(master, FOOTER, timeout=timeout)
    if keys == ESC:
        time.sleep(0.3)  # a lone Esc is told from a sequence by the pause after it
    return out


def choose(master, name):
    """In the file picker's first volume, the file called name."""
    os.write(master, b"\r")
    out = read_until(master, b"Choose a key file")
    os.write(master, b"\r")
    out += read_until(master, name.encode())
    time.sleep(0.3)
    out += drain(master)
    listing = screen_text(out).split("Esc goes back")[-1]
    rows = [line.strip() for line in listing.split("\n") if line.strip()]
    index = rows.index(name)
    for _ in range(index):
        os.write(master, DOWN)
        time.sleep(0.1)
    drain(master)
    return press(master, b"\r", b"Last change")


def setup_session(args):
    proc, master, slave, _ = spawn_on_pty(["--firmware-ui", *args, app("setup")], columns=80,
                                         rows=25)
    read_until(master, FOOTER, timeout=60)
    return proc, master, slave


def leave(proc, master):
    """Esc from a page to the main form, Esc again: the program ends."""
    press(master, ESC, b"Boot options")
    os.write(master, ESC)
    # A page changed but not saved: the browser asks.
    out = b""
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline:
        out += drain(master)
        if b"Save changes?" in out:
            os.write(master, b"n")
            out = b""
    assert proc.wait(timeout=5) == 0


def finish(proc, master, slave):
    proc.kill()
    os.close(master)
    os.close(slave)


def test_enroll_db_then_pk_turns_secure_boot_on(tmp_path):
    esp = tmp_path / "keys"
    esp.mkdir()
    for name in ("PK", "db"):
        subprocess.run(["openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-subj", f"/CN=Ember setup screen {name}/", "-keyout",
                        tmp_path / f"{name}.key", "-outform", "DER", "-out",
                        esp / f"{name}.der"], check=True, capture_output=True, timeout=60)
    store = tmp_path / "vars.fd"
    proc, master, slave = setup_session(["--vars", store, "--esp", esp])
    try:
        out = press(master, DOWN)
        out = screen_text(press(master, b"\r", b"Key changes"))
        assert "Secure Boot: disabled" in out and "Setup Mode" in out, out
        assert "Key changes: allowed" in out, out
        press(master, DOWN)
        press(master, DOWN)  # "Enroll db from a file"
        out = screen_text(choose(master, "db.der"))
        assert "Last change: enrolling db: done" in out, out
        assert "Signatures: PK 0, KEK 0, db 1, dbx 0" in out, out
        assert "Secure Boot: disabled" in out, out
        # The rebuilt form starts at its first question: "Enroll PK from a file".
        out = screen_text(choose(master, "PK.der"))
        assert "Last change: enrolling PK: done" in out, out
        assert "Secure Boot: enabled" in out and "Mode: User Mode" in out, out
        assert "Signatures: PK 1, KEK 0, db 1, dbx 0" in out, out
        leave(proc, master)
    finally:
        finish(proc, master, slave)
    listing = subprocess.run([BUILD / "ember-varstore", store, "list"], capture_output=True,
                             timeout=60).stdout.decode()
    assert re.search(r"NV,BS,RT,AT +\d+ PK$", listing, re.M), listing
    assert re.search(r"NV,BS,RT,AT +\d+ db$", listing, re.M), listing


def test_ordinary_program_sees_keys_locked(tmp_path):
    """The same program started as an ordinary one: the page says keys are locked."""
    proc, master, slave, _ = spawn_on_pty(["--vars", tmp_path / "vars.fd", app("setup")],
                                          columns=80, rows=25)
    try:
        read_until(master, FOOTER, timeout=60)
        press(master, DOWN)
        out = screen_text(press(master, b"\r", b"Key changes"))
        assert "Key changes: locked" in out, out
        leave(proc, master)
    finally:
        finish(proc, master, slave)


def test_resolution_chosen_is_the_mode_at_the_next_start(ember, tmp_path):
    store = tmp_path / "vars.fd"
    proc, master, slave = setup_session(["--vars", store])
    try:
        for _ in range(2):
            press(master, DOWN)
        out = screen_text(press(master, b"\r", b"Resolution at the next boot"))
        assert "Now: 1024x768" in out, out
        # The one-of: default, then the GOP's sizes in mode order (1024x768 first).
        for _ in range(3):
            out = press(master, b"+")
        assert b"800x600" in out, screen_text(out)
        # F10 saves every page's store: the boot page's may fail on a machine without
        # boot options; the setting is checked at the next start below.
        os.write(master, F10)
        read_until(master, b"Sav")
        leave(proc, master)
    finally:
        finish(proc, master, slave)
    shutil.copy(app("setup-backends-test"), tmp_path / "t.efi")
    result = ember("--vars", store, tmp_path / "t.efi", "gop", timeout=60)
    out = result.stdout.decode()
    assert re.search(r"^gop: mode [1-9]\d* 800x600", out, re.M), out


def test_serial_speed_chosen_is_saved(tmp_path):
    store = tmp_path / "vars.fd"
    proc, master, slave = setup_session(["--vars", store])
    try:
        for _ in range(3):  # Boot options, Secure Boot, Resolution, Serial console
            press(master, DOWN)
        press(master, b"\r", b"Serial console speed")
        for _ in range(4):  # default, 9600, 19200, 38400, 57600
            out = press(master, b"+")
        assert b"57600 baud" in out, screen_text(out)
        os.write(master, F10)
        read_until(master, b"Sav")
        leave(proc, master)
    finally:
        finish(proc, master, slave)
    got = subprocess.run([BUILD / "ember-varstore", store, "get", "SerialConsole",
                          "8f1d2a64-5c3e-4b71-9e02-7a6bd41358e9", "--raw"],
                         capture_output=True, timeout=60)
    assert got.returncode == 0 and got.stdout == (57600).to_bytes(4, "little"), got


def test_system_information_page(tmp_path):
    proc, master, slave = setup_session(["--vars", tmp_path / "vars.fd", "--mem", "512"])
    try:
        for _ in range(5):  # ... Serial console, Date and time, System information
            press(master, DOWN)
        out = screen_text(press(master, b"\r", b"Devices:"))
        assert re.search(r"Firmware: Ember, revision 0x[0-9a-f]{8}", out), out
        assert re.search(r"Memory: (4[5-9]\d|50\d|51[0-2]) MiB", out), out
        assert "handles with a device path" in out, out
        leave(proc, master)
    finally:
        finish(proc, master, slave)
