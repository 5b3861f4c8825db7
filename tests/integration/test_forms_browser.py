"""The forms browser (core/hii/browser*.c) driven by keys on a terminal under ember-run:
the forms-test driver (apps/forms-test) publishes a form set with a Config Access protocol
that keeps its settings in the variable FtData; the test changes a checkbox, a numeric, a
one-of and a string, follows a goto and back, runs an action, saves, and reads the
variable back from the store file with ember-varstore.

Issue 15: the browser's path through Config Access (ExtractConfig to load, RouteConfig
through the routing protocol to save) and its key handling.
"""
import os
import subprocess
import time

from conftest import BUILD, app
from test_console import drain, read_until, spawn_on_pty

FT_GUID = "8d2b7f3e-51a4-4c06-9b1e-2f446a7013c5"
DOWN, UP, ESC, F10 = b"\x1b[B", b"\x1b[A", b"\x1b", b"\x1b[21~"
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
    assert data is not None and len(data) == 24
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
