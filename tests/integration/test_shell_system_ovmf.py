"""The shell's system commands on OVMF (EDK II's firmware) as the oracle for their reading
of the driver model, the memory map, PCI, SMBIOS, ACPI and variables: shell.efi boots as
\\EFI\\BOOT\\BOOTX64.EFI (scripts/run-ovmf), its startup.nsh runs the commands, and their
output must show what EDK II publishes. Skipped when OVMF or QEMU is missing."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import PROGRAMS, ROOT, app

OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
TEST_GUID = "7E57A11E-5A1E-4C6F-9A2B-3C4D5E6F7081"

pytestmark = pytest.mark.skipif(
    not OVMF_CODE.exists() or not shutil.which("qemu-system-x86_64") or
    not shutil.which("mcopy"), reason="OVMF (Debian package ovmf), QEMU or mtools missing")

STARTUP = f"""echo -off
echo ==== drivers
drivers
echo ==== devices
devices
echo ==== dh
dh -p PciIo
echo ==== memmap
memmap
echo ==== pci
pci
echo ==== smbiosview
smbiosview -t 1
echo ==== acpiview
acpiview
echo ==== setvar
setvar EmberTest -guid {TEST_GUID} -bs -nv =0x1234 =L"ok"
setvar EmberTest -guid {TEST_GUID}
echo ==== bcfg
bcfg boot add 0 fs0:\\hello.efi "Hello from bcfg"
bcfg boot dump
echo ==== connect
connect -r
echo ==== end
reset -s
"""


@pytest.fixture(scope="module")
def sections(tmp_path_factory):
    files = tmp_path_factory.mktemp("disk")
    (files / "startup.nsh").write_text(STARTUP.replace("\n", "\r\n"))
    shutil.copy(PROGRAMS / "hello.efi", files / "hello.efi")
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--timeout", "180", "--files",
                          str(files), str(app("shell"))], capture_output=True, timeout=240)
    out = run.stdout.decode("utf-8", "replace").replace("\r", "")
    parts = re.split(r"^==== (\w+)$", out, flags=re.M)
    found = {parts[i]: parts[i + 1].lstrip("\n") for i in range(1, len(parts), 2)}
    assert "end" in found, f"the script did not finish on OVMF:\n{out[-3000:]}"
    return found


def test_drivers_and_devices_read_edk2s_driver_model(sections):
    drivers = sections["drivers"]
    # EDK II's PCI bus driver made children; its image is in the firmware volume.
    m = re.search(r"^\s*[0-9A-F]+ [0-9A-F]{8} B - - +\d+ +\d+ PCI Bus Driver +(\S.*)$",
                  drivers, re.M)
    assert m, drivers
    assert re.search(r"^\s*[0-9A-F]+ [0-9A-F]{8} [BD] . . +\d+ +[-\d]+ FAT File System Driver",
                     drivers, re.M), drivers
    devices = sections["devices"]
    assert re.search(r"^\s*[0-9A-F]+ R - - +- +\d+ +\d+ PciRoot\(0x0\)$", devices, re.M) or \
        re.search(r"^\s*[0-9A-F]+ R . . +- +\d+ +\d+ .*Root", devices, re.M), devices
    assert len(re.findall(r"^\s*[0-9A-F]+ [RBD] ", devices, re.M)) >= 8, devices


def test_dh_memmap_pci_smbios_acpi_on_edk2(sections):
    assert sections["dh"].startswith("Handle dump by protocol 'PciIo'\n")
    assert len(re.findall(r"^\s*[0-9A-F]+: ", sections["dh"], re.M)) >= 4
    assert re.search(r"^Total Memory: +2\d\d MB", sections["memmap"], re.M)
    assert "Bridge Device - Host/PCI bridge" in sections["pci"]
    assert re.search(r"^  Manufacturer:    QEMU$", sections["smbiosview"], re.M)
    assert re.search(r"^FACP  [0-9A-F]{16} .* ok$", sections["acpiview"], re.M)


def test_setvar_and_bcfg_on_edk2_variables(sections):
    assert (f"{TEST_GUID} - EmberTest - 0006 Bytes (NV+BS)\n34 12 6F 00 6B 00\n"
            in sections["setvar"]), sections["setvar"]
    bcfg = sections["bcfg"]
    m = re.search(r"Target = ([0-9A-F]{4}): Boot\1 added at position 0\.\n"
                  r"Option: 00\. Variable: Boot\1\n"
                  r"  Desc    - Hello from bcfg\n"
                  r"  DevPath - PciRoot\(0x0\)/.*\\hello\.efi\n", bcfg)
    assert m, bcfg
