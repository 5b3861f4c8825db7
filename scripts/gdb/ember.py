"""gdb support for Ember: symbols of EFI programs at the addresses where Ember loaded them.

Under ember-run (ember-run --gdb, which sources this file): a breakpoint on the core's
image_debug_loaded_hook hears of every image load, finds the image's symbol file in the
directories given with `ember-symbol-dir` (for a gnu-efi program NAME.efi the NAME.so that
was linked before objcopy; else NAME.debug, or the PE file itself when it carries DWARF) and
adds it with add-symbol-file at the image's section addresses. So `break efi_main` before
`run` stops in the program with its source lines. `ember-break-at-entry` also stops at the
entry point of each program loaded.

Attached to a QEMU guest stopped in the firmware (qemu -s -S; gdb -x scripts/gdb/ember.py
-ex 'target remote :1234'): `ember-load-images` walks EFI_DEBUG_IMAGE_INFO_TABLE, found
through the system table pointer that EFI_SYSTEM_TABLE_POINTER gives or the symbol
core_st of build/qemu-x86_64/ember-core.elf when that file is loaded, and adds the
symbols of every loaded image that has a symbol file in the `ember-symbol-dir`s.
"""

import os
import struct

import gdb

symbol_dirs = []
break_at_entry = False
loaded = {}  # image base -> symbol file added there
entries_broken = set()  # entry points with a breakpoint (the hook may run twice per load)

SHF_ALLOC = 0x2


def elf_sections(data):
    """(name, address) of the allocated sections of a 64-bit little-endian ELF file."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for i in range(shnum):
        off = shoff + i * shentsize
        name, _type, flags, addr, offset, size = struct.unpack_from("<IIQQQQ", data, off)
        headers.append((name, flags, addr, offset, size))
    strtab_offset = headers[shstrndx][3]
    result = []
    for name, flags, addr, _offset, _size in headers:
        if not flags & SHF_ALLOC:
            continue
        start = strtab_offset + name
        result.append((data[start:data.index(b"\0", start)].decode(), addr))
    return result


def pe_sections(data):
    """(name, address at the file's ImageBase) of the sections of a PE32+ file."""
    pe, = struct.unpack_from("<I", data, 0x3C)
    count, = struct.unpack_from("<H", data, pe + 6)
    optional_size, = struct.unpack_from("<H", data, pe + 20)
    image_base, = struct.unpack_from("<Q", data, pe + 24 + 24)
    table = pe + 24 + optional_size
    result = []
    for i in range(count):
        raw_name, _vsize, rva = struct.unpack_from("<8sII", data, table + 40 * i)
        name = raw_name.rstrip(b"\0").decode(errors="replace")
        if not name.startswith("/"):  # long names are those of the debug sections
            result.append((name, image_base + rva))
    return image_base, result


def has_dwarf_pe(data):
    # lld keeps the long names of the debug sections in the COFF string table.
    return b".debug_info" in data


def find_symbol_file(name):
    """The file with the symbols of the image called name (a file name such as hello.efi)."""
    stem = os.path.splitext(name)[0]
    for directory in symbol_dirs:
        for candidate in (stem + ".so", stem + ".debug", name):
            for variant in (candidate, candidate.lower()):
                path = os.path.join(directory, variant)
                if os.path.isfile(path):
                    return path
    return None


def add_symbol_command(path, base):
    """The add-symbol-file command that places path's sections for an image at base."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"\x7fELF":
        # gnu-efi links at 0 and objcopy keeps the addresses: section address = RVA.
        sections = [(n, base + a) for n, a in elf_sections(data)]
    elif data[:2] == b"MZ":
        if not has_dwarf_pe(data):
            return None
        image_base, pe = pe_sections(data)
        sections = [(n, base + a - image_base) for n, a in pe]
    else:
        return None
    text = [a for n, a in sections if n == ".text"]
    if not text:
        return None
    command = "add-symbol-file %s 0x%x" % (path, text[0])
    for n, a in sections:
        if n != ".text":
            command += " -s %s 0x%x" % (n, a)
    return command


def image_loaded(name, base, entry):
    path = find_symbol_file(name)
    command = add_symbol_command(path, base) if path else None
    if command:
        if base in loaded:
            remove_symbols(base)
        gdb.execute(command, to_string=True)
        loaded[base] = path
        print("ember: %s at 0x%x: symbols from %s" % (name, base, path))
    elif not name.startswith("image@"):  # unnamed yet: ember-run names it next
        print("ember: %s at 0x%x (no symbols found)" % (name, base))
    if break_at_entry and entry and entry not in entries_broken:
        entries_broken.add(entry)
        gdb.execute("tbreak *0x%x" % entry)


def remove_symbols(base):
    try:
        gdb.execute("remove-symbol-file -a 0x%x" % base, to_string=True)
    except gdb.error:
        pass  # already gone (symbol-file without arguments drops every file)


def image_unloaded(base):
    entries_broken.clear()
    if loaded.pop(base, None):
        remove_symbols(base)


def ember_on_load_hook():
    """At the first instruction of image_debug_loaded_hook (System V ABI arguments)."""
    name = gdb.parse_and_eval("(char *)$rdi").string()
    base = int(gdb.parse_and_eval("$rsi")) & (2**64 - 1)
    entry = int(gdb.parse_and_eval("$rcx")) & (2**64 - 1)
    image_loaded(name, base, entry)


def ember_on_unload_hook():
    image_unloaded(int(gdb.parse_and_eval("$rsi")) & (2**64 - 1))


class SymbolDir(gdb.Command):
    """ember-symbol-dir DIR: look for EFI programs' symbol files in DIR."""

    def __init__(self):
        super().__init__("ember-symbol-dir", gdb.COMMAND_FILES, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        directory = os.path.abspath(os.path.expanduser(arg.strip()))
        if directory not in symbol_dirs:
            symbol_dirs.append(directory)


class BreakAtEntry(gdb.Command):
    """ember-break-at-entry: stop at the entry point of each EFI program loaded."""

    def __init__(self):
        super().__init__("ember-break-at-entry", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        global break_at_entry
        break_at_entry = True


class HostedHooks(gdb.Command):
    """ember-hosted: break on ember-run's image load and unload hooks (ember-run --gdb)."""

    def __init__(self):
        super().__init__("ember-hosted", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        for function, action in (("image_debug_loaded_hook", "ember_on_load_hook"),
                                 ("image_debug_unloaded_hook", "ember_on_unload_hook")):
            bp = gdb.Breakpoint("*" + function, internal=True)
            bp.silent = True
            bp.commands = "python %s()\ncontinue" % action


# ---- A QEMU guest stopped in the firmware ----

EFI_SYSTEM_TABLE_SIGNATURE = 0x5453595320494249  # "IBI SYST"
DEBUG_IMAGE_INFO_TABLE_GUID = (0x49152E77, 0x1ADA, 0x4764,
                               bytes([0xB7, 0xA2, 0x7A, 0xFE, 0xFE, 0xD9, 0x5E, 0x8B]))
ALIGN_4M = 4 << 20


def read(address, size):
    return bytes(gdb.selected_inferior().read_memory(address, size))


def u64(address):
    return struct.unpack("<Q", read(address, 8))[0]


def find_system_table(limit):
    """The system table: from the core's symbol core_st, else EFI_SYSTEM_TABLE_POINTER."""
    try:
        return int(gdb.parse_and_eval("(unsigned long)core_st"))
    except gdb.error:
        pass
    for address in range(limit - ALIGN_4M, 0, -ALIGN_4M):
        try:
            if u64(address) == EFI_SYSTEM_TABLE_SIGNATURE:
                return u64(address + 8)
        except gdb.MemoryError:
            continue
    return None


def debug_image_table(system_table):
    """The EFI_DEBUG_IMAGE_INFO_TABLE_HEADER's address, from the configuration tables."""
    count = u64(system_table + 104)
    tables = u64(system_table + 112)
    want = struct.pack("<IHH8s", *DEBUG_IMAGE_INFO_TABLE_GUID)
    for i in range(count):
        entry = tables + 24 * i
        if read(entry, 16) == want:
            return u64(entry + 16)
    return None


class LoadImages(gdb.Command):
    """ember-load-images [RAM-TOP]: symbols of every image in EFI_DEBUG_IMAGE_INFO_TABLE."""

    def __init__(self):
        super().__init__("ember-load-images", gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        limit = int(arg, 0) if arg.strip() else 4 << 30
        system_table = find_system_table(limit)
        if not system_table:
            raise gdb.GdbError("ember: no EFI system table found")
        header = debug_image_table(system_table)
        if not header:
            raise gdb.GdbError("ember: no EFI_DEBUG_IMAGE_INFO_TABLE (no image loaded yet?)")
        status, size = struct.unpack("<II", read(header, 8))
        if status & 1:
            print("ember: the table is being updated; step on and try again")
            return
        array = u64(header + 8)
        print("ember: %d images in EFI_DEBUG_IMAGE_INFO_TABLE at 0x%x (system table 0x%x)"
              % (size, header, system_table))
        for i in range(size):
            normal = u64(array + 8 * i)
            if not normal:
                continue
            loaded_image = u64(normal + 8)
            base = u64(loaded_image + 64)  # EFI_LOADED_IMAGE_PROTOCOL.ImageBase
            file_path = u64(loaded_image + 32)
            name = device_path_file_name(file_path)
            if name:
                image_loaded(name, base, None)
            else:
                print("ember: image at 0x%x has no file name" % base)


def device_path_file_name(path):
    """The last component of the last File Path node (type 4, subtype 4) of a device path."""
    name = None
    for _ in range(64):
        if not path:
            break
        kind, subtype, length = struct.unpack("<BBH", read(path, 4))
        if kind == 0x7F or length < 4:
            break
        if kind == 4 and subtype == 4:
            text = read(path + 4, length - 4).decode("utf-16-le").rstrip("\0")
            name = text.replace("\\", "/").rsplit("/", 1)[-1]
        path += length
    return name


SymbolDir()
BreakAtEntry()
HostedHooks()
LoadImages()
