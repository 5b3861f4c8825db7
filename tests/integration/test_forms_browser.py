"""The forms browser (core/hii/browser*.c) driven by keys on a terminal under ember-run:
the forms-test driver (apps/forms-test) publishes a form set with a Config Access protocol
that keeps its settings in the variable FtData; the test changes a checkbox, a numeric, a
one-of and a string, follows a goto and back, runs an action, saves, and reads the
variable back from the store file with ember-varstore.

Issue 15: the browser's path through Config Access (ExtractConfig to load, RouteConfig
through the routing protocol to save) and its key handling; the conditions (suppressif,
grayoutif, inconsistentif, nosubmitif), the ordered list, date and time editors, and a form
the driver updates while it is shown.
"""
import os
import re
import subprocess
import time

from conftest import BUILD, app
from test_console import drain, read_until, spawn_on_pty

FT_GUID = "8d2b7f3e-51a4-4c06-9b1e-2f446a7013c5"
DOWN, UP, ESC, F10 = b"\x1b[B", b"\x1b[A", b"\x1b", b"\x1b[21~"
PGUP = b"\x1b[5~"
FOOTER = b"F10 save"


def press(master, keys, marker=FOOTER):
    """Types keys and reads until the browser has drawn again."""
    os.write(master, keys)
    return read_until(master, marker, timeout=60)


def run_browser(tmp_path, steps):
    """Runs forms-test on a 80x25 terminal; steps: (keys, marker) pairs. Returns the
    output after the browser and the variable's bytes (None when missing)."""
    vars_file = tmp_path / "vars.fd"
    proc, master, slave, _ = spawn_on_pty(["--vars", vars_file, app("forms-test")],
                                          columns=80, rows=25)
    try:
        out = read_until(master, FOOTER, timeout=60)
        for keys, marker in steps:
            out += press(master, keys, marker)
            # A lone Esc is told from a sequence by the pause after it.
            time.sleep(0.3 if keys == ESC else 0)
        if b"actions=" not in out:
            out += read_until(master, b"actions=", timeout=60)
        proc.wait(timeout=30)
        out += drain(master)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    got = subprocess.run([BUILD / "ember-varstore", vars_file, "get", "FtData", FT_GUID,
                          "--raw"], capture_output=True)
    return out.decode(errors="replace"), got.stdout if got.returncode == 0 else None


def test_change_and_save_through_config_access(tmp_path):
    steps = [
        (b"\r", b"[X]"),                   # Enable feature: checkbox on
        (DOWN, FOOTER),
        (b"\r", b"Value (1-100): "),       # Count: typed
        (b"42\r", b"<42>"),
        (DOWN, FOOTER),
        (b"+", b"<Fast>"),                 # Mode: next option
        (DOWN, FOOTER),
        (b"\r", b"Text: "),                # Name: typed
        (b"abc\r", b"[abc]"),
        (DOWN, FOOTER),
        (b"\r", b"Nothing to change here"),  # More settings: the second form
        (ESC, b"Reset counter"),
        (DOWN, FOOTER),
        (b"\r", b"Done."),                 # Reset counter: the action's callback
        (F10, b"Saved."),
        (ESC, b"actions="),
    ]
    out, data = run_browser(tmp_path, steps)
    assert "forms-test: SendForm EFI_SUCCESS request 2" in out, out[-800:]
    assert "enable=1 count=42 mode=1 name=abc actions=1" in out, out[-800:]
    assert data is not None and len(data) == 40
    assert data[0] == 1 and data[2:4] == (42).to_bytes(2, "little") and data[4] == 1
    assert data[8:14] == "abc".encode("utf-16-le")


def test_unsaved_changes_asked_about(tmp_path):
    steps = [(DOWN, FOOTER), (b"+", b"<11>"), (ESC, b"Save changes?"), (b"n", b"actions=")]
    out, data = run_browser(tmp_path, steps)
    assert "enable=0 count=10 mode=0 name= actions=0" in out, out[-800:]
    assert data is None  # nothing written

    steps = [(DOWN, FOOTER), (b"-", b"<9>"), (ESC, b"Save changes?"), (b"y", b"actions=")]
    out, data = run_browser(tmp_path, steps)
    assert "enable=0 count=9 mode=0" in out and "request 2" in out, out[-800:]
    assert data[2] == 9


def test_out_of_range_number_refused(tmp_path):
    steps = [(DOWN, FOOTER), (b"\r", b"Value (1-100): "), (b"101\r", b"Out of range"),
             (F10, b"Saved."), (ESC, b"actions=")]
    out, data = run_browser(tmp_path, steps)
    assert "count=10" in out, out[-800:]
    assert data[2:4] == (10).to_bytes(2, "little")


def test_number_past_64_bits_refused(tmp_path):
    # 2^64 + 1: read into 64 bits it would wrap to 1, inside 1-100; only 19 digits are taken.
    steps = [(DOWN, FOOTER), (b"\r", b"Value (1-100): "),
             (b"18446744073709551617\r", b"Out of range"), (F10, b"Saved."), (ESC, b"actions=")]
    out, data = run_browser(tmp_path, steps)
    assert "count=10" in out, out[-800:]


def test_ordered_list_date_and_time(tmp_path):
    down6 = [(DOWN, FOOTER)] * 6       # from Enable feature to Boot order
    steps = down6 + [
        (b"\r", b"[Disk]"),              # the editor, Disk chosen
        (DOWN, b"[Network]"),
        (PGUP, b"<[Network], Disk, Shell>"),  # moved up (PgUp, as +)
        (DOWN, b"[Disk]"),
        (DOWN, b"[Shell]"),
        (b"+", b"<Network, [Shell], Disk>"),
        (b"\r", b"<Network, Shell, Disk>"),
        (DOWN, FOOTER),
        (b"\r", b"Date: [<2026>-01-15]"),  # year typed, month stepped back, day typed
        (b"2027", b"<2027>"),
        (b"\r", b"[2027-<01>-15]"),
        (b"-", b"<12>"),
        (b"\t", b"-<15>]"),
        (b"3", b"-<03>]"),
        (b"\r", b"[2027-12-03]"),
        (DOWN, FOOTER),
        (b"\r", b"Time: [<12>:30:45]"),   # hour +, minute typed, second kept
        (b"+", b"<13>"),
        (b"\r", b"13:<30>"),
        (b"05", b"13:<05>"),
        (b"\r", b":<45>]"),
        (b"\r", b"[13:05:45]"),
        (F10, b"Saved."),
        (ESC, b"actions="),
    ]
    out, data = run_browser(tmp_path, steps)
    assert "order=2,3,1 date=2027-12-03 time=13:05:45" in out, out[-800:]
    assert data[24:27] == bytes([2, 3, 1])
    assert data[28:32] == (2027).to_bytes(2, "little") + bytes([12, 3])
    assert data[32:35] == bytes([13, 5, 45])


def test_conditions(tmp_path):
    """Level is hidden until Enable is on, refuses 7 (inconsistentif); Turbo is grayed out
    (skipped by Down) until Mode is not Off; a Count of 13 cannot be saved (nosubmitif)."""
    steps = [
        (b"\r", b"  Level "),             # Enable on: Level shown (the form drawn again)
        (DOWN, FOOTER),
        (DOWN, FOOTER),                    # Mode
        (b"+", b"<Fast>"),                 # Turbo no longer grayed out
        (DOWN, FOOTER), (DOWN, FOOTER), (DOWN, FOOTER), (DOWN, FOOTER), (DOWN, FOOTER),
        (DOWN, FOOTER),                    # Name .. Time
        (DOWN, b"> Level"),
        (b"\r", b"Value (0-9): "),
        (b"7\r", b"Seven is not allowed"),  # refused: stays 1
        (b"\r", b"Value (0-9): "),
        (b"4\r", b"<4>"),
        (DOWN, b"> Turbo"),
        (b" ", b"[X]"),
        (UP, FOOTER), (UP, FOOTER), (UP, FOOTER), (UP, FOOTER), (UP, FOOTER), (UP, FOOTER),
        (UP, FOOTER), (UP, FOOTER), (UP, b"> Count"),
        (b"\r", b"Value (1-100): "),
        (b"13\r", b"<13>"),
        (F10, b"Count 13 cannot be saved"),
        (b"-", b"<12>"),
        (F10, b"Saved."),
        (ESC, b"actions="),
    ]
    out, data = run_browser(tmp_path, steps)
    assert "enable=1 count=12 mode=1" in out, out[-800:]
    assert "level=4 turbo=1" in out, out[-800:]
    assert data[36] == 4 and data[37] == 1


def test_turbo_grayed_out_and_level_hidden(tmp_path):
    """With Enable off and Mode Off, Down from Time goes nowhere: Level is hidden and Turbo
    grayed out, so the space lands on Time (no change) and nothing reaches Turbo."""
    steps = [(DOWN, FOOTER)] * 9 + [(b" ", b"Time: "), (ESC, FOOTER), (F10, b"Saved."),
                                    (ESC, b"actions=")]
    out, data = run_browser(tmp_path, steps)
    assert "> Time" in out and "> Turbo" not in out and "> Level" not in out, out[-1500:]
    assert "Level" not in out.split("actions=")[0].split("Forms test settings")[1], out[-1500:]
    assert "turbo=0" in out, out[-800:]


def test_form_updated_while_shown(tmp_path):
    """The driver's Add entry callback calls UpdatePackageList with one more text in the
    form shown: the browser reads the form set again and keeps the selection."""
    steps = [(DOWN, FOOTER)] * 4 + [
        (b"\r", b"Nothing to change here"),
        (b"\r", b"Added entry"),
        (b"\r", b"Done."),
        (ESC, FOOTER), (ESC, b"actions="),
    ]
    out, _ = run_browser(tmp_path, steps)
    assert "added=2" in out, out[-800:]
    last = out.rsplit("Second page", 1)[1]
    assert last.count("Added entry") == 2 and "> Add entry" in last, out[-1500:]


def test_password_through_the_callback(tmp_path):
    """The driver's password handshake: none set (no old password asked), then the old one
    wrong, then two new ones that differ, then a change; typed characters show as stars."""
    steps = [(DOWN, FOOTER)] * 4 + [
        (b"\r", b"Nothing to change here"),
        (DOWN, b"> Password"),
        (b"\r", b"New password: "),
        (b"ab", b"New password: **"),
        (b"\r", b"Again: "),
        (b"ab\r", b"Password set."),
        (b"\r", b"Old password: "),
        (b"xx\r", b"Incorrect password."),
        (b"\r", b"Old password: "),
        (b"ab\r", b"New password: "),
        (b"cd\r", b"Again: "),
        (b"ce\r", b"The passwords differ"),
        (b"\r", b"Old password: "),
        (b"ab\r", b"New password: "),
        (b"xyz\r", b"Again: "),
        (b"xyz\r", b"Password set."),
        (ESC, FOOTER), (ESC, b"actions="),
    ]
    out, _ = run_browser(tmp_path, steps)
    # The line is longer than the terminal: it wraps.
    assert "password=xyz" in out.replace("\r", "").replace("\n", ""), out[-800:]
    assert "New password: ab" not in out


def test_refresh_redraws_without_keys(tmp_path):
    """REFRESH 1 on the clock (a time kept in the real-time clock) and on Reads (a number
    the driver counts up on each ExtractConfig): with no key pressed, the form is drawn
    again each second with the driver's new value and the clock's new time."""
    steps = [(DOWN, FOOTER)] * 4 + [
        (b"\r", b"Reads                               <2>"),
        (b"", b"Reads                               <4>"),
        (ESC, FOOTER), (ESC, b"actions="),
    ]
    out, _ = run_browser(tmp_path, steps)
    shown = out.split("Second page", 1)[1]
    clock = set(re.findall(r"Clock +\[(\d\d:\d\d:\d\d)\]", shown))
    assert len(clock) >= 2, shown[-1500:]
