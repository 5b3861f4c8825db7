"""The setup screen (apps/setup: "Ember settings") under ember-run, driven by keys on a
80x25 terminal: its boot page reorders the options, enables and disables them, sets the
timeout, deletes an option (after a confirmation), adds one for a file chosen in its file
picker and boots a file; the Form Browser saves through the app's Config Access, and the
variables are read back from the store file with ember-varstore. A driver's own form set
(forms-driver.efi, started with --driver) is listed under Device settings and saved through
that driver's Config Access.
"""
import os
import struct
import subprocess
import time

from conftest import BUILD, app, program
from test_console import drain, read_until, spawn_on_pty

VARSTORE = BUILD / "ember-varstore"
DOWN, ESC, F10 = b"\x1b[B", b"\x1b", b"\x1b[21~"
FOOTER = b"F10 save"
FT_GUID = "8d2b7f3e-51a4-4c06-9b1e-2f446a7013c5"  # apps/forms-test's variable


def load_option(description, path, attributes=1):
    """An EFI_LOAD_OPTION (UEFI 2.10, 3.1.3) of a short-form file path."""
    name = (path + "\0").encode("utf-16-le")
    file_node = struct.pack("<BBH", 4, 4, 4 + len(name)) + name
    end = struct.pack("<BBH", 0x7F, 0xFF, 4)
    text = (description + "\0").encode("utf-16-le")
    return struct.pack("<IH", attributes, len(file_node) + len(end)) + text + file_node + end


def setvar(vars_file, name, data):
    subprocess.run([VARSTORE, vars_file, "set", name, "--hex", data.hex()], check=True,
                   capture_output=True)


def getvar(vars_file, name):
    got = subprocess.run([VARSTORE, vars_file, "get", name, "--raw"], capture_output=True)
    return got.stdout if got.returncode == 0 else None


def two_options(tmp_path):
    vars_file = tmp_path / "vars.fd"
    setvar(vars_file, "Boot0001", load_option("Alpha", "\\A.EFI"))
    setvar(vars_file, "Boot0002", load_option("Beta", "\\B.EFI"))
    setvar(vars_file, "BootOrder", struct.pack("<2H", 1, 2))
    return vars_file


def run_setup(vars_file, steps, extra=()):
    """Runs setup.efi; steps: (keys, marker) pairs. Returns everything it printed."""
    proc, master, slave, _ = spawn_on_pty([*extra, "--vars", vars_file, app("setup")],
                                          columns=80, rows=25)
    try:
        out = read_until(master, FOOTER, timeout=60)
        for keys, marker in steps:
            os.write(master, keys)
            out += read_until(master, marker, timeout=60)
            time.sleep(0.3 if keys == ESC else 0)  # a lone Esc is told by the pause after it
        proc.wait(timeout=30)
        out += drain(master)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    return out.decode(errors="replace")


def leave(marker=b"setup: done"):
    """From the boot page: back to the main form, then out."""
    return [(ESC, b"Enter opens a page"), (ESC, marker)]


def test_reorder_disable_timeout_saved(tmp_path):
    vars_file = two_options(tmp_path)
    steps = [
        (b"\r", b"Boot timeout"),       # the first page: Boot options
        (b"\r", b"Value (0-65535): "),  # the timeout, typed
        (b"7\r", b"<7>"),
        (DOWN, FOOTER),
        (b" ", FOOTER),                 # Alpha: disabled
        (DOWN, FOOTER),
        (DOWN, FOOTER),
        (b"\r", b"F10 saves the order"),  # Move an option up
        (DOWN, FOOTER),
        (b"\r", b"Done."),              # Beta moves above Alpha
        (F10, b"Saved."),
        (ESC, b"Move an option down"),
    ] + leave()
    out = run_setup(vars_file, steps)
    assert "setup: done (EFI_SUCCESS)" in out, out[-800:]
    assert getvar(vars_file, "BootOrder") == struct.pack("<2H", 2, 1)
    assert getvar(vars_file, "Timeout") == struct.pack("<H", 7)
    assert getvar(vars_file, "Boot0001")[0] & 1 == 0  # LOAD_OPTION_ACTIVE cleared
    assert getvar(vars_file, "Boot0002")[0] & 1 == 1


def test_timeout_saved_without_boot_options(tmp_path):
    """No Boot#### and no BootOrder: saving the page writes the timeout and no empty
    BootOrder (deleting the absent variable once failed the whole save)."""
    vars_file = tmp_path / "vars.fd"
    steps = [
        (b"\r", b"Boot timeout"),
        (b"\r", b"Value (0-65535): "),
        (b"9\r", b"<9>"),
        (F10, b"Saved."),
    ] + leave()
    out = run_setup(vars_file, steps)
    assert "Saving failed" not in out, out[-800:]
    assert getvar(vars_file, "Timeout") == struct.pack("<H", 9)
    assert getvar(vars_file, "BootOrder") is None


def test_unsaved_move_is_dropped(tmp_path):
    vars_file = two_options(tmp_path)
    steps = [
        (b"\r", b"Boot timeout"),
        (DOWN * 3, FOOTER),
        (b"\r", b"F10 saves the order"),
        (DOWN, FOOTER),
        (b"\r", b"Done."),
        (ESC, b"Move an option down"),
        (ESC, b"Enter opens a page"),
        (ESC, b"Save changes?"),
        (b"n", b"setup: done"),
    ]
    run_setup(vars_file, steps)
    assert getvar(vars_file, "BootOrder") == struct.pack("<2H", 1, 2)


def test_delete_after_confirmation(tmp_path):
    vars_file = two_options(tmp_path)
    steps = [
        (b"\r", b"Boot timeout"),
        (DOWN * 5, FOOTER),
        (b"\r", b"Delete an option"),
        (b"\r", b"Delete Boot0001 \"Alpha\"? (Y/N)"),
        (b"y", b"Boot timeout"),  # saved, the forms built again without Alpha
    ] + leave()
    out = run_setup(vars_file, steps)
    assert getvar(vars_file, "Boot0001") is None
    assert getvar(vars_file, "BootOrder") == struct.pack("<H", 2)
    assert out.rfind("Alpha") < out.rfind("Boot timeout")


def test_add_an_option_and_boot_a_file(tmp_path):
    vars_file = two_options(tmp_path)
    esp = tmp_path / "esp"
    esp.mkdir()
    (esp / "MARKER.EFI").write_bytes(program("boot_marker").read_bytes())
    steps = [
        (b"\r", b"Boot timeout"),
        (DOWN * 6, FOOTER),
        (b"\r", b"choose an EFI program"),  # Add an option from a file: the volumes
        (b"\r", b"MARKER.EFI"),             # the first volume's files
        (b"\r", b"Boot timeout"),           # chosen: saved, built again
        (DOWN * 8, FOOTER),
        (b"\r", b"choose an EFI program"),  # Boot from a file
        (b"\r", b"MARKER.EFI"),
        (b"\r", b"Press a key."),
        (b" ", FOOTER),
    ] + leave()
    out = run_setup(vars_file, steps, extra=["--esp", esp])
    assert "boot-marker: \\MARKER.EFI" in out, out[-1500:]
    assert "The program returned EFI_SUCCESS" in out
    order = getvar(vars_file, "BootOrder")
    assert order == struct.pack("<3H", 1, 2, 0), order
    option = getvar(vars_file, "Boot0000")
    assert option[0] & 1 and "MARKER.EFI".encode("utf-16-le") in option


def test_a_drivers_form_set_in_device_settings(tmp_path):
    """forms-test linked as a boot service driver stays with its form set; the setup screen
    lists it under Device settings, shows it, and the checkbox turned on there is saved
    through the driver's Config Access into its FtData variable; leaving comes back to
    the setup screen."""
    vars_file = tmp_path / "vars.fd"
    steps = [
        (DOWN * 6, FOOTER),
        (b"\r", b"The settings drivers offer"),   # Device settings
        (b"\r", b"Enable feature"),                # Forms test: the driver's form set
        (b"\r", b"[X]"),                           # its checkbox on
        (F10, b"Saved"),
        (ESC, b"The settings drivers offer"),      # back in the setup screen
    ] + [(ESC, b"Enter opens a page"), (ESC, b"setup: done")]
    out = run_setup(vars_file, steps, extra=("--driver", BUILD / "apps" / "forms-driver.efi"))
    assert "forms-test: resident" in out, out[-800:]
    assert "Forms test" in out, out[-800:]
    got = subprocess.run([VARSTORE, vars_file, "get", "FtData", FT_GUID, "--raw"],
                         capture_output=True)
    assert got.returncode == 0 and got.stdout[0] == 1, got  # enable, the first byte


def test_device_settings_without_drivers_forms(tmp_path):
    steps = [(DOWN * 6, FOOTER), (b"\r", b"No driver offers settings")] + leave()
    run_setup(tmp_path / "vars.fd", steps)
