#!/usr/bin/python3
"""Writes the hand-made seeds of fuzz_option_rom: small ROMs shaped like QEMU's iPXE ROMs
(a legacy image, then an EFI driver), and broken variants. Run from the repository root."""
import os
import struct
import subprocess
import tempfile

OUT = "tests/fuzz/corpus/option_rom"


def image(units, code_type, last, efi_offset=0x38, compression=0):
    img = bytearray(units * 512)
    img[0:2] = b"\x55\xaa"
    struct.pack_into("<H", img, 0x18, 0x1C)
    struct.pack_into("<4sHHHHBBHBB", img, 0x1C, b"PCIR", 0x1AF4, 0x1000, 0, 0x18, 0,
                     0, units & 0xFF, 0, 0)
    struct.pack_into("<HBB", img, 0x1C + 0x10, units, code_type, 0x80 if last else 0)
    if code_type == 3:
        struct.pack_into("<HIHHH", img, 2, units, 0x0EF1, 11, 0x8664, compression)
        struct.pack_into("<H", img, 0x16, efi_offset)
    return bytes(img)


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {
        "legacy_then_efi": image(1, 0, False) + image(2, 3, True),
        "efi_only": image(2, 3, True),
        "compressed": image(2, 3, True, compression=1),
        "no_last": image(1, 0, False) + image(1, 0, False),
        "truncated": (image(1, 0, False) + image(2, 3, True))[:900],
    }
    # An EFI image whose payload is a real UEFI-compressed stream (build/ember-compress).
    if os.path.exists("build/ember-compress"):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "in"), "wb") as f:
                f.write(b"MZ option ROM driver " * 40)
            subprocess.run(["build/ember-compress", os.path.join(tmp, "in"),
                            os.path.join(tmp, "out")], check=True)
            with open(os.path.join(tmp, "out"), "rb") as f:
                stream = f.read()
        img = bytearray(image(2, 3, True, compression=1))
        img[0x38:0x38 + len(stream)] = stream
        seeds["compressed_stream"] = bytes(img)
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
