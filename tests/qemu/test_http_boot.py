"""HTTP boot under QEMU with Ember's own stack (virtio-net with romfile=, so Ember's driver
and net/ are used) from an HTTP server of this test on 127.0.0.1 (10.0.2.2 from the guest):
the DHCP boot file as a URL boots a gnu-efi program through the NIC's HTTPv4 option; a user's
URL boot option (NIC/IPv4()/Uri(URL), written by apps/net-load, then BootNext and a reset)
boots the program, the Linux tests' UKI and an ISO (through a RAM disk) on Ember and on OVMF.
OVMF is not run on the DHCP boot file test: its HTTP boot
takes a URL from DHCP only in an offer that echoes the HTTPClient vendor class (option 60),
which QEMU's DHCP server never sends."""
import sys
from pathlib import Path

import pytest

from conftest import BUILD
from disk_images import MIB, fat_partition, ram_disk_images

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from http_server import Server  # noqa: E402

HELLO = BUILD / "tests" / "programs" / "hello.efi"
NET_LOAD = BUILD / "apps" / "net-load.efi"
MAC = "52:54:00:12:34:56"


@pytest.fixture
def served(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "hello.efi").write_bytes(HELLO.read_bytes())
    server = Server(root)
    yield server, root
    server.stop()


def nic(bootfile=None):
    netdev = "user,id=n0" + (f",bootfile={bootfile}" if bootfile else "")
    return ["-netdev", netdev, "-device", f"virtio-net-pci,netdev=n0,mac={MAC},romfile="]


def test_http_boot_of_the_dhcp_boot_file(machine, served):
    server, _ = served
    m = machine(firmware="bios", timeout=300, extra=nic(server.url("hello.efi")))
    m.expect(r">>Start HTTP Boot over IPv4")
    m.expect(r"URI: " + server.url("hello.efi").replace(".", r"\."))
    m.expect(r"Downloaded \d+ bytes in \d+ ms")
    m.expect(r"Hello World!")
    m.expect_log(r"new boot option Boot[0-9A-F]{4}: UEFI HTTPv4 \(MAC:525400123456\)")
    m.expect_log(r"pxe: the boot file is a URL: left to HTTP boot")


def uri_option_machine(machine, tmp_path, url, firmware, **kwargs):
    """A machine whose disk boots apps/net-load, which writes the URL boot option
    NIC/IPv4()/Uri(url), sets BootNext to it and resets: the firmware's boot manager then
    boots the URL (Ember's or OVMF's, alike)."""
    (tmp_path / "netload.txt").write_text(f"uri-option {url}\n")
    disk = fat_partition(tmp_path / "disk.img", 8 * MIB, {
        "EFI/BOOT/BOOTX64.EFI": NET_LOAD, "NETLOAD.TXT": tmp_path / "netload.txt"})
    m = machine(firmware=firmware, no_reboot=False, extra=[
        "-drive", f"format=raw,if=none,id=d0,file={disk}",
        "-device", "virtio-blk-pci,drive=d0,bootindex=0", *nic()], **kwargs)
    m.expect(r"net-load: Boot0080 for .*: EFI_SUCCESS")
    return m


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"])
def test_http_boot_of_an_iso_from_a_uri_boot_option(machine, served, tmp_path, firmware):
    """The ISO (application/vnd.efi-iso) by a URL boot option: both firmwares put it in a
    RAM disk and boot its El Torito EFI image."""
    server, root = served
    ram_disk_images(root, tmp_path, HELLO)
    m = uri_option_machine(machine, tmp_path, server.url("ramdisk.iso"), firmware,
                           timeout=400, memory=512)
    m.expect(r"Hello World!")
    if firmware == "pflash":
        m.expect_log(r"the download is an ISO image: a RAM disk of \d+ bytes")


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"])
def test_http_boot_of_a_uri_boot_option(machine, served, tmp_path, firmware):
    server, _ = served
    m = uri_option_machine(machine, tmp_path, server.url("hello.efi"), firmware, timeout=400)
    m.expect(r"Hello World!")


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"])
def test_http_boot_of_the_linux_uki(machine, served, tmp_path, firmware):
    """The Linux tests' UKI (systemd's stub, Debian's kernel, the test initramfs) from a URL
    boot option: Linux runs the report stage and powers off. One Linux boot per firmware
    (the DHCP boot file URL path is the gnu-efi program's test above)."""
    import linux_payloads as lp
    server, root = served
    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    (root / "uki.efi").write_bytes(Path(uki).read_bytes())
    m = uri_option_machine(machine, tmp_path, server.url("uki.efi"), firmware, memory=512,
                           timeout=600)
    m.expect(r"^EMBER-DONE: report")
    assert "EMBER-EFI: yes" in m.text
