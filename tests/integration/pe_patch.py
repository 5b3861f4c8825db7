"""PE/COFF images for tests: small EFI applications built with clang and lld, and surgery
on a few header fields (read them, rewrite them)."""
import struct
import subprocess

RELOCATED_SOURCE = ("static const char *table[] = {\"a\", \"b\"};\n"
                    "const char **volatile keep = table;\n"
                    "unsigned long long efi_main(void *image, void *st)"
                    " { return keep[1][0] == 'b' ? 0 : 1; }\n")


def clang_efi(tmp_path, name, source, target="x86_64-unknown-windows"):
    """Builds the C source (efi_main is its entry) into tmp_path/name.efi for target."""
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    out = tmp_path / f"{name}.efi"
    subprocess.run(["clang", f"--target={target}", "-ffreestanding", "-nostdlib",
                    "-fuse-ld=lld", "-Wl,-entry:efi_main", "-Wl,-subsystem:efi_application",
                    "-o", str(out), str(src)], check=True)
    return out


def relocated_app(tmp_path):
    """An x64 EFI application whose pointer table needs DIR64 base relocations: linked for
    0x140000000 and loaded elsewhere, it returns 0 only if they were applied."""
    return clang_efi(tmp_path, "reloc", RELOCATED_SOURCE)


class PeFile:
    def __init__(self, data):
        self.data = bytearray(data)
        self.pe = struct.unpack_from("<I", self.data, 0x3C)[0]
        assert self.data[self.pe:self.pe + 4] == b"PE\0\0"
        self.coff = self.pe + 4
        self.opt = self.coff + 20
        self.nsections = struct.unpack_from("<H", self.data, self.coff + 2)[0]
        opt_size = struct.unpack_from("<H", self.data, self.coff + 16)[0]
        self.sections = self.opt + opt_size

    def set_machine(self, machine):
        struct.pack_into("<H", self.data, self.coff, machine)

    @property
    def size_of_image(self):
        return struct.unpack_from("<I", self.data, self.opt + 56)[0]

    def data_directory(self, index):
        return struct.unpack_from("<II", self.data, self.opt + 112 + 8 * index)

    def rva_to_offset(self, rva):
        for i in range(self.nsections):
            s = self.sections + 40 * i
            vsize, va, rawsize, rawptr = struct.unpack_from("<IIII", self.data, s + 8)
            if va <= rva < va + max(vsize, rawsize):
                return rawptr + rva - va
        raise ValueError(f"rva {rva:#x} is in no section")

    def first_relocation_block(self):
        rva, size = self.data_directory(5)
        assert size >= 8, "image has no relocations"
        return self.rva_to_offset(rva)

    def move_relocations_outside(self):
        """Moves the first relocation block's page beyond SizeOfImage: its DIR64 targets
        now lie outside the image."""
        struct.pack_into("<I", self.data, self.first_relocation_block(),
                         (self.size_of_image + 0x100000) & ~0xFFF)
