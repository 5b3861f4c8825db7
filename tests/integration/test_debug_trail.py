"""ember-run --debug on hostile inputs: each failure leaves one debug line, under its file's
prefix, naming the step that failed (and its status); without --debug those lines are not
shown, only what a user must know. Inputs: PE images with a broken header or relocation,
files LoadImage cannot read, disks whose MBR or GPT is damaged, device-path text that does
not parse (tests/programs/dp_from_text.c). The boot manager's trail and the QEMU parsers'
are checked by tests/unit/test_debug_trail.c.
"""
import re
import shutil
import struct
import subprocess

import pytest

from conftest import program
from pe_patch import PeFile, relocated_app

SECTOR = 512


def both(ember, *args):
    """The stderr lines of a run with --debug, and the stderr of the same run without."""
    with_debug = ember("--debug", *args)
    without = ember(*args)
    return with_debug, with_debug.stderr.decode().splitlines(), without.stderr.decode()


def assert_trail(lines, without, expected):
    """Each expected debug line (a regex matched against a whole line) is in the trail once,
    and not in the output without --debug."""
    for pattern in expected:
        found = [l for l in lines if re.fullmatch(pattern, l)]
        assert len(found) == 1, (pattern, lines)
        assert found[0] not in without, (found[0], without)


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return path


def test_pe_with_a_broken_header(ember, tmp_path):
    pe = PeFile(program("hello").read_bytes())
    struct.pack_into("<I", pe.data, pe.opt + 32, 0x3000)  # SectionAlignment: not a power of 2
    bad = write(tmp_path, "align.efi", pe.data)
    r, lines, without = both(ember, bad)
    assert r.returncode == 2
    assert_trail(lines, without, [
        rf"pe: {len(pe.data)}-byte file refused: invalid SectionAlignment: EFI_LOAD_ERROR"])
    assert "ember-run: " in without and "invalid SectionAlignment" in without


def test_pe_that_is_no_pe(ember, tmp_path):
    bad = write(tmp_path, "text.efi", b"MZ but nothing after it\n" * 8)
    r, lines, without = both(ember, bad)
    assert r.returncode == 2
    assert_trail(lines, without,
                 [r"pe: 192-byte file refused: not a PE32\+ image: EFI_LOAD_ERROR"])


def test_pe_whose_relocations_fail(ember, tmp_path):
    pe = PeFile(relocated_app(tmp_path).read_bytes())
    pe.move_relocations_outside()
    r, lines, without = both(ember, write(tmp_path, "bad-reloc.efi", pe.data))
    assert r.returncode == 2
    assert_trail(lines, without, [
        r"pe: loading at 0x[0-9a-f]+: relocation outside the image: EFI_LOAD_ERROR"])


def test_files_loadimage_cannot_read(ember, tmp_path):
    esp = tmp_path / "esp"
    (esp / "DIR").mkdir(parents=True)
    r, lines, without = both(ember, "--esp", esp, "fs0:\\MISSING.EFI")
    assert r.returncode == 2
    assert_trail(lines, without, [r"image: opening \\MISSING\.EFI: EFI_NOT_FOUND"])
    r, lines, without = both(ember, "--esp", esp, "fs0:\\DIR")
    assert r.returncode == 2
    assert_trail(lines, without, [r"image: \\DIR is a directory"])


def mbr_record(start, size, kind=0x83):
    return bytes([0, 0, 0, 0, kind, 0, 0, 0]) + struct.pack("<II", start, size)


def test_disk_with_a_damaged_mbr(ember, tmp_path):
    disk = bytearray(4 << 20)
    disk[446:462] = mbr_record(2048, 4096)
    disk[462:478] = mbr_record(3000, 1000)  # over the first
    disk[510:512] = b"\x55\xaa"
    image = write(tmp_path, "mbr.img", disk)
    r, lines, without = both(ember, "--disk", f"{image}:ro", program("hello"))
    assert r.returncode == 0, r.stderr
    assert_trail(lines, without, [r"mbr: two records overlap"])


def test_disk_whose_gpt_headers_are_both_damaged(ember, tmp_path):
    if not shutil.which("sgdisk"):
        pytest.fail("sgdisk is missing (scripts/deps installs it)")
    image = tmp_path / "gpt.img"
    with open(image, "wb") as f:
        f.truncate(8 << 20)
    subprocess.run(["sgdisk", "-n", "1:2048:+2M", str(image)], check=True, capture_output=True)
    disk = bytearray(image.read_bytes())
    disk[SECTOR + 16] ^= 0xFF  # the primary header's CRC32
    disk[-SECTOR + 16] ^= 0xFF  # the backup's
    image.write_bytes(disk)
    r, lines, without = both(ember, "--disk", f"{image}:ro", program("hello"))
    assert r.returncode == 0, r.stderr
    assert_trail(lines, without, [r"gpt: header at LBA 1: header CRC32 mismatch",
                                  r"gpt: header at LBA 16383: header CRC32 mismatch"])


@pytest.mark.parametrize("text, trail", [
    ("PciRoot(0x0)/Pci(0x1F,0x2", [r'devpath: "Pci\(0x1F,0x2": a parenthesis is not closed']),
    ("PciRoot(0x0)/Pci(1,2,3)", [r"devpath: Pci\(\) takes 2 parameters"]),
    ("PciRoot(0x0)/Pci(0x1F,0x100)", [r'devpath: parameter 2 "0x100": not a number up to 255',
                                      r'devpath: "Pci\(0x1F,0x100\)": refused its parameters']),
    ("VenHw(not-a-guid)", [r'devpath: parameter 1 "not-a-guid": not a GUID']),
])
def test_device_path_text_that_does_not_parse(ember, text, trail):
    r, lines, without = both(ember, program("dp_from_text"), text)
    assert r.returncode == 1 and b"refused" in r.stdout, r.stdout
    assert_trail(lines, without, trail)


def test_good_inputs_leave_no_failure_lines(ember):
    r, lines, without = both(ember, program("dp_from_text"), "PciRoot(0x0)/Pci(0x1F,0x2)")
    assert r.returncode == 0 and b"parsed" in r.stdout
    assert not [l for l in lines if l.startswith(("devpath:", "pe:"))], lines
