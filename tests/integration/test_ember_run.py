"""ember-run as a user meets it: the article's programs, exit codes, bad images, crashes."""
import os
import re
import shutil

from conftest import ROOT, BUILD, app, program
from pe_patch import PeFile, clang_efi, relocated_app


def test_hello_world(ember):
    r = ember(program("hello"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"Hello World!\n"


def test_gop_mode_default(ember):
    r = ember(program("gop_mode"))
    assert r.returncode == 0, r.stderr
    assert b"Mode 0 is running at 1024x768\n" in r.stdout


def test_gop_mode_800x600(ember):
    r = ember("--gop", "800x600", program("gop_mode"))
    assert r.returncode == 0, r.stderr
    assert b"Mode 0 is running at 800x600\n" in r.stdout


def test_error_status_is_exit_1_with_its_name(ember):
    r = ember(program("exit_status"), "not-found")
    assert r.returncode == 1
    assert b"EFI_NOT_FOUND" in r.stderr


def test_exit_with_exit_data(ember):
    r = ember(program("exit_status"), "exit")
    assert r.returncode == 1
    assert b"EFI_ABORTED: leaving through Exit" in r.stderr


def test_arguments_become_load_options(ember):
    r = ember(program("exit_status"), "one", "two words")
    assert r.returncode == 0, r.stderr
    assert b'args: [exit_status.efi one "two words"]' in r.stdout


def test_usage_errors_exit_2(ember):
    r = ember()
    assert r.returncode == 2 and b"no EFI program" in r.stderr
    r = ember("--bogus", program("hello"))
    assert r.returncode == 2 and b"unknown option --bogus" in r.stderr
    r = ember("--gop", "12", program("hello"))
    assert r.returncode == 2 and b"bad --gop" in r.stderr
    r = ember("/nonexistent/app.efi")
    assert r.returncode == 2 and b"No such file" in r.stderr


def bad_image(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return path


def test_not_a_pe_image(ember, tmp_path):
    r = ember(bad_image(tmp_path, "text.efi", b"this is not an EFI program\n" * 10))
    assert r.returncode == 2
    assert b"not a PE32+ image" in r.stderr


def test_truncated_pe(ember, tmp_path):
    data = program("hello").read_bytes()
    pe = PeFile(data)
    # Cut inside the section table.
    r = ember(bad_image(tmp_path, "cut.efi", data[:pe.sections + 20]))
    assert r.returncode == 2
    assert b"truncated section table" in r.stderr
    # Cut inside the section data.
    r = ember(bad_image(tmp_path, "cut2.efi", data[:len(data) // 2]))
    assert r.returncode == 2
    assert r.stderr.startswith(b"ember-run: ") and b"\n" in r.stderr


def test_foreign_machines(ember, tmp_path):
    for machine, text in ((0x14C, b"unsupported machine type 0x14c"),
                          (0xAA64, b"unsupported machine type 0xaa64")):
        pe = PeFile(program("hello").read_bytes())
        pe.set_machine(machine)
        r = ember(bad_image(tmp_path, f"m{machine:x}.efi", pe.data))
        assert r.returncode == 2, r.stderr
        assert text in r.stderr


def build_foreign(tmp_path, target):
    """A real EFI application for another architecture, built with clang and lld."""
    return clang_efi(tmp_path, f"tiny-{target}",
                     "int efi_main(void *image, void *st) { return 0; }\n", target)


def test_real_ia32_and_aarch64_images(ember, tmp_path):
    r = ember(build_foreign(tmp_path, "i686-unknown-windows"))
    assert r.returncode == 2 and b"unsupported machine type 0x14c" in r.stderr
    r = ember(build_foreign(tmp_path, "aarch64-unknown-windows"))
    assert r.returncode == 2 and b"unsupported machine type 0xaa64" in r.stderr


def test_relocations_applied_and_checked(ember, tmp_path):
    good = relocated_app(tmp_path)
    r = ember(good)
    assert r.returncode == 0, r.stderr
    pe = PeFile(good.read_bytes())
    pe.move_relocations_outside()
    r = ember(bad_image(tmp_path, "bad-reloc.efi", pe.data))
    assert r.returncode == 2
    assert b"relocation outside the image" in r.stderr


def test_wild_pointer_crash_report(ember):
    r = ember(program("wild_pointer"))
    assert r.returncode == 3
    err = r.stderr.decode()
    assert "wild_pointer.efi crashed: invalid memory access" in err
    # The faulting instruction as image+offset, the address, and the registers.
    m = re.search(r"at wild_pointer\.efi\+0x([0-9a-f]+)", err)
    assert m, err
    assert "fault address 0xdead0000000" in err
    assert re.search(r"rip [0-9a-f]{16}", err)
    # The offset points at a real instruction: it lies in the image's .text.
    pe = PeFile(program("wild_pointer").read_bytes())
    assert 0 < int(m.group(1), 16) < pe.size_of_image


def test_privileged_and_illegal_instructions(ember):
    r = ember(program("bad_instruction"), "privileged")
    assert r.returncode == 3
    assert b"bad_instruction.efi crashed: general protection fault" in r.stderr
    assert b"at bad_instruction.efi+0x" in r.stderr
    r = ember(program("bad_instruction"), "illegal")
    assert r.returncode == 3
    assert b"bad_instruction.efi crashed: illegal instruction" in r.stderr


def test_stack_overflow_hits_the_guard_page(ember):
    """A program that recurses without end runs into the page below its stack: a "stack
    overflow" report naming the program, not writes over the firmware's memory ending in
    an unmapped access far below."""
    r = ember(program("stack_overflow"))
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert "stack_overflow.efi crashed: stack overflow" in err
    assert re.search(r"at stack_overflow\.efi\+0x[0-9a-f]+", err), err
    assert "guard page" in err


def test_fault_in_ember_during_a_call_blames_the_caller(ember):
    """A bad pointer passed to GetVariable faults in Ember's code: the report names the
    program whose call it was, and the frames lead back to it."""
    r = ember(program("bad_getvariable"))
    err = r.stderr.decode()
    assert r.returncode == 3, err
    assert "bad_getvariable.efi crashed in a call to Ember: invalid memory access" in err
    assert "fault address 0x10" in err
    assert re.search(r"called from bad_getvariable\.efi\+0x[0-9a-f]+", err), err
    assert "a bug in Ember" not in err


def test_misaligned_stack_is_the_programs_fault(ember):
    """A program that calls a service with a misaligned stack makes Ember's code fault
    (aligned SSE accesses to its stack): the report blames the program and says why."""
    r = ember(program("misaligned_call"))
    err = r.stderr.decode()
    assert b"the firmware coped" not in r.stdout, "Ember's code did not fault: no test"
    assert r.returncode == 3, err
    assert "misaligned_call.efi crashed in a call to Ember" in err
    assert "misaligned_call.efi called Ember with a misaligned stack" in err
    assert "a bug in Ember" not in err


CRASHERS = ("null_pointer", "bad_getvariable", "stack_overflow", "misaligned_call")
ABORTED = "0x8000000000000015"  # EFI_ABORTED as %lasterror% shows it


def shell_running(ember, tmp_path, lines, *options):
    """The shell on an --esp holding the crashing programs, lines typed into it."""
    for name in CRASHERS + ("hello",):
        shutil.copy(program(name), tmp_path / f"{name}.efi")
    typed = "".join(line + "\n" for line in lines) + "exit\n"
    return ember(*options, "--esp", tmp_path, app("shell"), "-nostartup", "-noversion",
                 "-nomap", input=typed.encode(), timeout=60)


def test_keep_going_ends_only_the_crashing_program(ember, tmp_path):
    """Under --keep-going a program the shell started that crashes (in its own code, in
    Ember's code on a bad pointer or a misaligned call, by overflowing its stack) is
    reported and ended as Exit(EFI_ABORTED): the shell gets EFI_ABORTED and goes on."""
    lines = []
    for name in CRASHERS:
        lines += [f"{name}.efi", "echo status %lasterror%"]
    lines += ["hello.efi", "echo status %lasterror%"]
    r = shell_running(ember, tmp_path, lines, "--keep-going")
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 0, err
    assert out.count(f"status {ABORTED}") == len(CRASHERS), out
    assert "Hello World!" in out and "status 0x0" in out, out
    for name in CRASHERS:
        assert f"{name}.efi ends as if it had called Exit(EFI_ABORTED)" in err, err
    assert "stack_overflow.efi crashed: stack overflow" in err
    assert "null_pointer: still running" not in out


def test_crash_ends_everything_without_keep_going(ember, tmp_path):
    r = shell_running(ember, tmp_path, ["null_pointer.efi", "echo not reached"])
    assert r.returncode == 3
    assert b"null_pointer.efi crashed" in r.stderr
    assert b"not reached" not in r.stdout.replace(b"echo not reached", b"")


def test_keep_going_when_app_itself_crashes_is_still_status_3(ember):
    r = ember("--keep-going", program("null_pointer"))
    assert r.returncode == 3, r.stderr
    assert b"null_pointer.efi crashed" in r.stderr


def test_fifo_is_refused_not_waited_on(ember, tmp_path):
    """A FIFO as APP or as a --disk image: opening it for reading would wait for a
    writer forever; it is refused as not a regular file."""
    fifo = tmp_path / "fifo.efi"
    os.mkfifo(fifo)
    r = ember(fifo, timeout=20)
    assert r.returncode == 2 and b"not a regular file" in r.stderr, r.stderr
    r = ember("--disk", f"{fifo}:ro", program("hello"), timeout=20)
    assert r.returncode == 2 and b"not a regular file" in r.stderr, r.stderr


def test_gop_size_that_would_wrap_is_refused(ember):
    for size in ("4294967360x64", "64x4294967360", "18446744073709551680x64", "+64x64",
                 "64x64x", "x64", "64x", "63x64", "8193x64"):
        r = ember("--gop", size, program("gop_mode"))
        assert r.returncode == 2 and b"bad --gop size" in r.stderr, (size, r.stderr)
    r = ember("--gop", "64x8192", program("gop_mode"))
    assert r.returncode == 0 and b"Mode 0 is running at 64x8192" in r.stdout, r.stderr


def test_watchdog_resets_a_hung_program(ember):
    r = ember(program("exit_status"), "watchdog", timeout=20)
    assert r.returncode == 1
    assert b"watchdog timer expired" in r.stderr
    assert b"cold reset with EFI_TIMEOUT" in r.stderr


def test_trace_shows_service_calls(ember):
    r = ember("--trace", program("gop_mode"))
    assert r.returncode == 0
    lines = r.stderr.decode().splitlines()
    assert any(l.startswith("BS.HandleProtocol(") and "LoadedImage" in l and
               l.endswith("= EFI_SUCCESS") for l in lines), lines
    assert any(l.startswith("BS.LocateProtocol(GraphicsOutput, 0x0) -> 0x") for l in lines)
    assert any(l.startswith("RT.GetVariable(") for l in lines)
    # Without --trace, nothing of the sort.
    r = ember(program("gop_mode"))
    assert b"BS." not in r.stderr
