"""Memory protection under ember-run: a program's code is read-only and its data
non-executable (mprotect of the image's pages), EFI_MEMORY_ATTRIBUTE_PROTOCOL works as
shim and the Linux EFI stub use it, and a write to code or a jump into data is a crash
report naming the image and the offset. Programs whose sections are not page-aligned run
unprotected, as before."""
import re
import struct

from conftest import program
from pe_patch import PeFile


def section_of(pe, rva):
    """The name of the section holding rva."""
    for i in range(pe.nsections):
        s = pe.sections + 40 * i
        name = bytes(pe.data[s:s + 8]).rstrip(b"\0").decode()
        vsize, va = struct.unpack_from("<II", pe.data, s + 8)
        if va <= rva < va + vsize:
            return name
    return None


def test_protocol_and_own_protection(ember):
    r = ember(program("memory_protection"))
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    assert re.search(r"memory_protection: \d+ passed, 0 failed", out), out


def test_write_to_code_is_reported(ember):
    r = ember(program("memory_protection"), "write-code")
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert b"still running" not in r.stdout
    assert "memory_protection.efi crashed: write to read-only memory" in err
    m = re.search(r"protected page holds memory_protection\.efi\+0x([0-9a-f]+)", err)
    assert m, err
    pe = PeFile(program("memory_protection").read_bytes())
    assert section_of(pe, int(m.group(1), 16)) == ".text"


def test_jump_into_data_is_reported(ember):
    r = ember(program("memory_protection"), "jump-data")
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert b"still running" not in r.stdout
    assert "memory_protection.efi crashed: jump into non-executable memory" in err
    m = re.search(r"at memory_protection\.efi\+0x([0-9a-f]+)", err)
    assert m, err
    pe = PeFile(program("memory_protection").read_bytes())
    assert section_of(pe, int(m.group(1), 16)) == ".data"
    caller = re.search(r"called from memory_protection\.efi\+0x([0-9a-f]+)", err)
    assert caller and section_of(pe, int(caller.group(1), 16)) == ".text", err


def test_unaligned_sections_run_unprotected(ember, tmp_path):
    """The same program with SectionAlignment 512 (its sections, at multiples of 4 KiB,
    stay valid): nothing is protected, so its write to its own code goes through."""
    pe = PeFile(program("memory_protection").read_bytes())
    struct.pack_into("<I", pe.data, pe.opt + 32, 0x200)
    old = tmp_path / "old.efi"
    old.write_bytes(bytes(pe.data))
    r = ember(old, "write-code")
    assert r.returncode == 0, r.stderr.decode()
    assert b"still running" in r.stdout
    r = ember(old)
    assert b"FAILED: own code is RO" in r.stdout


def test_keep_going_ends_the_program_on_a_protection_fault(ember):
    r = ember("--keep-going", program("memory_protection"), "jump-data")
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert "jump into non-executable memory" in err
    assert "memory_protection.efi ends as if it had called Exit(EFI_ABORTED)" in err


def test_jump_into_pool_memory_blames_the_caller(ember):
    """Pool memory lies in no image: the return address of the call names the program."""
    r = ember(program("memory_protection"), "jump-pool")
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert b"still running" not in r.stdout
    assert "memory_protection.efi crashed: jump into non-executable memory" in err
    assert "(not in any loaded image)" in err
    assert re.search(r"called from memory_protection\.efi\+0x[0-9a-f]+", err), err
    assert "a bug in Ember" not in err


def test_memory_is_the_programs_after_exit_boot_services(ember):
    """After ExitBootServices a loader runs code it copied into free memory and writes
    over its own code (GRUB's relocator does both): the protections are lifted."""
    r = ember(program("memory_protection"), "after-exit")
    assert r.returncode == 0, r.stderr.decode()
