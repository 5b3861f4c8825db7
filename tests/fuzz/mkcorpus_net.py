#!/usr/bin/python3
"""Writes the seed corpora of the network fuzzers (tests/fuzz/corpus/{dhcp,tftp,ipv4_udp,arp})
from byte layouts of RFC 2131, RFC 1350/2347, RFC 791/768 and RFC 826."""
import struct
import sys
from pathlib import Path

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "corpus")
MAC = bytes.fromhex("525400123456")


def dhcp(msg_type, opts=b"", file=b"", sname=b"", yiaddr="10.0.2.15"):
    ip = bytes(int(x) for x in yiaddr.split("."))
    head = struct.pack(">BBBBIHH4s4s4s4s", 2, 1, 6, 0, 0x1234abcd, 0, 0x8000, bytes(4), ip,
                       bytes([10, 0, 2, 2]), bytes(4))
    body = head + MAC + bytes(10) + sname.ljust(64, b"\0") + file.ljust(128, b"\0")
    return body + b"\x63\x82\x53\x63" + bytes([53, 1, msg_type]) + opts + b"\xff"


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f">{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp_frame(payload, sport=67, dport=68, frag=0x4000, ttl=64, ihl=5):
    src, dst = bytes([10, 0, 2, 2]), bytes([255, 255, 255, 255])
    udp = struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload
    pseudo = src + dst + struct.pack(">BBH", 0, 17, len(udp))
    csum = checksum(pseudo + udp) or 0xFFFF
    udp = udp[:6] + struct.pack(">H", csum) + udp[8:]
    opts = bytes((ihl - 5) * 4)
    ip = struct.pack(">BBHHHBBH4s4s", 0x40 | ihl, 0, 20 + len(opts) + len(udp), 1, frag, ttl,
                     17, 0, src, dst) + opts
    ip = ip[:10] + struct.pack(">H", checksum(ip)) + ip[12:]
    return MAC + bytes.fromhex("52550a000202") + b"\x08\x00" + ip + udp


def rec(packet):
    return struct.pack(">H", len(packet)) + packet


def tftp_data(block, n):
    return struct.pack(">HH", 3, block) + bytes([block & 0xFF]) * n


def arp(op, spa, tpa, sha=bytes.fromhex("52550a000202")):
    return struct.pack(">HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, sha, bytes(spa), bytes(6),
                       bytes(tpa))


def write(name, seeds):
    d = OUT / name
    d.mkdir(parents=True, exist_ok=True)
    for key, data in seeds.items():
        (d / key).write_bytes(data)


PXE_OPTS = (bytes([1, 4, 255, 255, 255, 0, 3, 4, 10, 0, 2, 2, 6, 4, 10, 0, 2, 3,
                   51, 4, 0, 1, 81, 128, 54, 4, 10, 0, 2, 2]) +
            bytes([60, 9]) + b"PXEClient" + bytes([66, 8]) + b"10.0.2.2" +
            bytes([67, 9]) + b"hello.efi")
write("dhcp", {
    "offer": dhcp(2, PXE_OPTS),
    "ack": dhcp(5, PXE_OPTS),
    "nak": dhcp(6, bytes([54, 4, 10, 0, 2, 2])),
    "file-field": dhcp(2, bytes([54, 4, 10, 0, 2, 2]), file=b"pxe/grubx64.efi"),
    "overload-3": dhcp(5, bytes([54, 4, 10, 0, 2, 2, 52, 1, 3]),
                       file=bytes([67, 5]) + b"a.efi\xff", sname=bytes([66, 7]) + b"1.2.3.4\xff"),
    "http": dhcp(2, bytes([54, 4, 10, 0, 2, 2, 60, 10]) + b"HTTPClient" +
                 bytes([67, 24]) + b"http://10.0.2.2/boot.efi"),
    "past-end": dhcp(2, bytes([67, 200]) + b"x"),
})
OACK = struct.pack(">H", 6) + b"blksize\x0016\x00tsize\x0040\x00"
write("tftp", {
    "oack-data": rec(OACK) + rec(tftp_data(1, 16)) + rec(tftp_data(2, 16)) +
    rec(tftp_data(2, 16)) + rec(tftp_data(3, 8)),
    "plain": rec(tftp_data(1, 512)) + b"\x80\x00" + rec(tftp_data(2, 100)),
    "error": rec(struct.pack(">HH", 5, 1) + b"File not found\x00"),
    "oack-twice": rec(struct.pack(">H", 6) + b"blksize\x00512\x00blksize\x001024\x00"),
    "timeouts": b"\x80\x00" * 5,
})
write("ipv4_udp", {
    "dhcp-offer": udp_frame(dhcp(2, PXE_OPTS)),
    "tftp-data": udp_frame(tftp_data(1, 32), 40000, 49152),
    "options": udp_frame(b"hi", ihl=6),
    "fragment": udp_frame(b"frag", frag=0x2000),
    "ttl0": udp_frame(b"x", ttl=0),
})
write("arp", {
    "request": arp(1, [10, 0, 2, 2], [10, 0, 2, 15]),
    "reply": arp(2, [10, 0, 2, 2], [10, 0, 2, 15]),
    "padded-pair": arp(2, [10, 0, 2, 3], [10, 0, 2, 15]) + arp(1, [10, 0, 2, 3], [10, 0, 2, 15]),
    "multicast-sender": arp(1, [10, 0, 2, 9], [10, 0, 2, 15], sha=bytes.fromhex("01005e000001")),
})


ETH_ARP = MAC + bytes.fromhex("52550a000202") + b"\x08\x06"


def rec_k(kind, payload):
    return bytes([kind]) + struct.pack(">H", len(payload)) + payload


# fuzz_pxe: records of a kind byte, a length and a payload (tests/fuzz/fuzz_pxe.c).
write("pxe", {
    "boot": rec_k(1, dhcp(2, PXE_OPTS)) + rec_k(1, dhcp(5, PXE_OPTS)) +
    rec_k(0, ETH_ARP + arp(2, [10, 0, 2, 2], [10, 0, 2, 15])) + rec_k(2, OACK) +
    rec_k(2, tftp_data(1, 16)) + rec_k(2, tftp_data(2, 16)) + rec_k(2, tftp_data(3, 8)),
    "plain-tftp": rec_k(1, dhcp(2, PXE_OPTS)) + rec_k(1, dhcp(5, PXE_OPTS)) +
    rec_k(0, ETH_ARP + arp(2, [10, 0, 2, 2], [10, 0, 2, 15])) + rec_k(2, tftp_data(1, 100)),
    "proxy": rec_k(1, dhcp(2, bytes([54, 4, 10, 0, 2, 2]))) +
    rec_k(1, dhcp(2, bytes([54, 4, 10, 0, 2, 2, 60, 9]) + b"PXEClient" + bytes([67, 5]) + b"a.efi",
                  yiaddr="0.0.0.0")) +
    rec_k(1, dhcp(5, bytes([54, 4, 10, 0, 2, 2]))),
    "nak": rec_k(1, dhcp(2, PXE_OPTS)) + rec_k(1, dhcp(6, bytes([54, 4, 10, 0, 2, 2]))),
})


def icmp_frame(icmp_type, data=b"abcdefgh", code=0, good_sum=True, dst=(10, 0, 2, 15)):
    msg = struct.pack(">BBHHH", icmp_type, code, 0, 0x454D, 1) + data
    msg = msg[:2] + struct.pack(">H", checksum(msg) ^ (0 if good_sum else 1)) + msg[4:]
    src = bytes([10, 0, 2, 2])
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(msg), 1, 0x4000, 64, 1, 0, src,
                     bytes(dst))
    ip = ip[:10] + struct.pack(">H", checksum(ip)) + ip[12:]
    return MAC + bytes.fromhex("52550a000202") + b"\x08\x00" + ip + msg


# fuzz_icmp: frames carrying ICMP echo (net/icmp.c).
write("icmp", {
    "request": icmp_frame(8),
    "reply": icmp_frame(0, bytes(range(32))),
    "empty": icmp_frame(8, b""),
    "odd-length": icmp_frame(0, b"abc"),
    "bad-sum": icmp_frame(8, good_sum=False),
    "code": icmp_frame(8, code=1),
    "unreachable": icmp_frame(3, bytes(28)),
})
# fuzz_pxe: an echo request to the bound address, answered on the way through the boot.
write("pxe", {
    "ping-during-boot": rec_k(1, dhcp(2, PXE_OPTS)) + rec_k(1, dhcp(5, PXE_OPTS)) +
    rec_k(0, ETH_ARP + arp(2, [10, 0, 2, 2], [10, 0, 2, 15])) + rec_k(0, icmp_frame(8)) +
    rec_k(2, tftp_data(1, 16)),
})
