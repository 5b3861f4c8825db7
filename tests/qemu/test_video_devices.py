"""The screens and the mouse a QEMU user adds beyond the standard VGA: virtio-vga and qxl-vga
(their VGA-compatible interfaces, drivers/qemu_video), virtio-gpu-pci without any VGA
(drivers/virtio/virtio_gpu_*.c) and the PS/2 mouse (platform/qemu-x86_64/devices/ps2_mouse.c).

Each test runs on Ember and on OVMF (the reference, as a pflash pair), which proves it right:
the article's GOP program reports its mode, and a screendump shows the console drawn; the
mouse test moves the mouse with QMP input-send-event and reads it back in apps/pointer-test."""
import re
import time

import pytest

from conftest import BUILD, OVMF_CODE, read_ppm
from test_console import row_showing

GOP_MODE = BUILD / "tests" / "programs" / "gop_mode.efi"
POINTER_TEST = BUILD / "apps" / "pointer-test.efi"
FIRMWARES = ["ember", "ovmf"]

# The mode each firmware starts with. Ember: 1024x768 on the VGA interfaces (the QEMU video
# driver's mode 0), the device's preferred size on virtio-gpu (QEMU's default scanout is
# 1280x800). OVMF: 1280x800, its default resolution, on all three.
START_MODE = {
    ("ember", "virtio-vga"): (1024, 768),
    ("ember", "qxl-vga"): (1024, 768),
    ("ember", "virtio-gpu-pci"): (1280, 800),
    ("ovmf", "virtio-vga"): (1280, 800),
    ("ovmf", "qxl-vga"): (1280, 800),
    ("ovmf", "virtio-gpu-pci"): (1280, 800),
}
# What Ember's debug log says of the device that drives the screen.
EMBER_DRIVER_LOG = {
    "virtio-vga": r"qemu-video: virtio-vga, framebuffer 0x[0-9a-f]+, \d+ KiB, DISPI 0xb0c5 "
                  r"through MMIO",
    "qxl-vga": r"qemu-video: qxl-vga, framebuffer 0x[0-9a-f]+, 16384 KiB, DISPI 0xb0c5 "
               r"through I/O ports",
    "virtio-gpu-pci": r"virtio-gpu: 1280x800, 5 modes",
}


def boot(machine, firmware, app, **kwargs):
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.fail(f"{OVMF_CODE} is missing: scripts/deps installs ovmf")
    return machine(machine="q35", firmware="bios" if firmware == "ember" else "ovmf", app=app,
                   timeout=180, **kwargs)


def screen_shows(m, tmp_path, size, check, timeout=30):
    """Polls screendumps until the screen has size and passes check(pixel, w, h)."""
    deadline = time.monotonic() + timeout
    while True:
        width, height, data = read_ppm(m.screendump(tmp_path / "screen.ppm"))

        def pixel(x, y):
            i = 3 * (y * width + x)
            return tuple(data[i:i + 3])
        if (width, height) == size and check(pixel, width, height, data):
            return
        if time.monotonic() > deadline:
            pytest.fail(f"the screen ({width}x{height}, {size[0]}x{size[1]} expected) does"
                        " not show the console")
        time.sleep(0.5)


@pytest.mark.parametrize("firmware", FIRMWARES)
@pytest.mark.parametrize("device", ["virtio-vga", "virtio-gpu-pci", "qxl-vga"])
def test_gop_program_and_console(machine, tmp_path, firmware, device):
    m = boot(machine, firmware, GOP_MODE, vga="none", extra=["-device", device])
    width, height = START_MODE[firmware, device]
    line = m.expect(r"^Mode \d+ is running at %dx%d$" % (width, height)).group(0)
    if firmware == "ember":
        assert re.search(EMBER_DRIVER_LOG[device], m.debug_log), m.debug_log[-2000:]
        # The program's line as the graphics console draws it, cell by cell.
        screen_shows(m, tmp_path, (width, height),
                     lambda pixel, w, h, data: row_showing(pixel, w, h, line) is not None)
    else:
        # OVMF draws in its own font: its console is drawn when some pixels are lit.
        screen_shows(m, tmp_path, (width, height),
                     lambda pixel, w, h, data: data.count(0) < len(data) - 3 * 2000)


def send_mouse_and_keys(m):
    """Mouse motion and a click, with keys typed in between."""
    def rel(axis, value):
        return {"type": "rel", "data": {"axis": axis, "value": value}}

    def left(down):
        return {"type": "btn", "data": {"down": down, "button": "left"}}
    m.send_keys("a")
    for events, key in (([rel("x", 30), rel("y", 20)], "b"), ([rel("x", 10), rel("y", -5)], "c"),
                        ([left(True)], None), ([left(False)], None)):
        m.qmp("input-send-event", events=events)
        if key:
            m.send_keys(key)
        time.sleep(0.3)


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_ps2_mouse_motion(machine, firmware):
    m = boot(machine, firmware, POINTER_TEST)
    found = m.expect(r"^pointer: (ready|no PS/2 mouse)$").group(1)
    if firmware == "ovmf" and found != "ready":
        pytest.skip("OVMF has no PS/2 mouse driver: no SimplePointer on Acpi(PNP0F03,0)")
    assert found == "ready", m.text
    assert "pointer: resolution 4,4,0 buttons 1,1" in m.text
    assert "pointer: idle EFI_NOT_READY" in m.text
    send_mouse_and_keys(m)
    m.expect(r"^pointer: keys ")
    # QMP's Y grows downwards, as the screen's and SimplePointer's do.
    assert "pointer: moved 40,15 left clicked" in m.text, m.text
    # The keyboard lost nothing to the mouse sharing its controller.
    assert "pointer: keys 'abc'" in m.text, m.text


@pytest.mark.parametrize("firmware", FIRMWARES)
@pytest.mark.parametrize("device", ["virtio-vga", "virtio-gpu-pci", "qxl-vga"])
def test_shell_on_the_screen(machine, tmp_path, firmware, device):
    """Nothing to boot: the shell (Ember's embedded one, OVMF's built-in one) shows its
    prompt, and the screen shows it too."""
    m = boot(machine, firmware, None, vga="none", extra=["-device", device])
    m.expect(r"Shell> ")
    size = START_MODE[firmware, device]
    if firmware == "ember":
        line = "Type 'help' for the commands, 'exit' to leave."
        assert line in m.text
        screen_shows(m, tmp_path, size,
                     lambda pixel, w, h, data: row_showing(pixel, w, h, line) is not None)
    else:
        screen_shows(m, tmp_path, size,
                     lambda pixel, w, h, data: data.count(0) < len(data) - 3 * 2000)
