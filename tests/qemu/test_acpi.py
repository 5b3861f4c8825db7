"""QEMU's ACPI and SMBIOS tables as Ember installs them (apps/pci-test checks structure and
checksums): an ACPI 2.0 RSDP (revision 2, XSDT) also under the ACPI 1.0 GUID, tables QEMU
generated after the firmware programmed the chipset (FADT PM blocks at Ember's PMBASE, MCFG
on q35), and SMBIOS 3.0 plus 2.x entry points."""
import re

import pytest

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
