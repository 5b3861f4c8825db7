"""PXE boot over TFTP with Ember's network stack (net/: DHCPv4, TFTP, the PXE LoadFile
driver) above Ember's virtio-net SNP, the option ROM disabled (romfile=): the boot manager
makes a PXEv4 option of the NIC's LoadFile and boots the DHCP boot file, a gnu-efi program,
from QEMU's user network (its DHCP and TFTP servers). OVMF boots the same with its own PXE
stack on its own VirtioNetDxe, which proves the test right."""
import shutil
from pathlib import Path

import pytest

from conftest import BUILD

HELLO = BUILD / "tests" / "programs" / "hello.efi"
MAC = "52:54:00:12:34:56"


UUID = "00112233-4455-6677-8899-aabbccddeeff"


def pxe_machine(machine, tmp_path, firmware, bootfile="boot/hello.efi"):
    (tmp_path / "boot").mkdir()
    shutil.copy(HELLO, tmp_path / "boot" / "hello.efi")
    return machine(firmware=firmware, timeout=300, extra=[
        "-uuid", UUID,
        "-netdev", f"user,id=n0,tftp={tmp_path},bootfile={bootfile}",
        "-device", f"virtio-net-pci,netdev=n0,mac={MAC},romfile=",
        "-object", f"filter-dump,id=f0,netdev=n0,file={tmp_path / 'net.pcap'}"])


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_pxe_boots_a_program_over_tftp(machine, tmp_path, firmware):
    m = pxe_machine(machine, tmp_path, firmware)
    if firmware == "bios":  # what the user sees before the program runs
        m.expect(r"Station IP address is 10\.0\.2\.15")
        m.expect(r"NBP filename is boot/hello\.efi")
        m.expect(r"Downloaded \d+ bytes in \d+ ms")
    m.expect(r"Hello World!")
    if firmware == "bios":
        m.expect_log(r"new boot option Boot[0-9A-F]{4}: UEFI PXEv4 \(MAC:525400123456\)")
        m.expect_log(r"pxe: DHCP: address 10\.0\.2\.15, boot file \"boot/hello\.efi\"")
        # Option 97: type 0 and SMBIOS's system UUID (QEMU's -uuid) in network order.
        dump = (tmp_path / "net.pcap").read_bytes()
        assert bytes([97, 17, 0]) + bytes.fromhex(UUID.replace("-", "")) in dump


def test_pxe_missing_boot_file_falls_through(machine, tmp_path):
    """A boot file the TFTP server does not have: a warning, and the boot manager goes on
    to its next option (here the shell) instead of hanging."""
    m = pxe_machine(machine, tmp_path, "bios", bootfile="missing.efi")
    m.expect(r"PXE: reading missing\.efi failed: EFI_NOT_FOUND")
    m.expect_log(r"pxe: reading missing\.efi from 10\.0\.2\.2: EFI_NOT_FOUND")
    m.expect_log(r"bds: starting Ember shell")


GRUBNET = Path("/usr/lib/grub/x86_64-efi/monolithic/grubnetx64.efi")  # grub-efi-amd64-bin
GRUB_CFG = "echo GRUB-MARKER ip=$net_default_ip server=$net_default_server\n"


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_pxe_grubnetx64_reads_its_config(machine, tmp_path, firmware):
    """Debian's grubnetx64.efi boots over PXE, takes its address from the PXE base code's
    Mode (DhcpAck) and reads its grub.cfg over TFTP from the boot server."""
    if not GRUBNET.exists():
        pytest.fail(f"{GRUBNET} is missing: scripts/deps installs grub-efi-amd64-bin")
    shutil.copy(GRUBNET, tmp_path / "grubnetx64.efi")
    for d in ("grub", "grub/x86_64-efi"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
        (tmp_path / d / "grub.cfg").write_text(GRUB_CFG)
    m = machine(firmware=firmware, timeout=300, memory=512, extra=[
        "-netdev", f"user,id=n0,tftp={tmp_path},bootfile=grubnetx64.efi",
        "-device", f"virtio-net-pci,netdev=n0,mac={MAC},romfile="])
    m.expect(r"GRUB-MARKER ip=10\.0\.2\.15 server=10\.0\.2\.2")
