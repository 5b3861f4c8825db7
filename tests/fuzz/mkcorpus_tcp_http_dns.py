#!/usr/bin/python3
"""Writes the seed corpora of fuzz_tcp, fuzz_http and fuzz_dns (tests/fuzz/corpus/{tcp,http,
dns}): a SYN-ACK then data in and out of order for TCP, responses with Content-Length and
chunked bodies for HTTP, replies with A and CNAME records for DNS."""
import os
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(kind, name, data):
    os.makedirs(os.path.join(ROOT, kind), exist_ok=True)
    with open(os.path.join(ROOT, kind, name), "wb") as f:
        f.write(data)


def tcp_record(kind, seq=0, ack=0, flags=0x10, window=8192, length=0, mss=False, payload=b""):
    r = bytes([kind]) + struct.pack(">IIBHH", seq, ack, flags, window, length)
    r += bytes([1 if mss else 0, 0])
    return r + payload


def tcp():
    head = b"\x00\x00"
    synack = tcp_record(3, 0, 1, 0x12, 65535, 1460, True)
    data = [tcp_record(3, 1 + 100 * i, 1, 0x10, 8192, 100, False, bytes([i]) * 100)
            for i in range(6)]
    write("tcp", "in-order", head + synack + b"".join(data))
    write("tcp", "out-of-order", head + synack + data[2] + data[4] + data[0] + data[1]
          + data[3])
    write("tcp", "fin-rst", head + synack + data[0]
          + tcp_record(3, 101, 1, 0x11) + tcp_record(0, 0x10) + tcp_record(3, 102, 1, 0x04))
    write("tcp", "timeouts", head + tcp_record(2, 0x03e8) * 12)
    write("tcp", "write-close", head + synack + tcp_record(1) + tcp_record(2, 0xc1000000)
          + tcp_record(3, 1, 16, 0x10))


def http():
    write("http", "length", b"http://10.0.2.2:8080/a.efi\nHTTP/1.1 200 OK\r\n"
          b"Content-Length: 5\r\nContent-Type: application/efi\r\n\r\nhello")
    write("http", "chunked", b"http://boot.example/x\nHTTP/1.1 200 OK\r\n"
          b"Transfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: v\r\n\r\n")
    write("http", "redirect", b"http://h/\nHTTP/1.0 302 Found\r\nLocation: http://h/y\r\n\r\n")


def dns_name(name):
    return b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"


def dns():
    q = struct.pack(">HHHHHH", 0x4242, 0x8180, 1, 2, 0, 0) + dns_name("boot.example")
    q += struct.pack(">HH", 1, 1)
    cname = struct.pack(">HHHIH", 0xc00c, 5, 1, 60, 4) + b"\x01w\xc0\x11"
    a = struct.pack(">HHHIH", 0xc000 | (len(q) + 12), 1, 1, 60, 4) + bytes([10, 0, 2, 2])
    write("dns", "cname-a", q + cname + a)
    q1 = bytearray(q)
    q1[7] = 1
    write("dns", "a", bytes(q1) + struct.pack(">HHHIH", 0xc00c, 1, 1, 60, 4) + b"\x0a\0\2\2")
    write("dns", "nxdomain", struct.pack(">HHHHHH", 0x4242, 0x8183, 1, 0, 0, 0)
          + dns_name("boot.example") + struct.pack(">HH", 1, 1))


if __name__ == "__main__":
    tcp()
    http()
    dns()
