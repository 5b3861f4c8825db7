"""The boot manager on QEMU: default options for removable media, BootOrder in QEMU's
bootindex order, BootNext once, the boot menu from the serial console, and stale options
of Ember's own removed while options someone else wrote stay. Two GPT disks: A boots
hello.efi ("Hello World!"), B boots gop_mode.efi ("Mode 0 is running at ...")."""
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, FW
from disk_images import gpt_esp_disk

PROGRAMS = BUILD / "tests" / "programs"
VARSTORE = BUILD / "ember-varstore"
HELLO = "Hello World!"
MODE = "Mode 0 is running at"


@pytest.fixture(scope="module")
def disks(tmp_path_factory):
    work = tmp_path_factory.mktemp("bds")
    a = gpt_esp_disk(work / "a.img", work, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    (work / "esp.img").unlink()
    b = gpt_esp_disk(work / "b.img", work, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "gop_mode.efi"})
    return a, b


def drives(a, b, index_a=None, index_b=None):
    args = ["-drive", f"file={a},format=raw,if=none,id=a",
            "-drive", f"file={b},format=raw,if=none,id=b"]
    for drive, index in (("a", index_a), ("b", index_b)):
        dev = f"virtio-blk-pci,drive={drive}"
        if index is not None:
            dev += f",bootindex={index}"
        args += ["-device", dev]
    return [args]


def varstore(vars_file, *args):
    return subprocess.run([str(VARSTORE), str(vars_file), *args], check=True,
                          capture_output=True, text=True).stdout


def boot_order(vars_file):
    out = varstore(vars_file, "get", "BootOrder", "--raw")
    return out


def order_of_outputs(text):
    """Which program printed first: 'A' for hello, 'B' for gop_mode."""
    seq = []
    for m in re.finditer(f"({re.escape(HELLO)}|{re.escape(MODE)})", text):
        seq.append("A" if m.group(1) == HELLO else "B")
    return "".join(seq)


def run_until_halt(machine, **kwargs):
    """Boots until every option has run and the boot manager falls back to the shell."""
    m = machine(firmware="pflash", **kwargs)
    m.expect_log(r"no boot option started a system", timeout=90)
    return m


def test_default_options_follow_bootindex(machine, disks, tmp_path):
    a, b = disks
    vars_file = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    m = run_until_halt(machine, vars_file=vars_file, disks=drives(a, b, index_a=2, index_b=1))
    # bootindex puts B first; each program returns, so both run, B then A.
    assert order_of_outputs(m.text) == "BA", m.text
    m.close()
    listing = varstore(vars_file, "list")
    assert re.search(r"Boot0000", listing) and re.search(r"Boot0001", listing), listing
    # The other way round on the next boot: the order follows bootindex again.
    m = run_until_halt(machine, vars_file=vars_file, disks=drives(a, b, index_a=1, index_b=2))
    assert order_of_outputs(m.text) == "AB", m.text


def test_boot_next_is_used_once(machine, disks, tmp_path):
    a, b = disks
    vars_file = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    m = run_until_halt(machine, vars_file=vars_file, disks=drives(a, b, index_a=1, index_b=2))
    assert order_of_outputs(m.text) == "AB"
    m.close()
    # Which option is B's? The one whose description names the second disk's slot.
    listing = varstore(vars_file, "list")
    numbers = re.findall(r"Boot(000[0-9])", listing)
    assert len(numbers) >= 2, listing
    # Try each option as BootNext: the one that starts B first is B's.
    first = {}
    for n in numbers[:2]:
        varstore(vars_file, "set", "BootNext", "--hex", f"{int(n, 16):02x}00")
        m = run_until_halt(machine, vars_file=vars_file,
                           disks=drives(a, b, index_a=1, index_b=2))
        first[n] = order_of_outputs(m.text)
        m.close()
        # BootNext is gone after it was used.
        assert "BootNext" not in varstore(vars_file, "list")
    assert sorted(first.values()) == ["AAB", "BAB"], first


def test_boot_menu_from_the_serial_console(machine, disks, tmp_path):
    a, b = disks
    vars_file = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    m = run_until_halt(machine, vars_file=vars_file, disks=drives(a, b, index_a=1, index_b=2))
    m.close()
    m = machine(firmware="pflash", vars_file=vars_file,
                disks=drives(a, b, index_a=1, index_b=2), extra=["-boot", "menu=on"])
    # Esc during the wait opens the menu; Down, Enter boots the second entry (B).
    m.expect(r"Press Esc, F2 or F12 for the boot menu")
    m.send(b"\x1b")
    m.expect(r"Ember boot menu")
    m.expect(r"Secure Boot: disabled \(setup mode\)")
    m.expect(r"> Boot0000")
    m.send(b"\x1b[B")
    m.expect(r"> Boot0001")
    m.send(b"\r")
    m.expect(re.escape(MODE))
    assert order_of_outputs(m.text)[0] == "B"


def test_boot_menu_shows_secure_boot_on_with_the_ms_template(machine, disks, tmp_path):
    """ember-vars.ms.fd has a PK: the firmware starts in User Mode, Secure Boot on."""
    a, b = disks
    vars_file = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.ms.fd", vars_file)
    m = machine(firmware="pflash", vars_file=vars_file,
                disks=drives(a, b, index_a=1, index_b=2), extra=["-boot", "menu=on"])
    m.expect(r"Press Esc, F2 or F12 for the boot menu")
    m.send(b"\x1b")
    m.expect(r"Ember boot menu")
    m.expect(r"Secure Boot: enabled \(user mode\)")
    m.close()


def test_stale_own_options_go_and_others_stay(machine, disks, tmp_path):
    a, b = disks
    vars_file = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    m = run_until_halt(machine, vars_file=vars_file, disks=drives(a, b, index_a=1, index_b=2))
    m.close()
    # An option an OS wrote, for a device that is not there: HD() short form, no marker.
    option = ("01000000" "2e00" + "4f0053000000"  # attributes, path length, u"OS\0"
              "04012a00" "01000000" + "00" * 8 + "00" * 8 + "11" * 16 + "0202"  # HD(1,GPT)
              "7fff0400")
    varstore(vars_file, "set", "Boot0042", "--hex", option)
    # B's disk is gone: its own option goes, the OS's stays (even with no device).
    m = run_until_halt(machine, vars_file=vars_file, disks=[["-drive", f"file={a},format=raw,if=virtio"]])
    m.close()
    listing = varstore(vars_file, "list")
    assert "Boot0042" in listing, listing
    assert len(re.findall(r"Boot000[0-9]", listing)) == 1, listing
