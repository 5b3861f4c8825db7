"""The consoles of the QEMU firmware: the serial terminal (drivers/terminal over the COM1
SerialIo), the PS/2 keyboard, the graphics console on the GOP, all behind the console
splitter that is ConIn/ConOut/StdErr. Screens are compared cell by cell with the text
rendered in Python from the font the firmware's was generated from (tests/screen_cells.py)."""
import re
import time
import sys
from pathlib import Path

import pytest

from conftest import BUILD, read_ppm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import screen_cells  # noqa: E402

PROGRAMS = BUILD / "tests" / "programs"
APPS = BUILD / "apps"
ARTICLE = {
    "hello": "Hello World!",
    "gop_mode": "Mode 0 is running at 1024x768",
}
# The LPC/ISA bridge the legacy devices sit behind, as OVMF's device paths name it.
BRIDGE = {"q35": "Pci(0x1F,0x0)", "pc": "Pci(0x1,0x0)"}


def screen(m, tmp_path):
    """(pixel function, width, height) of a screendump."""
    width, height, data = read_ppm(m.screendump(tmp_path / "screen.ppm"))

    def pixel(x, y):
        i = 3 * (y * width + x)
        return tuple(data[i:i + 3])
    return pixel, width, height


def row_showing(pixel, width, height, text):
    """The row of the 80x25 console that shows exactly text (then blanks), or None."""
    font = screen_cells.psf2c().load_font()
    for row in range(25):
        s = screen_cells.Screen(80, 25)
        s.put(0, row, text)
        bad = [c for c in s.bad_cells(pixel, width, height, font) if c[1] == row]
        if not bad:
            return row
    return None


@pytest.mark.parametrize("machine_type", ["q35", "pc"])
@pytest.mark.parametrize("program", sorted(ARTICLE))
def test_article_programs_on_serial_and_screen(machine, tmp_path, machine_type, program):
    m = machine(machine=machine_type, app=PROGRAMS / f"{program}.efi")
    m.expect(re.escape(ARTICLE[program]))
    m.expect_log(r"opt/ember/app returned EFI_SUCCESS")
    root = f"PciRoot(0x0)/{BRIDGE[machine_type]}"
    assert f"terminal: {root}/Serial(0x0)/Uart(115200,8,N,1)/VenUtf8()\n" in m.debug_log
    assert f"ps2: keyboard ready at {root}/Acpi(PNP0303,0x0)\n" in m.debug_log
    pixel, width, height = screen(m, tmp_path)
    assert (width, height) == (1024, 768)
    assert row_showing(pixel, width, height, ARTICLE[program]) is not None


def test_graphics_console_draws_the_text_screen(machine, tmp_path):
    m = machine(app=APPS / "text-screen.efi")
    m.expect(r"text-screen done")
    m.expect_log(r"opt/ember/app returned EFI_SUCCESS")
    pixel, width, height = screen(m, tmp_path)
    assert screen_cells.text_screen_expected().bad_cells(pixel, width, height) == []


SERIAL_KEYS = (b"ab\r\nc\n"
               b"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA"
               b"\x1b[H\x1b[F\x1b[2~\x1b[3~\x1b[5~\x1b[6~"
               b"\x1bOP\x1b[15~\x1b[24~\x1b[[A"
               b"\x1bx" + "é€─".encode() + b"\x7f\t\x03\x1b")
SERIAL_EXPECTED = [
    ("0000", "0061"), ("0000", "0062"), ("0000", "000d"), ("0000", "0063"), ("0000", "000d"),
    ("0001", "0000"), ("0002", "0000"), ("0003", "0000"), ("0004", "0000"), ("0001", "0000"),
    ("0005", "0000"), ("0006", "0000"), ("0007", "0000"), ("0008", "0000"), ("0009", "0000"),
    ("000a", "0000"),
    ("000b", "0000"), ("000f", "0000"), ("0016", "0000"), ("000b", "0000"),
    ("0017", "0000"), ("0000", "0078"), ("0000", "00e9"), ("0000", "20ac"), ("0000", "2500"),
    ("0000", "0008"), ("0000", "0009"), ("0000", "0003"), ("0017", "0000"),
]


def key_lines(text):
    return re.findall(r"^key (\w{4}) (\w{4})$", text, re.M)


def test_keys_from_the_serial_console(machine):
    m = machine(app=APPS / "console-test.efi", args="console-test keys")
    m.expect_log(r"uart: COM1")
    m.send(SERIAL_KEYS)
    m.expect(r"console-test: \d+ passed, 0 failed")
    assert key_lines(m.text) == SERIAL_EXPECTED


PS2_KEYS = ["a", ["shift", "a"], "1", ["shift", "1"], "ret", "up", "down", "left", "right",
            "home", "end", "pgup", "pgdn", "insert", "delete", "f1", "f10", "f12", "esc",
            "tab", "backspace", ["ctrl", "c"], "spc",
            "caps_lock", "b", ["shift", "b"], "caps_lock", "c"]
PS2_EXPECTED = [
    ("0000", "0061"), ("0000", "0041"), ("0000", "0031"), ("0000", "0021"), ("0000", "000d"),
    ("0001", "0000"), ("0002", "0000"), ("0004", "0000"), ("0003", "0000"),
    ("0005", "0000"), ("0006", "0000"), ("0009", "0000"), ("000a", "0000"), ("0007", "0000"),
    ("0008", "0000"), ("000b", "0000"), ("0014", "0000"), ("0016", "0000"), ("0017", "0000"),
    ("0000", "0009"), ("0000", "0008"), ("0000", "0003"), ("0000", "0020"),
    ("0000", "0042"), ("0000", "0062"), ("0000", "0063"),  # Caps Lock (and its lights)
]


def test_keys_from_the_ps2_keyboard(machine):
    m = machine(app=APPS / "console-test.efi", args="console-test keys")
    m.expect_log(r"ps2: keyboard ready")
    # One key at a time, each once the app has printed the one before: QEMU's PS/2 queue
    # holds 16 bytes, and a guest kept off the CPU by a busy host would lose what overflows.
    for chord in PS2_KEYS:
        seen = len(key_lines(m.text))
        m.send_keys(chord)
        if chord != "caps_lock":
            deadline = time.monotonic() + 30
            while len(key_lines(m.text)) == seen and time.monotonic() < deadline:
                time.sleep(0.02)
    m.expect(r"console-test: \d+ passed, 0 failed")
    assert key_lines(m.text) == PS2_EXPECTED


def test_key_notifications_on_the_splitter_see_every_keyboard(machine):
    # x and F5 come from the serial console; n, Ctrl-C and another x from the PS/2
    # keyboard. Notifications registered on ConIn's SimpleTextInEx see all of them.
    m = machine(app=APPS / "console-test.efi", args="console-test keys-ex")
    m.expect(r"notifications registered")
    m.send(b"x\x1b[15~")
    m.send_keys("n", ["ctrl", "c"], "x")
    m.expect(r"console-test: \d+ passed, 0 failed")
    out = m.text
    assert "before reading: x=2 f5=1 n=1 ctrl-c=1" in out
    assert "notified: x=2 f5=1 n=1 ctrl-c=1" in out
    keys = sorted(re.findall(r"^keyex (\w{4}) (\w{4}) ", out, re.M))
    assert keys == sorted([("0000", "0078"), ("000f", "0000"), ("0000", "006e"),
                           ("0000", "0003"), ("0000", "0078")])
