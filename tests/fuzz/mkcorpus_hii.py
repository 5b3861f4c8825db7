#!/usr/bin/python3
"""Writes the seed corpus of fuzz_hii_packages (tests/fuzz/corpus/hii_packages): HII
package lists (UEFI 2.10, 33.3) of every package type, and bare string blocks."""
import os
import struct
import sys

GUID = bytes(range(16))


def package(ptype, body):
    return struct.pack("<I", (len(body) + 4) | ptype << 24) + body


def ucs2(text):
    return b"\x14" + text.encode("utf-16-le") + b"\0\0"


def string_package(language, blocks):
    hdr = 46 + len(language) + 1
    fixed = struct.pack("<II", hdr, hdr) + b"\0" * 32 + b"\0\0"
    return package(0x04, fixed + language.encode() + b"\0" + blocks)


def package_list(*packages):
    body = b"".join(packages) + package(0xDF, b"")
    return GUID + struct.pack("<I", 20 + len(body)) + body


def blocks_all_kinds():
    return (ucs2("one") + b"\x22\x02" + b"\x11\x01four\0" + b"\x20\x01\x00"
            + b"\x30\x77\x05\x00\x00" + b"\x16\x02\x00" + "six".encode("utf-16-le")
            + b"\0\0s\0\0\0" + b"\x13\x00\x01\x00scsu\0" + b"\x21\x03\x00"
            + b"\x31\x40\x0d\x00\x01\x10\x00\x00\x00\x00\x00A\0\0\0"
            + b"\x32\x99\x07\x00\x00\x00\x00" + ucs2("last") + b"\x00")


def seeds():
    keyboard = struct.pack("<H", 1) + struct.pack("<H", 23 + 16) + GUID + struct.pack(
        "<IB", 0, 1) + bytes(16)
    devpath = b"\x7f\xff\x04\x00"
    yield "strings", package_list(string_package("en-US", blocks_all_kinds()))
    yield "two-languages", package_list(
        string_package("en-US;x-alt", ucs2("hello") + b"\0"),
        string_package("fr-FR", ucs2("bonjour") + b"\0"))
    yield "every-type", package_list(
        package(0x01, GUID + b"data"), package(0x02, b"\x0e\x02\x29\x02"),
        string_package("en", ucs2("x") + b"\0"),
        package(0x05, struct.pack("<II", 26, 26) + bytes(18)),
        package(0x06, struct.pack("<II", 0, 0)),
        package(0x07, struct.pack("<HH", 1, 0) + bytes(19)), package(0x08, devpath),
        package(0x09, keyboard), package(0x0A, struct.pack("<I", 0)), package(0xE3, b"sys"))
    yield "blocks", blocks_all_kinds()
    yield "empty-list", package_list()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "corpus", "hii_packages")
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
