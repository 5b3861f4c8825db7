"""The shell's system commands (issue 7) under ember-run: dh, devices, drivers, connect,
disconnect, reconnect and load with a third-party bus driver (tests/programs/test_driver.c),
memmap, dmpstore, setvar and variables kept in a --vars file, bcfg on Boot####/BootOrder
with the exact bytes of the options it writes, date and time, dmem, pci, smbiosview and
acpiview where ember-run has no such hardware, and help for each.

A Shell object drives one interactive shell.efi through a pipe, command by command, so
that a test can read a handle number from one command's output and use it in the next."""
import re
import shutil
import struct
import subprocess
import sys
import threading
import time

import pytest

from conftest import EMBER_RUN, PROGRAMS, ROOT, app

sys.path.insert(0, str(ROOT / "tests" / "qemu"))
from disk_images import gpt_esp_disk  # noqa: E402

GLOBAL = "8BE4DF61-93CA-11D2-AA0D-00E098032B8C"
TEST_GUID = "7E57A11E-5A1E-4C6F-9A2B-3C4D5E6F7081"
BUS_GUID = "5E1F7B30-2C4A-4D5B-8A61-3F0E9D7214B0"
PROMPT = re.compile(rb"(?:\A|\n)[^\n]*> $")
INVALID_PARAMETER = "0x8000000000000002"
NOT_FOUND = "0x800000000000000e"


class Shell:
    """One shell.efi under ember-run, driven a command at a time."""

    def __init__(self, esp, *ember_options):
        self.proc = subprocess.Popen(
            [str(EMBER_RUN), *map(str, ember_options), "--esp", str(esp), str(app("shell")),
             "-nostartup", "-noversion", "-nomap"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out, self.err = bytearray(), bytearray()
        self.cond = threading.Condition()
        for stream, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, buf), daemon=True).start()
        self._wait_prompt(0)

    def _read(self, stream, buf):
        while True:
            chunk = stream.read1(65536)
            with self.cond:
                if chunk:
                    buf.extend(chunk)
                self.cond.notify_all()
            if not chunk:
                return

    def _wait_prompt(self, start, timeout=60):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not PROMPT.search(bytes(self.out[start:])):
                left = deadline - time.monotonic()
                assert left > 0 and self.proc.poll() is None, (
                    f"no prompt; output:\n{self.out[start:].decode(errors='replace')}\n"
                    f"stderr:\n{self.err.decode(errors='replace')}")
                self.cond.wait(min(left, 0.2))

    def run(self, command, timeout=60):
        """Runs one command line; returns its standard output (CR LF as LF)."""
        with self.cond:
            start, self.err_mark = len(self.out), len(self.err)
        self.proc.stdin.write(command.encode() + b"\n")
        self.proc.stdin.flush()
        self._wait_prompt(start, timeout)
        text = self.out[start:].decode("utf-8", "replace").replace("\r\n", "\n")
        text = text.split("\n", 1)[1] if "\n" in text else ""  # the echoed command
        return text[:text.rfind("\n") + 1]  # without the next prompt

    @property
    def errors(self):
        """Standard error written by the last command. It was written before the prompt
        came on standard output, but its reader may not have caught up yet."""
        deadline = time.monotonic() + 0.5
        with self.cond:
            while len(self.err) == self.err_mark and time.monotonic() < deadline:
                self.cond.wait(0.05)
        time.sleep(0.02)
        return self.err[self.err_mark:].decode("utf-8", "replace")

    def status(self):
        return self.run("echo %lasterror%").strip()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"exit\n")
                self.proc.stdin.flush()
                self.proc.wait(10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def shell(tmp_path):
    """Factory: shell(*ember_options) starts a shell on the ESP directory tmp_path/esp."""
    esp = tmp_path / "esp"
    esp.mkdir()
    started = []

    def start(*options):
        s = Shell(esp, *options)
        s.esp = esp
        started.append(s)
        return s
    yield start
    for s in started:
        s.close()


def install_driver(esp, name="tdrv.efi"):
    """The test bus driver, turned from an application into a boot-service driver."""
    data = bytearray((PROGRAMS / "test_driver.efi").read_bytes())
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    struct.pack_into("<H", data, pe + 24 + 68, 11)  # OptionalHeader.Subsystem
    (esp / name).write_bytes(data)


def handle_of(listing, pattern):
    """The handle number (int) of the listing line matching a regex."""
    m = re.search(r"^\s*([0-9A-F]+)[: ].*" + pattern, listing, re.M)
    assert m, f"no line matching {pattern!r} in:\n{listing}"
    return int(m.group(1), 16)


def hex_bytes(dump):
    """The bytes of dmpstore/sys_hexdump lines: '  00000000: 01 02-03 ... *..*'."""
    out = bytearray()
    for m in re.finditer(r"^\s*[0-9A-F]{8}: ((?:[0-9A-F]{2}[ -])+)", dump, re.M):
        out += bytes.fromhex(m.group(1).replace("-", " "))
    return bytes(out)


def ucs2z(text):
    return text.encode("utf-16-le") + b"\0\0"


def guid_bytes(text):
    import uuid
    return uuid.UUID(text).bytes_le


# ---- help ----

SYSTEM_COMMANDS = ["dh", "devices", "drivers", "connect", "disconnect", "reconnect", "load",
                   "memmap", "dmpstore", "setvar", "bcfg", "pci", "date", "time", "dmem",
                   "smbiosview", "acpiview"]


def test_every_system_command_has_help_with_examples(shell):
    s = shell()
    listing = s.run("help")
    for name in SYSTEM_COMMANDS:
        assert re.search(rf"^{name}\s+- \S", listing, re.M), f"{name} missing from help"
        text = s.run(f"help {name}")
        assert text.lower().startswith(name), text
        assert "Example" in text, f"help {name} has no example:\n{text}"


# ---- dh, devices, drivers, connect, disconnect, reconnect, load ----

def test_dh_lists_handles_protocols_and_details(shell):
    s = shell()
    dump = s.run("dh")
    assert dump.startswith("Handle dump\n")
    fs = handle_of(dump, r"SimpleFileSystem DevicePath\(VenHw\(982609F9")
    assert re.search(r"^\s*[0-9A-F]+: .*DriverBinding ComponentName2", dump, re.M)
    by_protocol = s.run("dh -p SimpleFileSystem")
    assert by_protocol.startswith("Handle dump by protocol 'SimpleFileSystem'\n")
    assert [handle_of(by_protocol, "SimpleFileSystem")] == [
        int(n, 16) for n in re.findall(r"^\s*([0-9A-F]+):", by_protocol, re.M)] == [fs]
    detail = s.run(f"dh {fs:X}")
    assert detail.startswith(f"Handle {fs:X} (")
    assert re.search(r"^   DevicePath\n     VenHw\(982609F9-3366-4777-ABC4-0CECE3AD9D72,0+\)$",
                     detail, re.M), detail
    assert "Open:" not in detail
    verbose = s.run(f"dh {fs:X} -v")
    assert re.search(r"^   SimpleFileSystem \([0-9A-F]{16}\)$", verbose, re.M), verbose
    # The shell itself opened its file system's protocols.
    assert re.search(r"^     Open: agent \[[0-9A-F]+\] controller \[\w+\] count \d+ \w+",
                     verbose, re.M), verbose
    image = handle_of(dump, r"LoadedImage LoadedImageDevicePath Shell")
    li = s.run(f"dh {image:X}")
    assert re.search(r"^     Image:       0x[0-9A-F]+, 0x[0-9A-F]+ bytes$", li, re.M), li
    assert re.search(r"^     Memory:      LoaderCode, LoaderData$", li, re.M), li


def test_dh_errors_are_words_and_statuses(shell):
    s = shell()
    assert s.run("dh zz") == ""
    assert "dh: 'zz' is not a handle number" in s.errors
    assert s.status() == INVALID_PARAMETER
    s.run("dh -p NoSuchProtocolAnywhere")
    assert "neither a protocol name nor a GUID" in s.errors
    assert s.status() == NOT_FOUND
    s.run("dh 1 2")
    assert "dh: give one handle number" in s.errors
    # A GUID nobody installed: a header and a sentence, not an error.
    out = s.run(f"dh -p {TEST_GUID}")
    assert out == f"Handle dump by protocol '{TEST_GUID}'\nNo handle carries this protocol.\n"


def device_line(devices, name):
    m = re.search(r"^\s*([0-9A-F]+) ([RBD]) ([X-]) ([X-]) +(\S+) +(\S+) +(\S+) (.*)$"
                  .replace("(.*)", re.escape(name)), devices, re.M)
    assert m, f"no device {name!r} in:\n{devices}"
    return int(m.group(1), 16), m.group(2), m.group(5), m.group(6), m.group(7)


def driver_line(drivers, name):
    m = re.search(r"^\s*([0-9A-F]+) ([0-9A-F]{8}) (\S) ([X-]) ([X-]) +(\S+) +(\S+) "
                  + re.escape(name) + r" +(.*)$", drivers, re.M)
    assert m, f"no driver {name!r} in:\n{drivers}"
    return int(m.group(1), 16), m.group(2), m.group(3), m.group(6), m.group(7), m.group(8)


def test_driver_model_commands_with_a_loaded_bus_driver(shell):
    s = shell()
    install_driver(s.esp)
    loaded = s.run("load -nc tdrv.efi")
    m = re.fullmatch(r"Image 'fs0:\\tdrv\.efi' loaded at [0-9A-F]+ - Success, handle "
                     r"\[([0-9A-F]+)\]\n", loaded)
    assert m, loaded
    drv = int(m.group(1), 16)
    drivers = s.run("drivers")
    assert drivers.startswith("             T   D\n")
    assert driver_line(drivers, "Ember Test Bus Driver") == (
        drv, "0000002A", "?", "-", "-", "\\tdrv.efi")
    assert driver_line(drivers, "FAT File System Driver")[5] == "(built in)"
    ctrl = handle_of(s.run(f"dh -p {BUS_GUID}"), re.escape(f"VenHw({BUS_GUID})"))
    devices = s.run("devices")
    assert device_line(devices, f"VenHw({BUS_GUID})") == (ctrl, "R", "-", "-", "-")

    assert s.run(f"connect {ctrl:X}") == f"Connect - Handle [{ctrl:X}] Result Success.\n"
    devices = s.run("devices")
    assert device_line(devices, "Test Bus Controller") == (ctrl, "R", "-", "1", "2")
    child0 = device_line(devices, "Test Child 0")
    child1 = device_line(devices, "Test Child 1")
    assert child0[1:] == child1[1:] == ("D", "1", "-", "-")
    assert driver_line(s.run("drivers"), "Ember Test Bus Driver")[2:5] == ("B", "1", "2")

    detail = s.run(f"dh {ctrl:X} -d")
    expected = (f"   Controller name    : Test Bus Controller\n"
                f"   Device path        : VenHw({BUS_GUID})\n"
                f"   Controller type    : ROOT\n"
                f"   Configuration      : NO\n"
                f"   Diagnostics        : NO\n"
                f"   Managed by         :\n"
                f"     Drv[{drv:X}] : Ember Test Bus Driver\n"
                f"   Parent controllers :\n"
                f"     none\n"
                f"   Child controllers  :\n"
                f"     Child[{child0[0]:X}] : Test Child 0\n"
                f"     Child[{child1[0]:X}] : Test Child 1\n")
    assert detail.endswith(expected), detail
    child = s.run(f"dh {child0[0]:X} -d")
    assert f"     Parent[{ctrl:X}] : Test Bus Controller\n" in child
    assert f"VenHw({BUS_GUID})/Ctrl(0x0)" in child
    as_driver = s.run(f"dh {drv:X} -d")
    assert "   Driver type        : BUS\n" in as_driver
    assert "   Driver version     : 0000002A\n" in as_driver
    assert f"     Ctrl[{ctrl:X}] : Test Bus Controller\n" in as_driver

    # One child goes, then the driver lets go of the controller, then it comes back.
    assert s.run(f"disconnect {ctrl:X} {drv:X} {child0[0]:X}") == (
        f"Disconnect - Handle [{ctrl:X}] Result Success.\n")
    devices = s.run("devices")
    assert "Test Child 0" not in devices
    assert device_line(devices, "Test Bus Controller")[1:] == ("R", "-", "1", "1")
    s.run(f"disconnect {ctrl:X}")
    devices = s.run("devices")
    assert "Test Child" not in devices
    assert device_line(devices, f"VenHw({BUS_GUID})")[4] == "-"
    assert s.run(f"reconnect {ctrl:X}") == (f"Disconnect - Handle [{ctrl:X}] Result Success.\n"
                                           f"Connect - Handle [{ctrl:X}] Result Success.\n")
    assert device_line(s.run("devices"), "Test Bus Controller")[4] == "2"
    s.run(f"disconnect {ctrl:X}")
    assert re.fullmatch(r"Connect - [1-9]\d* controllers gained drivers\.\n", s.run("connect"))
    assert device_line(s.run("devices"), "Test Bus Controller")[4] == "2"
    assert re.fullmatch(r"Disconnect - \d+ controllers released their drivers\.\n",
                        s.run("disconnect -r"))
    assert device_line(s.run("devices"), "Test Bus Controller")[4] == "2"
    # Connecting a driver handle to itself finds nothing to do.
    s.run(f"connect {drv:X}")
    assert s.status() == NOT_FOUND


def managed_devices(devices):
    """Handles of the devices listing's lines that have a managing driver (#D not '-')."""
    return [int(m.group(1), 16) for m in
            re.finditer(r"^\s*([0-9A-F]+) [RBD] [X-] [X-] +\S+ +(\S+) ", devices, re.M)
            if m.group(2) != "-"]


def test_connect_and_disconnect_count_the_controllers_that_changed(shell, tmp_path):
    """connect -r counts every controller that gained a driver, children created on the way
    included (it used to count the handles whose own ConnectController started something,
    so a disk reconnected with its partition was 1); disconnect -r counts those that lost
    one (it used to count every handle DisconnectController accepted, managed or not)."""
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    s = shell("--disk", disk)
    s.run("connect -r")  # whatever the start left unconnected
    devices = s.run("devices")
    whole = device_line(devices, "VenHw(060EEBC7-D6AD-4E41-A68C-ACB54B135D80,00000000)")[0]
    assert re.search(r"^\s*[0-9A-F]+ D .*/HD\(1,GPT,", devices, re.M), devices
    assert s.run(f"disconnect {whole:X}") == f"Disconnect - Handle [{whole:X}] Result Success.\n"
    assert "/HD(1,GPT," not in s.run("devices")
    # The disk gains DiskIo and the partition driver, its new partition DiskIo and FAT.
    assert s.run("connect -r") == "Connect - 2 controllers gained drivers.\n"
    assert "fs1:" in s.run("map -r")
    assert s.run("connect -r") == "Connect - 0 controllers gained drivers.\n"
    managed = managed_devices(s.run("devices"))
    assert whole in managed and len(managed) >= 3, managed
    assert s.run("disconnect -r") == (
        f"Disconnect - {len(managed)} controllers released their drivers.\n")
    assert s.run("reconnect -r") == f"Reconnect - {len(managed)} controllers gained drivers.\n"


def test_load_connects_the_new_driver_unless_nc(shell):
    s = shell()
    install_driver(s.esp, "d1.efi")
    assert re.fullmatch(r"Image 'fs0:\\d1\.efi' loaded at [0-9A-F]+ - Success, handle "
                        r"\[[0-9A-F]+\]\n", s.run("load d1.efi"))
    devices = s.run("devices")
    assert device_line(devices, "Test Bus Controller")[4] == "2"
    assert "Test Child 1" in devices
    s.run("load nothere.efi")
    assert "load: nothere.efi: no such file" in s.errors
    assert s.status() == NOT_FOUND
    # An application is started too: it runs, returns and is unloaded.
    shutil.copy(PROGRAMS / "hello.efi", s.esp / "hello.efi")
    assert re.fullmatch(r"Hello World!\nImage 'fs0:\\hello\.efi' loaded at [0-9A-F]+ - "
                        r"Success; an application: it ran and was unloaded\n",
                        s.run("load -nc hello.efi"))


# ---- memmap ----

MEMMAP_LINE = re.compile(r"^(\S+) +([0-9A-F]{16})-([0-9A-F]{16}) ([0-9A-F]{16}) ([0-9A-F]{16})$",
                         re.M)
SUMMARY = re.compile(r"^  (\S+) *: +([\d,]+) Pages \(([\d,]+) Bytes\)$", re.M)


def test_memmap_lines_and_totals_agree(shell):
    s = shell()
    out = s.run("memmap")
    assert out.startswith("Type       Start            End              # Pages          "
                          "Attributes\n")
    pages, last_end = {}, -1
    for typ, start, end, n, attr in MEMMAP_LINE.findall(out):
        start, end, n = int(start, 16), int(end, 16), int(n, 16)
        assert end - start + 1 == n * 4096
        assert start > last_end, "ranges overlap or are unsorted"
        last_end = end
        pages[typ] = pages.get(typ, 0) + n
    assert pages.get("Available", 0) > 1000 and pages.get("LoaderCode", 0) > 0
    summary = {t: (int(p.replace(",", "")), int(b.replace(",", "")))
               for t, p, b in SUMMARY.findall(out)}
    assert len(summary) == 16
    for typ, (p, b) in summary.items():
        assert p == pages.get(typ, 0) and b == p * 4096, typ
    counted = sum(p for t, (p, _) in summary.items()
                  if t not in ("Reserved", "Unusable", "MMIO", "MMIO_Port"))
    total = re.search(r"^Total Memory: +([\d,]+) MB \(([\d,]+) Bytes\)$", out, re.M)
    assert total and int(total.group(2).replace(",", "")) == counted * 4096
    assert int(total.group(1).replace(",", "")) == counted * 4096 >> 20
    sfo = s.run("memmap -sfo")
    assert sfo.startswith('ShellCommand,"memmap"\n')
    assert len(re.findall(r'^MemoryMap,"\w+","[0-9A-F]+","[0-9A-F]+","[0-9A-F]+","[0-9A-F]+"$',
                          sfo, re.M)) >= len(MEMMAP_LINE.findall(out)) - 2
    assert re.search(r'^MemoryMapSummary(,"\d+"){17}$', sfo, re.M)


# ---- setvar and dmpstore ----

def var_bytes(s, name, guid=TEST_GUID):
    out = s.run(f"setvar {name} -guid {guid}")
    m = re.match(rf"{guid} - {name} - ([0-9A-F]{{4}}) Bytes \(([A-Z+]+)\)\n(.*)\n", out)
    assert m, out + s.errors
    data = bytes.fromhex(m.group(3))
    assert len(data) == int(m.group(1), 16)
    return data, m.group(2)


def test_setvar_data_forms(shell):
    s = shell()
    assert s.run(f"setvar V1 -guid {TEST_GUID} -bs =0x2A =0x1234 =0x12345 =0x123456789") == ""
    assert var_bytes(s, "V1") == (bytes([0x2A, 0x34, 0x12, 0x45, 0x23, 0x01, 0x00,
                                         0x89, 0x67, 0x45, 0x23, 0x01, 0, 0, 0]), "BS")
    s.run(f'setvar V2 -guid {TEST_GUID} -nv -bs =H0A0B =0C0D =S"hi there" =Labc '
          f'=L"d e" =plain =L^"q^"')
    assert var_bytes(s, "V2") == (
        b"\x0a\x0b\x0c\x0d" + b"hi there" + "abc".encode("utf-16-le") +
        "d e".encode("utf-16-le") + b"plain" + "q".encode("utf-16-le"), "NV+BS")
    # -rt implies boot services; a device path from its text.
    s.run(f'setvar V3 -guid {TEST_GUID} -rt =P"PciRoot(0x0)/Pci(0x1F,0x2)"')
    data, attrs = var_bytes(s, "V3")
    assert attrs == "BS+RT"
    assert data == bytes.fromhex("02010c00d041030a00000000" "0101060002" "1f" "7fff0400")
    # Appending, then an existing variable keeps its attributes whatever the options say.
    s.run(f"setvar V1 -guid {TEST_GUID} -append =FF")
    assert var_bytes(s, "V1")[0].endswith(b"\x00\xff")
    s.run(f"setvar V1 -guid {TEST_GUID} -nv -rt =01")
    assert var_bytes(s, "V1") == (b"\x01", "BS")
    # '=' alone deletes; then the variable is gone.
    assert s.run(f"setvar V1 -guid {TEST_GUID} =") == ""
    s.run(f"setvar V1 -guid {TEST_GUID}")
    assert f"setvar: cannot read {TEST_GUID}:V1: not found" in s.errors
    assert s.status() == NOT_FOUND


def test_setvar_refuses_what_it_cannot_read(shell):
    s = shell()
    s.run(f"setvar V -guid {TEST_GUID} =0x12345678901234567")
    assert "setvar: cannot read the data '=0x12345678901234567'" in s.errors
    assert s.status() == INVALID_PARAMETER
    s.run(f"setvar V -guid {TEST_GUID} =PNotAPath(")
    assert "cannot read the data" in s.errors
    s.run("setvar V -guid 1234 =00")
    assert "setvar: '1234' is not a GUID" in s.errors
    s.run("setvar =00")
    assert "setvar: name the variable first" in s.errors
    # Read-only global variables stay as they are.
    s.run("setvar PlatformLangCodes =00")
    assert "setvar: cannot set" in s.errors


def test_dmpstore_shows_deletes_saves_and_loads(shell):
    s = shell()
    s.run(f"setvar Alpha -guid {TEST_GUID} -bs -nv =L\"one\"")
    s.run(f"setvar Beta -guid {TEST_GUID} -bs =0102030405060708090A0B0C0D0E0F1011")
    out = s.run(f"dmpstore -guid {TEST_GUID}")
    assert (f"Variable NV+BS '{TEST_GUID}:Alpha' DataSize = 0x06\n"
            "  00000000: 6F 00 6E 00 65 00                                *o.n.e.*\n") in out
    assert (f"Variable BS '{TEST_GUID}:Beta' DataSize = 0x11\n"
            "  00000000: 01 02 03 04 05 06 07 08-09 0A 0B 0C 0D 0E 0F 10  *................*\n"
            "  00000010: 11                                               *.*\n") in out
    # The global GUID by default, names with wildcards, -all for every GUID.
    glob = s.run("dmpstore Plat*")
    assert re.findall(r"'([^']+)'", glob) == [f"{GLOBAL}:PlatformLang",
                                               f"{GLOBAL}:PlatformLangCodes"] or \
        sorted(re.findall(r"'([^']+)'", glob)) == sorted([f"{GLOBAL}:PlatformLang",
                                                          f"{GLOBAL}:PlatformLangCodes"])
    assert "Alpha" not in s.run("dmpstore")
    assert f"'{TEST_GUID}:Alpha'" in s.run("dmpstore -all A*")
    sfo = s.run(f"dmpstore -guid {TEST_GUID} Alpha -sfo")
    assert sfo == ('ShellCommand,"dmpstore"\n'
                   f'VariableInfo,"Alpha","{TEST_GUID}","0x3","0x6","6F006E006500"\n')
    # Save, delete, load back.
    assert s.run(f"dmpstore -guid {TEST_GUID} -s vars.bin") == "Save variable to file: vars.bin.\n"
    saved = (s.esp / "vars.bin").read_bytes()
    name = ucs2z("Alpha")
    record = struct.pack("<II", len(name), 6) + name + guid_bytes(TEST_GUID) + \
        struct.pack("<I", 3) + "one".encode("utf-16-le")
    import zlib
    assert record + struct.pack("<I", zlib.crc32(record)) in saved
    deleted = s.run(f"dmpstore -guid {TEST_GUID} -d")
    assert f"Delete variable '{TEST_GUID}:Alpha': Success\n" in deleted
    assert f"Delete variable '{TEST_GUID}:Beta': Success\n" in deleted
    s.run(f"dmpstore -guid {TEST_GUID}")
    assert "dmpstore: no variables found" in s.errors and s.status() == NOT_FOUND
    assert s.run(f"dmpstore -guid {TEST_GUID} Beta -l vars.bin") == (
        "Load and set variables from file: vars.bin.\n")
    back = s.run(f"dmpstore -guid {TEST_GUID}")
    assert "Beta" in back and "Alpha" not in back
    # A damaged file is refused where it breaks.
    (s.esp / "bad.bin").write_bytes(saved[:-1] + bytes([saved[-1] ^ 1]))
    s.run("dmpstore -all -l bad.bin")
    assert "not a variable file" in s.errors
    s.run("dmpstore -all -guid 1")
    assert "choose -all or -guid" in s.errors


def test_variables_persist_in_the_vars_file(shell, tmp_path):
    store = tmp_path / "vars.fd"
    s = shell("--vars", store)
    s.run(f"setvar Kept -guid {TEST_GUID} -nv -bs =0x55")
    s.run(f"setvar Gone -guid {TEST_GUID} -bs =0x66")
    s.close()
    s = shell("--vars", store)
    assert var_bytes(s, "Kept") == (b"\x55", "NV+BS")
    s.run(f"setvar Gone -guid {TEST_GUID}")
    assert "not found" in s.errors


# ---- bcfg ----

ESP_NODE = bytes.fromhex("01041800") + guid_bytes("982609F9-3366-4777-ABC4-0CECE3AD9D72") + \
    b"\0\0\0\0"
END = bytes.fromhex("7fff0400")


def file_node(path):
    name = ucs2z(path)
    return struct.pack("<BBH", 4, 4, 4 + len(name)) + name


def load_option(desc, path, optional=b"", attributes=1):
    return struct.pack("<IH", attributes, len(path)) + ucs2z(desc) + path + optional


def variable(s, name):
    out = s.run(f"dmpstore {name}")
    assert out.startswith(f"Variable NV+BS+RT '{GLOBAL}:{name}'"), out + s.errors
    return hex_bytes(out)


def test_bcfg_add_dump_mv_rm_write_the_spec_layout(shell, tmp_path):
    s = shell("--vars", tmp_path / "vars.fd")
    shutil.copy(PROGRAMS / "hello.efi", s.esp / "hello.efi")
    (s.esp / "tools").mkdir()
    shutil.copy(PROGRAMS / "hello.efi", s.esp / "tools" / "two.efi")
    assert s.run("bcfg boot dump") == "No boot options (BootOrder is empty).\n"
    assert s.run('bcfg boot add 0 fs0:\\hello.efi "First one"') == (
        "Target = 0000: Boot0000 added at position 0.\n")
    assert s.run("cd tools") == ""
    assert s.run('bcfg boot add 0 two.efi "Second"') == (
        "Target = 0001: Boot0001 added at position 0.\n")
    assert s.run('bcfg boot add 9 ..\\hello.efi "Third"') == (
        "Target = 0002: Boot0002 added at position 2.\n")
    hello = ESP_NODE + file_node("\\hello.efi") + END
    assert variable(s, "Boot0000") == load_option("First one", hello)
    assert variable(s, "Boot0001") == load_option(
        "Second", ESP_NODE + file_node("\\tools\\two.efi") + END)
    assert variable(s, "BootOrder") == struct.pack("<3H", 1, 0, 2)
    dump = s.run("bcfg boot dump")
    assert dump == ("Option: 00. Variable: Boot0001\n"
                    "  Desc    - Second\n"
                    "  DevPath - VenHw(982609F9-3366-4777-ABC4-0CECE3AD9D72,00000000)/"
                    "\\tools\\two.efi\n"
                    "  Optional- N\n"
                    "Option: 01. Variable: Boot0000\n"
                    "  Desc    - First one\n"
                    "  DevPath - VenHw(982609F9-3366-4777-ABC4-0CECE3AD9D72,00000000)/"
                    "\\hello.efi\n"
                    "  Optional- N\n"
                    "Option: 02. Variable: Boot0002\n"
                    "  Desc    - Third\n"
                    "  DevPath - VenHw(982609F9-3366-4777-ABC4-0CECE3AD9D72,00000000)/"
                    "\\hello.efi\n"
                    "  Optional- N\n")
    assert s.run("bcfg boot mv 2 0") == ""
    assert variable(s, "BootOrder") == struct.pack("<3H", 2, 1, 0)
    assert s.run("bcfg boot mv 0 2") == ""
    assert variable(s, "BootOrder") == struct.pack("<3H", 1, 0, 2)
    assert s.run("bcfg boot rm 1") == ""
    assert variable(s, "BootOrder") == struct.pack("<2H", 1, 2)
    s.run("dmpstore Boot0000")
    assert "no variable matches 'Boot0000'" in s.errors
    # The freed number is used again.
    s.run('bcfg boot add 1 \\hello.efi "Again"')
    assert variable(s, "BootOrder") == struct.pack("<3H", 1, 0, 2)


def test_bcfg_opt_mod_modf_and_verbose_dump(shell, tmp_path):
    s = shell("--vars", tmp_path / "vars.fd")
    shutil.copy(PROGRAMS / "hello.efi", s.esp / "hello.efi")
    shutil.copy(PROGRAMS / "hello.efi", s.esp / "other.efi")
    (s.esp / "opt.bin").write_bytes(b"\x01\x02\x03")
    s.run('bcfg boot add 0 hello.efi "Hello"')
    assert s.run('bcfg boot -opt 0 "quiet splash"') == ""
    hello = ESP_NODE + file_node("\\hello.efi") + END
    assert variable(s, "Boot0000") == load_option("Hello", hello, ucs2z("quiet splash"))
    assert s.run("bcfg boot -opt 0 opt.bin") == ""
    assert variable(s, "Boot0000") == load_option("Hello", hello, b"\x01\x02\x03")
    verbose = s.run("bcfg boot dump -v")
    assert "  Optional- Y\n  Attr    - 0x00000001 ACTIVE\n" in verbose
    assert "    00000000: 01 02 03" in verbose
    assert s.run('bcfg boot mod 0 "New name"') == ""
    assert s.run("bcfg boot modf 0 other.efi") == ""
    assert variable(s, "Boot0000") == load_option(
        "New name", ESP_NODE + file_node("\\other.efi") + END, b"\x01\x02\x03")
    assert s.run("bcfg boot -opt 0") == ""
    assert variable(s, "Boot0000") == load_option(
        "New name", ESP_NODE + file_node("\\other.efi") + END)


def test_bcfg_driver_options_and_addh(shell, tmp_path):
    s = shell("--vars", tmp_path / "vars.fd")
    install_driver(s.esp)
    assert s.run('bcfg driver add 0 tdrv.efi "Test driver"') == (
        "Target = 0000: Driver0000 added at position 0.\n")
    assert variable(s, "Driver0000") == load_option(
        "Test driver", ESP_NODE + file_node("\\tdrv.efi") + END)
    assert variable(s, "DriverOrder") == struct.pack("<H", 0)
    fs = handle_of(s.run("dh -p SimpleFileSystem"), "SimpleFileSystem")
    s.run(f'bcfg boot addh 0 {fs:X} "The volume"')
    assert variable(s, "Boot0000") == load_option("The volume", ESP_NODE + END)
    assert "Desc    - Test driver" in s.run("bcfg driver dump")


def test_bcfg_addp_starts_at_the_partition(shell, tmp_path):
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    s = shell("--vars", tmp_path / "vars.fd", "--disk", disk)
    assert "fs1:" in s.run("map")
    s.run('bcfg boot addp 0 fs1:\\EFI\\BOOT\\BOOTX64.EFI "Short"')
    s.run('bcfg boot add 1 fs1:\\EFI\\BOOT\\BOOTX64.EFI "Long"')
    short, long = variable(s, "Boot0000"), variable(s, "Boot0001")
    head = 6 + len(ucs2z("Short"))
    assert short[head:head + 4] == bytes.fromhex("04012a00")  # HD(...) first
    assert short[head + 42:] == file_node("\\EFI\\BOOT\\BOOTX64.EFI") + END
    assert long.endswith(short[head:])  # the full path ends with the short one
    dump = s.run("bcfg boot dump")
    assert re.search(r"DevPath - HD\(1,GPT,[0-9A-F-]{36},0x800,0x14000\)/"
                     r"\\EFI\\BOOT\\BOOTX64\.EFI\n", dump), dump
    s.run('bcfg boot addp 0 fs0:\\nothing "x"')
    assert "bcfg: fs0:\\nothing:" in s.errors


def test_bcfg_errors_in_words(shell, tmp_path):
    s = shell("--vars", tmp_path / "vars.fd")
    s.run("bcfg")
    assert "bcfg: say 'boot' or 'driver' first" in s.errors
    s.run("bcfg boot frobnicate")
    assert "is not a bcfg operation" in s.errors
    s.run("bcfg boot rm 0")
    assert "bcfg: there is no boot option 0 (the list has 0)" in s.errors
    assert s.status() == NOT_FOUND
    s.run('bcfg boot add 0 missing.efi "x"')
    assert "bcfg: missing.efi:" in s.errors
    s.run("bcfg boot add 0 hello.efi")
    assert "add takes a position, a file and a description" in s.errors
    s.run("bcfg boot mv zz 1")
    assert "'zz' is not an option position" in s.errors
    # An order naming an option that does not exist says so (the variable services
    # refuse Boot#### that are not load options, so that case cannot be made here).
    s.run("setvar BootOrder -nv -bs -rt =0700")
    s.run("setvar Boot0007 -nv -bs -rt =0102")
    assert "setvar: cannot set" in s.errors
    assert s.run("bcfg boot dump") == ("Option: 00. Variable: Boot0007\n"
                                       "  (the variable is missing)\n")


# ---- date, time, dmem, pci, smbiosview, acpiview ----

def test_date_and_time_read_and_set_the_clock(shell):
    s = shell()
    assert re.fullmatch(r"\d\d/\d\d/\d{4}\n", s.run("date"))
    assert re.fullmatch(r"\d\d:\d\d:\d\d \(UTC\+00:00\)\n", s.run("time"))
    assert s.run("date 02/29/2024") == ""
    assert s.run("date") == "02/29/2024\n"
    assert s.run("date 7/4/26") == ""
    assert s.run("date") == "07/04/2026\n"
    assert s.run('date -sfo') == 'ShellCommand,"date"\nDate,"07","04","2026"\n'
    s.run("date 02/30/2023")
    assert "date: the clock refuses that date" in s.errors
    s.run("date 13/01/2020")
    assert "date: write the date as mm/dd/yyyy" in s.errors
    assert s.run("time 13:45") == ""
    assert re.fullmatch(r"13:4[56]:\d\d \(UTC\+00:00\)\n", s.run("time"))
    # 13:45 at UTC+01:00 is 12:45 UTC, which is what ember-run's clock keeps.
    assert s.run("time 13:45:00 -tz 60") == ""
    assert re.fullmatch(r"12:4[56]:\d\d \(UTC\+00:00\)\n", s.run("time"))
    s.run("time 24:00")
    assert "time: write the time as hh:mm[:ss]" in s.errors
    s.run("time -tz 5000")
    assert "-tz takes minutes" in s.errors


def test_dmem_shows_the_system_table(shell):
    s = shell()
    out = s.run("dmem")
    m = re.match(r"EFI System Table at ([0-9A-F]{16})\n"
                 r"  Revision 2\.10, header size 0x78, firmware Ember revision 0x[0-9A-F]{8}\n",
                 out)
    assert m, out
    assert re.search(r"^    DCFA911D-26EB-469F-A220-38B7DC461220 [0-9A-F]{16} "
                     r"MemoryAttributesTable$", out, re.M), out
    table = int(m.group(1), 16)
    mem = s.run(f"dmem {table:X} 10")
    assert mem.startswith(f"Memory Address {table:016X} 10 Bytes\n")
    assert hex_bytes(mem)[:8] == b"IBI SYST"  # EFI_SYSTEM_TABLE_SIGNATURE
    s.run("dmem 1000 zz")
    assert "dmem: give an address and a size in hex" in s.errors


def test_hardware_tables_absent_under_ember_run(shell):
    s = shell()
    assert s.run("pci") == ("   Seg  Bus  Dev  Func\n   ---  ---  ---  ----\n"
                            "No PCI functions found.\n")
    s.run("pci 0 1F 2")
    assert "pci: there is no function at segment 0 bus 0 device 1F function 2" in s.errors
    s.run("pci 0 20")
    assert "pci: '20' is not a device number" in s.errors
    s.run("smbiosview")
    assert "smbiosview: the firmware publishes no SMBIOS table" in s.errors
    s.run("acpiview")
    assert "acpiview: the firmware publishes no ACPI tables" in s.errors
    assert s.status() == NOT_FOUND
