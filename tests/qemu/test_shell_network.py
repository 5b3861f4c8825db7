"""The shell's network commands in QEMU (virtio-net with romfile=, QEMU's user network,
its TFTP server and an HTTP server of this test on 127.0.0.1, 10.0.2.2 from the guest):
shell.efi boots from a disk and its startup.nsh runs ifconfig, tftp, ping and http. On
Ember every command works; on OVMF (the oracle of the standard protocols the shell uses)
ifconfig (EFI_IP4_CONFIG2_PROTOCOL, whose DHCP runs in the background there) and tftp
(EFI_PXE_BASE_CODE_PROTOCOL on the NIC's IPv4 child) work, and ping and http, which need
Ember's own EMBER_NET_TOOLS_PROTOCOL, fail with a clear message."""
import sys
from pathlib import Path

import pytest

from conftest import BUILD
from disk_images import MIB, fat_partition

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from http_server import Server  # noqa: E402

SHELL = BUILD / "apps" / "shell.efi"
MAC = "52:54:00:12:34:56"


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"])
def test_shell_network_commands(machine, tmp_path, firmware):
    www = tmp_path / "www"
    www.mkdir()
    (www / "tftp.txt").write_text("fetched over tftp\n")
    (www / "http.txt").write_text("fetched over http\n")
    server = Server(www)
    try:
        script = tmp_path / "startup.nsh"
        script.write_text("\r\n".join([
            "connect -r", "ifconfig -s eth0 dhcp", "ifconfig -l eth0",
            "tftp 10.0.2.2 tftp.txt got1.txt", "type got1.txt",
            "ping -n 2 10.0.2.2", "echo ping status %lasterror%",
            f"http {server.url('http.txt')} got2.txt", "echo http status %lasterror%",
            "type got2.txt", "echo ==== end", "reset -s", ""]))
        disk = fat_partition(tmp_path / "disk.img", 8 * MIB, {
            "EFI/BOOT/BOOTX64.EFI": SHELL, "startup.nsh": script})
        m = machine(firmware=firmware, timeout=300, extra=[
            "-drive", f"format=raw,if=none,id=d0,file={disk}",
            "-device", "virtio-blk-pci,drive=d0,bootindex=0",
            "-netdev", f"user,id=n0,tftp={www}",
            "-device", f"virtio-net-pci,netdev=n0,mac={MAC},romfile="])
        m.expect(r"eth0: 10\.0\.2\.15 from DHCP")
        m.expect(r"mac addr        : 52:54:00:12:34:56")
        m.expect(r"ipv4 address    : 10\.0\.2\.15")
        m.expect(r"default gateway : 10\.0\.2\.2")
        m.expect(r"tftp: 18 bytes in \d+ ms")
        m.expect(r"fetched over tftp")
        if firmware == "pflash":
            m.expect(r"2 packets transmitted, 2 received, 0% packet loss")
            m.expect(r"ping status 0x0")
            m.expect(r"http: 18 bytes in \d+ ms")
            m.expect(r"http status 0x0")
            m.expect(r"fetched over http")
        else:
            m.expect(r"ping: eth0 has no EMBER_NET_TOOLS_PROTOCOL: ping needs Ember's network")
            m.expect(r"ping status 0x800000000000000e")
            m.expect(r"http: eth0 has no EMBER_NET_TOOLS_PROTOCOL: http needs Ember's network")
        m.expect(r"==== end")
    finally:
        server.stop()
