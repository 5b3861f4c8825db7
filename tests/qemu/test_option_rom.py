"""PCI option ROMs: QEMU's default iPXE ROM on virtio-net and on e1000 (Debian's ipxe-qemu).
The firmware starts iPXE's EFI driver from the ROM, the boot manager boots through the
LoadFile protocol iPXE installs on its SNP child, and iPXE fetches a script over TFTP
(QEMU's user network) that only iPXE runs: it prints a marker with an iPXE variable
expanded, then chain-loads a gnu-efi program that prints its line. OVMF runs the same. The same
driver compressed by Ember's encoder (build/ember-compress) in a ROM of the test's own,
given to QEMU with romfile=, is decompressed by Ember and by OVMF."""
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from conftest import BUILD

HELLO = BUILD / "tests" / "programs" / "hello.efi"
COMPRESS = BUILD / "ember-compress"
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


def compressed_rom(rom, out):
    """A copy of an iPXE ROM whose EFI image is compressed by build/ember-compress
    (CompressionType 1, UEFI 2.10 chapter 19); the images before it are kept as they are.
    The EFI image header (UEFI 2.10, 14.4.2): InitializationSize at 2 (512-byte units),
    signature 0x0EF1 at 4, subsystem 8, machine 0xA, CompressionType 0xC, the image's offset
    at 0x16; the PCI data structure ("PCIR") gives the image length at 0x10 and the code type
    at 0x14."""
    data = rom.read_bytes()
    pos = 0
    while True:
        assert data[pos:pos + 2] == b"\x55\xaa", f"no ROM image at {pos:#x}"
        pcir = pos + struct.unpack_from("<H", data, pos + 0x18)[0]
        units, code_type = struct.unpack_from("<HxxB", data, pcir + 0x10)
        if code_type == 3:
            break
        pos += units * 512
    offset = struct.unpack_from("<H", data, pos + 0x16)[0]
    pe = data[pos + offset:pos + struct.unpack_from("<H", data, pos + 2)[0] * 512]
    (out.parent / "driver.efi").write_bytes(pe)
    subprocess.run([str(COMPRESS), str(out.parent / "driver.efi"),
                    str(out.parent / "driver.z")], check=True)
    packed = (out.parent / "driver.z").read_bytes()
    assert len(packed) < len(pe) * 3 // 4, "the encoder should compress a PE image"
    image = bytearray(data[pos:pos + offset]) + packed
    image += bytes(-len(image) % 512)
    units = len(image) // 512
    struct.pack_into("<H", image, 2, units)
    struct.pack_into("<H", image, 0xC, 1)
    struct.pack_into("<H", image, pcir - pos + 0x10, units)
    image[pcir - pos + 0x15] |= 0x80  # the last image
    out.write_bytes(data[:pos] + bytes(image))


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_compressed_option_rom_driver_runs(machine, tmp_path, firmware):
    """iPXE's EFI driver compressed by Ember's encoder: Ember decompresses and starts it;
    OVMF, whose decoder is EDK2's, runs the same ROM, which proves the encoder right."""
    rom = tmp_path / "rom" / "compressed.rom"
    rom.parent.mkdir()
    compressed_rom(ROMS / "efi-virtio.rom", rom)
    shutil.copy(HELLO, tmp_path / "hello.efi")
    (tmp_path / "boot.ipxe").write_text(SCRIPT)
    m = machine(firmware=firmware, timeout=300, extra=[
        "-netdev", f"user,id=n0,tftp={tmp_path},bootfile=boot.ipxe",
        "-device", f"virtio-net-pci,netdev=n0,romfile={rom}"])
    m.expect(r"iPXE \d")
    m.expect(r"IPXE-MARKER-efi")
    m.expect(r"Hello World!")
    if firmware == "bios":
        m.expect_log(r"00:02\.0: started the option ROM's EFI driver "
                     r"\(image at 0x12800, decompressed\)")
