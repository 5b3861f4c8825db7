"""QEMU's ACPI and SMBIOS tables as Ember installs them (apps/pci-test checks structure and
checksums): an ACPI 2.0 RSDP (revision 2, XSDT) also under the ACPI 1.0 GUID, tables QEMU
generated after the firmware programmed the chipset (FADT PM blocks at Ember's PMBASE, MCFG
on q35), and SMBIOS 3.0 plus 2.x entry points. The boot logo's BGRT, which Ember adds to
QEMU's tables (also on OVMF, the oracle), and the variable that turns the logo off."""
import re
import shutil
import subprocess

import pytest

from conftest import BUILD
from disk_images import gpt_esp_disk
from pci_view import run_pci_test

PM_BASE = {"q35": 0x600, "pc": 0xb000}


@pytest.mark.parametrize("machine_type", ["q35", "pc"])
def test_acpi_and_smbios_tables(machine, machine_type):
    _, text = run_pci_test(machine, machine=machine_type)
    rsdp = re.search(r"^ACPI RSDP 2.0 at (0x[0-9a-f]+), 1.0 at (0x[0-9a-f]+)$", text, re.M)
    assert rsdp and rsdp.group(1) == rsdp.group(2) != "0x0"
    assert re.search(r"^ACPI RSDP rev 2 len 36 RSDT 0x[0-9a-f]+ XSDT 0x[0-9a-f]+$", text, re.M)
    fadt = re.search(r"^ACPI FADT PM1a_EVT (0x[0-9a-f]+) PM1a_CNT (0x[0-9a-f]+)", text, re.M)
    assert fadt, text
    assert int(fadt.group(1), 16) == PM_BASE[machine_type]
    assert int(fadt.group(2), 16) == PM_BASE[machine_type] + 4
    mcfg = re.search(r"^ACPI MCFG base (0x[0-9a-f]+) buses 0-255$", text, re.M)
    if machine_type == "q35":
        assert mcfg and int(mcfg.group(1), 16) == 0xb0000000
    else:
        assert not mcfg
    for sig in ("FACP", "DSDT", "APIC"):
        assert re.search(rf"^ACPI table {sig} at ", text, re.M), sig
    assert re.search(r"^SMBIOS3 2\.\d+ at 0x[0-9a-f]+: \d+ structures, manufacturer QEMU$", text,
                     re.M)
    assert re.search(r"^SMBIOS 2\.\d+ at 0x[0-9a-f]+: \d+ structures, manufacturer QEMU$", text,
                     re.M)


def test_smbios3_anchor_from_qemu(machine):
    """-machine smbios-entry-point-type=64: QEMU gives a 3.0 anchor; only SMBIOS3 is set."""
    _, text = run_pci_test(machine, machine="q35,smbios-entry-point-type=64")
    assert re.search(r"^SMBIOS3 3\.\d+ at 0x[0-9a-f]+: \d+ structures, manufacturer QEMU$", text,
                     re.M), text
    assert not re.search(r"^SMBIOS 2\.", text, re.M)


BGRT_RE = re.compile(r"^ACPI BGRT version (\d+) status 0x([0-9a-f]+) type (\d+) offset (\d+),(\d+)$",
                     re.M)
BGRT_IMAGE_RE = re.compile(r"^ACPI BGRT image (\d+)x(\d+) (\d+)-bit (\d+) bytes memory type (-?\d+)"
                           r" screen (\d+)x(\d+)$", re.M)
EFI_BOOT_SERVICES_DATA = 4
BOOT_LOGO_GUID = "cd8e3f79-a69d-4954-b8a2-e30b9e7a2ccd"  # include/ember/core/boot_logo.h


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_bgrt_describes_the_boot_logo(machine, firmware):
    """The boot logo's ACPI BGRT, as pci-test reads it from the XSDT: version 1, displayed, a
    BMP that parses, centred on the screen's mode, in EfiBootServicesData (what the ACPI
    specification asks and OVMF, the oracle, does). On a machine with no display there is
    no logo and no BGRT."""
    m, text = run_pci_test(machine, firmware=firmware)
    table, image = BGRT_RE.search(text), BGRT_IMAGE_RE.search(text)
    assert table and image, text
    version, status, kind, x, y = (int(table.group(1)), int(table.group(2), 16),
                                   *(int(v) for v in table.group(3, 4, 5)))
    width, height, bits, size, memory, screen_w, screen_h = (int(v) for v in image.groups())
    assert (version, status & 1, kind) == (1, 1, 0)
    assert bits in (24, 32) and size >= width * height * bits // 8
    assert memory == EFI_BOOT_SERVICES_DATA
    assert abs(x - (screen_w - width) // 2) <= 1, (x, width, screen_w)
    assert abs(y - (screen_h - height) // 2) <= 1, (y, height, screen_h)
    # The logo was on the screen when pci-test started, every pixel of it.
    shown = re.search(r"^ACPI BGRT image on screen at start: (\d+) of (\d+) pixels$", text, re.M)
    assert shown and int(shown.group(1)) == int(shown.group(2)) == width * height, text
    if firmware == "bios":
        assert re.search(r"^acpi: table BGRT added at ", m.debug_log, re.M)


def test_no_display_no_bgrt(machine):
    """-vga none: no GOP, so no logo is drawn and no BGRT claims one."""
    _, text = run_pci_test(machine, vga="none")
    assert re.search(r"^ACPI BGRT none$", text, re.M), text


def test_boot_logo_variable_turns_it_off(machine, tmp_path):
    """BootLogo (Ember's GUID) = 0, written offline into the VARS flash: no logo and no
    BGRT, for machines used over serial only."""
    vars_file = tmp_path / "vars.fd"
    shutil.copy(BUILD / "qemu-x86_64" / "ember-vars.fd", vars_file)
    subprocess.run([BUILD / "ember-varstore", vars_file, "set", "BootLogo", BOOT_LOGO_GUID,
                    "--hex", "00"], check=True)
    m, text = run_pci_test(machine, firmware="pflash", vars_file=vars_file)
    assert re.search(r"^ACPI BGRT none$", text, re.M), text
    assert "logo: turned off by the BootLogo variable" in m.debug_log


def test_boot_menu_clears_the_displayed_bit(machine, tmp_path):
    """The boot menu clears the screen: the BGRT must then say the logo is no longer
    displayed (ACPI: an interrupted boot path clears the bit). pci-test on a disk, booted
    from the menu, reads the table."""
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": BUILD / "apps" / "pci-test.efi"})
    m = machine(firmware="pflash", extra=["-boot", "menu=on", "-drive",
                                          f"file={disk},format=raw,if=virtio"])
    m.expect(r"Press Esc, F2 or F12 for the boot menu")
    m.send(b"\x1b")
    m.expect(r"> Boot0000")
    m.send(b"\r")
    m.expect(r"pci-test: \d+ passed, 0 failed")
    table = BGRT_RE.search(m.text)
    assert table and int(table.group(2), 16) == 0, m.text[-3000:]
    assert "bgrt: the logo is covered" in m.debug_log
