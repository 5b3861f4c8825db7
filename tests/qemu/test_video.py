"""Graphics Output on QEMU's standard VGA and bochs-display (drivers/qemu_video): the mode
list, SetMode in every mode, every Blt operation, and the picture as QEMU itself shows it
(QMP screendump), pixel for pixel. The test program is apps/console-test's gop-screen
command (apps/console-test/screen.c), whose last picture is replayed here."""
import os
import re
import shutil
import struct
import subprocess
import time

import pytest

import linux_payloads
from conftest import BUILD, read_ppm

APP = BUILD / "apps" / "console-test.efi"
GOP_MODE = BUILD / "tests" / "programs" / "gop_mode.efi"
MIB = 1 << 20

DISPLAYS = {
    "std": dict(vga="std"),
    "std-64M": dict(vga="std", extra=["-global", "VGA.vgamem_mb=64"]),
    "std-io": dict(vga="none", extra=["-device", "VGA,mmio=off"]),  # DISPI on I/O ports
    "bochs": dict(vga="none", extra=["-device", "bochs-display"]),
    "ramfb": dict(vga="none", extra=["-device", "ramfb"]),
}
VRAM = {"std": 16 * MIB, "std-64M": 64 * MIB, "std-io": 16 * MIB, "bochs": 16 * MIB}

# The driver's resolutions in its order (drivers/qemu_video/modes.c); it offers those whose
# 32-bit framebuffer fits in the VRAM.
ALL_MODES = [(1024, 768), (640, 480), (800, 600), (1280, 720), (1280, 800), (1280, 960),
             (1280, 1024), (1360, 768), (1440, 900), (1600, 900), (1600, 1200), (1680, 1050),
             (1920, 1080), (1920, 1200), (2560, 1440), (2560, 1600), (3840, 2160)]


# ramfb's (drivers/ramfb), in guest RAM sized for the largest.
RAMFB_MODES = [(1024, 768), (640, 480), (800, 600), (1280, 720), (1280, 800), (1920, 1080)]
RAMFB_GUID = "8411C6A4-BAA8-47B7-92FF-A10E912352CB"
SETTINGS_GUID = "8f1d2a64-5c3e-4b71-9e02-7a6bd41358e9"  # Ember's settings variables


def modes_for(vram):
    return [(w, h) for w, h in ALL_MODES if w * h * 4 <= vram]


def listed_modes(text):
    return [(int(w), int(h)) for _, w, h in re.findall(r"^gop mode (\d+): (\d+)x(\d+)$", text,
                                                        re.M)]


class Picture:
    """An RGB image as rows of bytes, with the Blt operations screen.c uses."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.rows = [bytearray(width * 3) for _ in range(height)]

    def fill(self, x, y, w, h, rgb):
        line = bytes(rgb) * w
        for row in self.rows[y:y + h]:
            row[x * 3:(x + w) * 3] = line

    def get(self, x, y, w, h):
        return [bytes(row[x * 3:(x + w) * 3]) for row in self.rows[y:y + h]]

    def put(self, x, y, block):
        for i, line in enumerate(block):
            self.rows[y + i][x * 3:x * 3 + len(line)] = line

    def data(self):
        return b"".join(self.rows)


def expected_picture(w, h):
    """The last picture of gop-screen (draw_picture in apps/console-test/screen.c)."""
    p = Picture(w, h)
    gradient = [b"".join(bytes((x * 4, y * 4, 0x80)) for x in range(64)) for y in range(64)]
    p.fill(0, 0, w, h, (0x20, 0x40, 0x60))
    p.fill(10, 10, 100, 50, (0xff, 0, 0))
    p.fill(w - 30, h - 20, 30, 20, (0, 0xff, 0))
    p.fill(w - 1, 0, 1, 1, (0xff, 0xff, 0xff))
    p.fill(0, h - 1, 1, 1, (0xff, 0xff, 0))
    p.put(200, 100, gradient)
    p.put(300, 100, [row[8 * 3:24 * 3] for row in gradient[4:12]])
    p.put(220, 120, p.get(200, 100, 64, 64))
    p.put(210, 110, p.get(220, 120, 64, 64))
    p.put(400, 300, p.get(5, 5, 110, 60))
    p.fill(500, 20, 8, 8, (1, 2, 3))
    return p.data()


def differences(got, want, width, limit=5):
    """The first pixels that differ, as text."""
    out = []
    for i in range(0, min(len(got), len(want)), 3):
        if got[i:i + 3] != want[i:i + 3]:
            out.append(f"({i // 3 % width},{i // 3 // width}): got {got[i:i + 3].hex()}"
                       f" want {want[i:i + 3].hex()}")
            if len(out) == limit:
                break
    return out


def expect_screen(m, tmp_path, width, height, timeout=30):
    """Polls screendumps until the screen is exactly the expected picture."""
    want = expected_picture(width, height)
    deadline = time.monotonic() + timeout
    while True:
        w, h, got = read_ppm(m.screendump(tmp_path / "screen.ppm"))
        if (w, h) == (width, height) and got == want:
            return
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert (w, h) == (width, height), f"screen is {w}x{h}"
    bad = sum(got[i:i + 3] != want[i:i + 3] for i in range(0, len(want), 3))
    pytest.fail(f"{bad} pixels differ: " + "; ".join(differences(got, want, width)))


def run_screen(machine, machine_type, display, args, timeout=120):
    m = machine(machine=machine_type, app=APP, args=f"console-test.efi gop-screen {args}",
                timeout=timeout, **DISPLAYS[display])
    m.expect(r"^console-test: \d+ passed, \d+ failed")
    return m


@pytest.mark.parametrize("machine_type,display,mode", [
    ("q35", "std", (800, 600)),
    ("pc", "std", (1280, 720)),
    ("q35", "bochs", (1920, 1080)),
    ("pc", "bochs", (1024, 768)),
    ("q35", "std-64M", (3840, 2160)),
    ("pc", "std-io", (640, 480)),
])
def test_modes_blt_and_screen(machine, tmp_path, machine_type, display, mode):
    m = run_screen(machine, machine_type, display, "mode=%dx%d" % mode)
    text = m.text
    assert re.search(r"^console-test: \d+ passed, 0 failed", text, re.M), text
    assert listed_modes(text) == modes_for(VRAM[display])
    set_modes = re.findall(r"^gop set mode (\d+): (\d+)x(\d+)$", text, re.M)
    assert [(int(w), int(h)) for _, w, h in set_modes] == modes_for(VRAM[display])
    assert re.search(r"^gop path: 2/1/12 1/1/6 2/3/8 7f/ff/4$", text, re.M), text
    assert re.search(r"^gop path text: Pcie?Root\(0x0\)/Pci\(0x[0-9A-F]+,0x0\)"
                     r"/AcpiAdr\(0x80010100\)$", text, re.M), text
    assert "drawing %dx%d" % mode in text
    kind = "bochs-display" if display == "bochs" else "standard VGA"
    way = "I/O ports" if display == "std-io" else "MMIO"
    assert re.search(r"%s, framebuffer 0x[0-9a-f]+, %d KiB, DISPI 0xb0c5 through %s"
                     % (kind, VRAM[display] >> 10, way), m.debug_log)
    expect_screen(m, tmp_path, *mode)


@pytest.mark.parametrize("display,extra,vram", [
    ("std", ["-global", "VGA.vgamem_mb=8"], 8 * MIB),
    ("bochs", ["-device", "bochs-display,vgamem=4M"], 4 * MIB),
])
def test_modes_fit_the_vram(machine, display, extra, vram):
    m = machine(machine="q35", app=APP, args="console-test.efi gop", vga=DISPLAYS[display]["vga"],
                extra=extra)
    m.expect(r"^console-test: \d+ passed, \d+ failed")
    assert re.search(r"^console-test: \d+ passed, 0 failed", m.text, re.M), m.text
    assert listed_modes(m.text) == modes_for(vram)


def test_stop_and_start_again(machine, tmp_path):
    m = run_screen(machine, "q35", "std", "rebind=1 mode=640x480")
    assert "gop rebind done" in m.text
    assert re.search(r"^console-test: \d+ passed, 0 failed", m.text, re.M), m.text
    expect_screen(m, tmp_path, 640, 480)


@pytest.mark.parametrize("machine_type,display", [("q35", "std"), ("pc", "bochs")])
def test_article_gop_program(machine, machine_type, display):
    m = machine(machine=machine_type, app=GOP_MODE, **DISPLAYS[display])
    m.expect(r"^Mode 0 is running at 1024x768$")


def test_ramfb_starts_in_the_console_resolution_setting(machine, tmp_path):
    """The setup screen's Resolution page stores ConsoleResolution (Ember's settings GUID,
    width and height); ramfb starts in that mode at the next boot, so it must be published
    after the variables are up. Before, it was published first and ignored the setting."""
    vars_file = tmp_path / "vars.fd"
    shutil.copy(BUILD / "qemu-x86_64" / "ember-vars.fd", vars_file)
    subprocess.run([BUILD / "ember-varstore", vars_file, "set", "ConsoleResolution",
                    SETTINGS_GUID, "--hex", struct.pack("<2I", 800, 600).hex()], check=True)
    m = machine(firmware="pflash", vars_file=vars_file, app=GOP_MODE, **DISPLAYS["ramfb"])
    m.expect(r"^Mode \d+ is running at 800x600$")


@pytest.mark.parametrize("machine_type", ["q35", "pc"])
def test_ramfb(machine, tmp_path, machine_type):
    m = run_screen(machine, machine_type, "ramfb", "mode=1280x720")
    text = m.text
    assert re.search(r"^console-test: \d+ passed, 0 failed", text, re.M), text
    assert listed_modes(text) == RAMFB_MODES
    assert re.search(r"^gop path text: VenHw\(%s\)/AcpiAdr\(0x80010100\)$" % RAMFB_GUID, text,
                     re.M | re.I), text
    assert "ramfb: framebuffer at" in m.debug_log
    expect_screen(m, tmp_path, 1280, 720)


def linux_kernel():
    """Debian's kernel, fetched into the build directory as for the Linux tests
    (tests/qemu/linux_payloads.py); $EMBER_LINUX_KERNEL overrides it."""
    if os.environ.get("EMBER_LINUX_KERNEL"):
        return os.environ["EMBER_LINUX_KERNEL"]
    try:
        return str(linux_payloads.kernel())
    except linux_payloads.PayloadError as e:
        pytest.fail(f"cannot fetch Debian's kernel: {e}")


def test_linux_efifb_takes_the_mode_over(machine):
    """Linux's EFI stub copies GOP's mode into screen_info and efifb shows it (no root file
    system: the kernel panics after the frame buffer is up)."""
    kernel = linux_kernel()
    m = machine(machine="q35", memory=512, timeout=120,
                extra=["-kernel", kernel, "-append", "console=ttyS0 panic=-1"])
    m.expect(r"efifb: mode is 1024x768x32, linelength=4096")
    m.expect(r"fb0: EFI VGA frame buffer device")
    assert re.search(r"efifb: framebuffer at 0x[0-9a-f]+, using 3072k", m.text)
