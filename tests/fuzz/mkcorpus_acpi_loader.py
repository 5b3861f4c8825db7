#!/usr/bin/python3
"""Writes seed inputs for fuzz_acpi_loader into tests/fuzz/corpus/acpi_loader/: a QEMU-like
table-loader script (RSDP, RSDT, FADT, DSDT, FACS, linked with ADD_POINTER/ADD_CHECKSUM),
one with a WRITE_POINTER, and one with a bad pointer. Input layout: see the harness."""
import struct
import sys
from pathlib import Path


def name(s):
    return s.encode().ljust(56, b"\0")


def allocate(f, align, zone=1):
    return struct.pack("<I", 1) + name(f) + struct.pack("<IB", align, zone)


def add_pointer(dst, src, off, size):
    return struct.pack("<I", 2) + name(dst) + name(src) + struct.pack("<IB", off, size)


def add_checksum(f, result, start, length):
    return struct.pack("<I", 3) + name(f) + struct.pack("<III", result, start, length)


def write_pointer(dst, src, dst_off, src_off, size):
    return struct.pack("<I", 4) + name(dst) + name(src) + struct.pack("<IIB", dst_off, src_off,
                                                                        size)


def entry(cmd):
    return cmd.ljust(128, b"\0")


def header(sig, length, rev=1):
    return sig + struct.pack("<IBB6s8sIII", length, rev, 0, b"BOCHS ", b"BXPC    ", 1,
                             0x43505842, 1)


def tables():
    facs = b"FACS" + struct.pack("<I", 64) + bytes(56)
    dsdt = header(b"DSDT", 40) + b"\x10\x05\x5c\x00"
    fadt_off = len(facs) + len(dsdt)
    fadt = bytearray(header(b"FACP", 116) + bytes(80))
    struct.pack_into("<II", fadt, 36, 0, len(facs))  # FIRMWARE_CTRL, DSDT: offsets
    struct.pack_into("<I", fadt, 64, 0x604)
    rsdt_off = fadt_off + len(fadt)
    rsdt = header(b"RSDT", 40) + struct.pack("<I", fadt_off)
    blob = facs + dsdt + bytes(fadt) + rsdt
    script = [allocate("etc/acpi/rsdp", 16, 2), allocate("etc/acpi/tables", 64),
              add_pointer("etc/acpi/tables", "etc/acpi/tables", fadt_off + 36, 4),
              add_pointer("etc/acpi/tables", "etc/acpi/tables", fadt_off + 40, 4),
              add_checksum("etc/acpi/tables", len(facs) + 9, len(facs), len(dsdt)),
              add_checksum("etc/acpi/tables", fadt_off + 9, fadt_off, len(fadt)),
              add_pointer("etc/acpi/tables", "etc/acpi/tables", rsdt_off + 36, 4),
              add_checksum("etc/acpi/tables", rsdt_off + 9, rsdt_off, len(rsdt)),
              add_pointer("etc/acpi/rsdp", "etc/acpi/tables", 16, 4),
              add_checksum("etc/acpi/rsdp", 8, 0, 20)]
    rsdp = b"RSD PTR " + b"\0" + b"BOCHS " + b"\0" + struct.pack("<I", rsdt_off)
    return script, [rsdp, blob]


def pack(script, blobs):
    s = b"".join(entry(c) for c in script)
    out = struct.pack("<H", len(s)) + s
    for b in blobs:
        out += struct.pack("<H", len(b)) + b
    return out


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/fuzz/corpus/acpi_loader")
    out.mkdir(parents=True, exist_ok=True)
    script, blobs = tables()
    (out / "qemu_like").write_bytes(pack(script, blobs))
    wp = script + [allocate("etc/vmgenid_guid", 4096),
                   write_pointer("etc/vmgenid_addr", "etc/vmgenid_guid", 0, 40, 8)]
    (out / "write_pointer").write_bytes(pack(wp, blobs + [bytes(4096)]))
    bad = script[:2] + [add_pointer("etc/acpi/rsdp", "etc/acpi/tables", 18, 4)]
    (out / "bad_pointer").write_bytes(pack(bad, blobs))


if __name__ == "__main__":
    main()
