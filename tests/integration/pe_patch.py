"""Small PE/COFF surgery for tests: read a few header fields and rewrite them."""
import struct


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
