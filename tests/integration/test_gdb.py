"""ember-run --gdb (platform/hosted/gdb.c, scripts/gdb/ember.py): gdb, driven in batch
mode (commands from a pipe), stops at a gnu-efi program's efi_main with its source lines,
the symbols coming from the .so beside the .efi at the address where Ember loaded it;
--break-at-entry stops at the entry point; --gdb=print prints the command line."""
import os
import re
import shutil
import struct
import subprocess

import pytest

from conftest import EMBER_RUN, ROOT, program

GDB_SCRIPT = ROOT / "scripts" / "gdb" / "ember.py"

pytestmark = pytest.mark.skipif(shutil.which("gdb") is None,
                                reason="gdb is missing: run scripts/deps")


def under_gdb(commands, *args, timeout=120):
    """Runs ember-run --gdb ARGS with gdb reading commands from a pipe; returns stdout."""
    env = dict(os.environ, EMBER_GDB_SCRIPT=str(GDB_SCRIPT))
    typed = "".join(c + "\n" for c in commands + ["kill", "quit"])
    r = subprocess.run([str(EMBER_RUN), *map(str, args)], input=typed.encode(),
                       capture_output=True, timeout=timeout, env=env)
    return r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")


def efi_main_line():
    """The line of hello.c where efi_main's body starts (its first statement)."""
    lines = (ROOT / "tests" / "programs" / "hello.c").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("efi_main("))
    return next(i + 1 for i in range(start, len(lines)) if "conout = systab->ConOut" in lines[i])


def test_break_efi_main_shows_source_lines():
    out = under_gdb(["break efi_main", "run", "info line *$pc", "bt 1"], "--gdb",
                    program("hello"))
    line = efi_main_line()
    assert "hello.efi at 0x" in out and "symbols from" in out, out
    assert f"Breakpoint 1, efi_main (" in out, out
    assert f'Line {line} of "tests/programs/hello.c"' in out, out
    assert f"#0  efi_main (" in out and f"hello.c:{line}" in out, out
    assert "Hello World!" not in out  # stopped before the program printed


def test_break_at_entry_stops_at_the_entry_point():
    out = under_gdb(["run", "printf \"pc=%lx\\n\", $pc"], "--break-at-entry", program("hello"))
    data = program("hello").read_bytes()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    entry_rva = struct.unpack_from("<I", data, pe + 24 + 16)[0]
    base = re.search(r"hello\.efi at 0x([0-9a-f]+)", out)
    pc = re.search(r"pc=([0-9a-f]+)", out)
    assert base and pc, out
    assert int(pc.group(1), 16) == int(base.group(1), 16) + entry_rva, out
    assert "Hello World!" not in out


def test_gdb_print_gives_the_command_line():
    env = dict(os.environ, EMBER_GDB_SCRIPT=str(GDB_SCRIPT))
    r = subprocess.run([str(EMBER_RUN), "--gdb=print", "--debug", str(program("hello")), "x"],
                       capture_output=True, timeout=30, env=env)
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr
    assert out.startswith("gdb ") and f"-x {GDB_SCRIPT}" in out, out
    assert f"ember-symbol-dir {program('hello').parent}" in out, out
    assert out.rstrip().endswith(f"--args {EMBER_RUN.resolve()} --debug {program('hello')} x"), out
    assert "--gdb" not in out.split("--args")[1]


def test_crash_report_names_the_function(ember):
    """Symbols beside the program name the faulting function in the crash report."""
    r = ember(program("null_pointer"))
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert re.search(r"  at null_pointer\.efi\+0x[0-9a-f]+ \(0x[0-9a-f]+\) in efi_main\+0x",
                     err), err


def test_crash_report_names_embers_function_and_the_callers(ember):
    """A fault in Ember's code (a call with a misaligned stack) names ember-run's own
    function, and the program's frame that called it."""
    r = ember(program("misaligned_call"))
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert re.search(r"  at ember-run\+0x[0-9a-f]+ \(0x[0-9a-f]+\) in \w+\+0x", err), err
    assert re.search(r"called from misaligned_call\.efi\+0x[0-9a-f]+ \(0x[0-9a-f]+\) in "
                     r"efi_main\+0x", err), err


def test_crash_report_without_symbols_keeps_the_offset(ember, tmp_path):
    """Without the .so beside it the report gives the offset only."""
    shutil.copy(program("null_pointer"), tmp_path / "null_pointer.efi")
    r = ember(tmp_path / "null_pointer.efi")
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert re.search(r"  at null_pointer\.efi\+0x[0-9a-f]+ \(0x[0-9a-f]+\)\n", err), err


PE_PROGRAM = """\
int efi_main(void *image, void *system_table)
{
\tvolatile int x = 1;
\tx++;
\treturn 0;
}
"""


def test_break_in_a_clang_pe_program_from_its_dwarf(tmp_path):
    """A PE32+ built by clang/lld with DWARF (-debug:dwarf): the symbols come from the .efi
    itself, moved from its link base (0x140000000) to where Ember placed it."""
    (tmp_path / "dwarf.c").write_text(PE_PROGRAM)
    subprocess.run(["clang", "--target=x86_64-unknown-windows", "-ffreestanding", "-g",
                    "-gdwarf", "-O0", "-c", "dwarf.c", "-o", "dwarf.o"], cwd=tmp_path, check=True)
    subprocess.run(["clang", "--target=x86_64-unknown-windows", "-nostdlib", "-fuse-ld=lld",
                    "-Wl,-entry:efi_main", "-Wl,-subsystem:efi_application",
                    "-Wl,-debug:dwarf", "-o", "dwarf.efi", "dwarf.o"], cwd=tmp_path, check=True)
    out = under_gdb(["break efi_main", "run", "info line *$pc"], "--gdb", tmp_path / "dwarf.efi")
    assert "symbols from %s" % (tmp_path / "dwarf.efi") in out, out
    assert "Breakpoint 1, efi_main (" in out, out
    assert re.search(r'Line [345] of "dwarf\.c"', out), out
