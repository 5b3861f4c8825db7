"""PCI option ROMs: QEMU's default iPXE ROM on virtio-net and on e1000 (Debian's ipxe-qemu).
The firmware starts iPXE's EFI driver from the ROM, the boot manager boots through the
LoadFile protocol iPXE installs on its SNP child, and iPXE fetches a script over TFTP
(QEMU's user network) that only iPXE runs: it prints a marker with an iPXE variable
expanded, then chain-loads a gnu-efi program that prints its line. OVMF runs the same."""
import shutil
from pathlib import Path

import pytest

from conftest import BUILD

HELLO = BUILD / "tests" / "programs" / "hello.efi"
ROMS = Path("/usr/lib/ipxe/qemu")  # where Debian's QEMU finds its default NIC ROMs
# ${platform} is an iPXE setting: only iPXE turns it into "efi".
SCRIPT = "#!ipxe\necho IPXE-MARKER-${platform}\nchain tftp://10.0.2.2/hello.efi\n"


@pytest.mark.parametrize("nic,rom", [("virtio-net-pci", "efi-virtio.rom"),
                                     ("e1000", "efi-e1000.rom")])
@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_ipxe_from_option_rom_boots_a_script(machine, tmp_path, firmware, nic, rom):
    if not (ROMS / rom).exists():
        pytest.fail(f"{ROMS / rom} is missing: scripts/deps installs ipxe-qemu")
    shutil.copy(HELLO, tmp_path / "hello.efi")
    (tmp_path / "boot.ipxe").write_text(SCRIPT)
    m = machine(firmware=firmware, timeout=300, extra=[
        "-netdev", f"user,id=n0,tftp={tmp_path},bootfile=boot.ipxe",
        "-device", f"{nic},netdev=n0"])
    m.expect(r"iPXE \d")
    m.expect(r"IPXE-MARKER-efi")
    m.expect(r"Hello World!")
    if firmware == "bios":
        m.expect_log(r"00:02\.0: started the option ROM's EFI driver")
        m.expect_log(r"new boot option Boot[0-9A-F]{4}: UEFI PXEv4 \(MAC:525400123456\)")
