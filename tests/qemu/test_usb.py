"""USB on QEMU's xHCI (qemu-xhci): a usb-kbd on a machine without a PS/2 controller
(q35,i8042=off), so every key QMP's send-key presses comes through xHCI, the USB bus
driver and the HID keyboard driver. The keys reach an application, the shell and the boot
menu. The shell test also runs on OVMF (the oracle): the same disk, the same keys."""
import re
import time

import pytest

from conftest import BUILD, OVMF_CODE
from disk_images import gpt_esp_disk

APPS = BUILD / "apps"
USB_KEYBOARD = ["-device", "qemu-xhci,id=xhci", "-device", "usb-kbd,bus=xhci.0"]
NO_PS2 = "q35,i8042=off"

KEYS = ["a", ["shift", "a"], "1", ["shift", "1"], "ret", "up", "down", "left", "right",
        "home", "end", "pgup", "pgdn", "insert", "delete", "f1", "f10", "f12", "esc",
        "tab", "backspace", ["ctrl", "c"], "spc", "minus", ["shift", "slash"],
        "caps_lock", "b", ["shift", "b"], "caps_lock", "c"]
EXPECTED = [
    ("0000", "0061"), ("0000", "0041"), ("0000", "0031"), ("0000", "0021"), ("0000", "000d"),
    ("0001", "0000"), ("0002", "0000"), ("0004", "0000"), ("0003", "0000"),
    ("0005", "0000"), ("0006", "0000"), ("0009", "0000"), ("000a", "0000"), ("0007", "0000"),
    ("0008", "0000"), ("000b", "0000"), ("0014", "0000"), ("0016", "0000"), ("0017", "0000"),
    ("0000", "0009"), ("0000", "0008"), ("0000", "0003"), ("0000", "0020"), ("0000", "002d"),
    ("0000", "003f"), ("0000", "0042"), ("0000", "0062"), ("0000", "0063"),
]


def key_lines(text):
    return re.findall(r"^key (\w{4}) (\w{4})$", text, re.M)


@pytest.fixture(scope="module")
def shell_disk(tmp_path_factory):
    work = tmp_path_factory.mktemp("usb")
    return gpt_esp_disk(work / "shell.img", work, {"EFI/BOOT/BOOTX64.EFI": APPS / "shell.efi",
                                                   "console-test.efi": APPS / "console-test.efi",
                                                   "usb-pointer.efi": APPS / "usb-pointer.efi"})


def shell_drive(disk):
    return ["-drive", f"file={disk},format=raw,if=none,id=d,snapshot=on",
            "-device", "virtio-blk-pci,drive=d"]


def test_usb_keys_reach_the_boot_menu(machine, shell_disk):
    m = machine(machine=NO_PS2, disks=[shell_drive(shell_disk)],
                extra=USB_KEYBOARD + ["-boot", "menu=on"], timeout=120)
    m.expect(r"Press Esc, F2 or F12 for the boot menu")
    m.send_keys("esc")
    m.expect(r"Ember boot menu")
    m.expect(r"> Boot0000")


def shell_on(machine, shell_disk, firmware, devices=USB_KEYBOARD, kind=NO_PS2):
    """The shell booted from the disk, at its prompt (by default with the USB keyboard as the
    only one)."""
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) missing")
    m = machine(machine=kind, firmware=firmware, disks=[shell_drive(shell_disk)],
                extra=devices, timeout=180)
    m.expect(r"> $")  # fs0:\>
    return m


def typed(text):
    """send_keys chords typing text (lower case letters, digits, space, '-')."""
    names = {" ": "spc", "-": "minus"}
    return [names.get(c, c) for c in text]


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_usb_keys_reach_an_application(machine, shell_disk, firmware):
    m = shell_on(machine, shell_disk, firmware)
    m.send_keys(*typed("console-test keys"), "ret")
    # Keys sent before the program reads them would go to the shell: wait for the line to
    # be taken (the program then waits a second for its first key).
    m.expect(r"> console-test keys\n")
    time.sleep(0.3)
    for chord in KEYS:  # one at a time: OVMF drops keys that come too close together
        m.send_keys(chord)
        time.sleep(0.1)
    m.expect(r"console-test: \d+ passed, \d+ failed")
    assert key_lines(m.text) == EXPECTED
    if firmware != "ovmf":  # OVMF's ReadKeyStroke(NULL) is EFI_NOT_READY, not INVALID_PARAMETER
        assert re.search(r"console-test: \d+ passed, 0 failed", m.text)


@pytest.mark.parametrize("firmware,controller", [("bios", "qemu-xhci"), ("ovmf", "qemu-xhci"),
                                                 ("bios", "nec-usb-xhci"),
                                                 ("ovmf", "nec-usb-xhci")])
def test_usb_keys_reach_the_shell(machine, shell_disk, firmware, controller):
    m = shell_on(machine, shell_disk, firmware,
                 devices=["-device", f"{controller},id=xhci", "-device", "usb-kbd,bus=xhci.0"])
    m.send_keys(*"echo", "spc", ["shift", "u"], *"sb", "spc", *"k3y", ["shift", "1"], "ret")
    m.expect(r"^Usb k3y!$")


# QEMU names a port behind a hub by the hub's port, a dot, and the port on the hub.
USB_HUB_KEYBOARD = ["-device", "qemu-xhci,id=xhci", "-device", "usb-hub,bus=xhci.0,port=1,id=hub0",
                    "-device", "usb-kbd,bus=xhci.0,port=1.1"]


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_usb_keys_through_a_hub_reach_the_shell(machine, shell_disk, firmware):
    m = shell_on(machine, shell_disk, firmware, devices=USB_HUB_KEYBOARD)
    m.send_keys(*typed("echo hub"), "spc", *"k3y", "ret")
    m.expect(r"^hub k3y$")


def abs_event(x, y, button=None):
    events = [{"type": "abs", "data": {"axis": "x", "value": x}},
              {"type": "abs", "data": {"axis": "y", "value": y}}]
    if button is not None:
        events.append({"type": "btn", "data": {"down": button, "button": "left"}})
    return events


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_usb_tablet_positions_reach_an_application(machine, shell_disk, firmware):
    # The command is typed on the PS/2 keyboard; the tablet is QEMU's only pointer.
    m = shell_on(machine, shell_disk, firmware, kind="q35",
                 devices=["-device", "qemu-xhci,id=xhci", "-device", "usb-tablet,bus=xhci.0"])
    m.send_keys(*typed("usb-pointer"), "ret")
    found = m.expect(r"abs range x 0-(\d+) y 0-(\d+)\n|no absolute pointer")
    if firmware == "ovmf":
        # OVMF (Debian's ovmf) shows an absolute pointer (range 0-65536, also with a
        # usb-mouse alone) but reports no state for QMP's events within the program's
        # three seconds: the test cannot be proven there, and says so.
        pytest.skip("OVMF's absolute pointer reports no usb-tablet state for input-send-event")
    # QEMU's own range, from the tablet's report descriptor.
    max_x, max_y = int(found.group(1)), int(found.group(2))
    assert (max_x, max_y) == (32767, 32767)
    m.expect(r"pointer ready")
    moves = ((1000, 2000, None), (32767, 0, True), (16384, 8192, False))
    for i, (x, y, button) in enumerate(moves):
        m.qmp("input-send-event", events=abs_event(x, y, button))
        m.expect(r"(?m)" + r"(^abs \d+ \d+ \d+$[\s\S]*?)" * (i + 1))
    m.expect(r"pointer done")
    states = re.findall(r"^abs (\d+) (\d+) (\d+)$", m.text, re.M)
    assert len(states) == len(moves), states
    for (x, y, button), (gx, gy, gb) in zip(moves, states):
        assert abs(int(gx) - x * max_x / 32767) <= max_x / 32767 + 1, (x, gx)
        assert abs(int(gy) - y * max_y / 32767) <= max_y / 32767 + 1, (y, gy)
        assert int(gb) == (1 if button else 0)


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_usb_keyboard_plugged_in_while_the_shell_runs(machine, shell_disk, firmware):
    # No keyboard at all until QMP's device_add: the hot-plug poll must find it.
    m = shell_on(machine, shell_disk, firmware, devices=["-device", "qemu-xhci,id=xhci"])
    m.qmp("device_add", driver="usb-kbd", bus="xhci.0", id="hotkbd")
    if firmware != "ovmf":
        m.expect_log(r"usbkbd: keyboard ready")
    else:
        time.sleep(3)  # OVMF says nothing when its hot-plug poll finds the keyboard
    m.send_keys(*typed("echo hot"), "ret")
    m.expect(r"^hot$")
    m.qmp("device_del", id="hotkbd")
    if firmware != "ovmf":
        m.expect_log(r"usb: port \d+: device removed")


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_usb_mouse_movements_reach_an_application(machine, shell_disk, firmware):
    # No PS/2 controller (so no PS/2 mouse): the command is typed on a USB keyboard.
    m = shell_on(machine, shell_disk, firmware,
                 devices=USB_KEYBOARD + ["-device", "usb-mouse,bus=xhci.0"])
    m.send_keys(*typed("usb-pointer mouse"), "ret")
    m.expect(r"pointer ready")
    if firmware == "ovmf":
        # As for the tablet: OVMF's SimplePointer is there, but no QMP movement reaches it.
        pytest.skip("OVMF's USB SimplePointer reports no usb-mouse state for input-send-event")
    moves = ((10, -4, False), (-20, 7, True), (3, 3, False))
    for i, (dx, dy, left) in enumerate(moves):
        m.qmp("input-send-event", events=[
            {"type": "rel", "data": {"axis": "x", "value": dx}},
            {"type": "rel", "data": {"axis": "y", "value": dy}},
            {"type": "btn", "data": {"down": left, "button": "left"}}])
        m.expect(r"(?m)" + r"(^rel -?\d+ -?\d+ \d \d$[\s\S]*?)" * (i + 1))
    m.expect(r"pointer done")
    states = re.findall(r"^rel (-?\d+) (-?\d+) (\d) (\d)$", m.text, re.M)
    assert [(int(x), int(y), int(b)) for x, y, b, _ in states] == \
        [(dx, dy, int(left)) for dx, dy, left in moves]

