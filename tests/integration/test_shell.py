"""The Ember shell (apps/shell, build/apps/shell.efi) under ember-run.

Two kinds of tests:
- the script suite in shell_scripts/: startup.nsh runs every tests/*.nsh (with helpers in
  lib/) and each section of the output must equal expected/NAME.out. The same disk contents
  run on OVMF in test_shell_ovmf.py.
- interactive sessions: command lines piped into the shell's console, with files on an
  --esp directory (and a FAT image as --disk), checking the output and what the commands
  left on the host.
"""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import app, program

SCRIPTS = Path(__file__).resolve().parent / "shell_scripts"
SECTION = re.compile(r"^==== (.*)$", re.M)
PAUSE = "Press ENTER to continue or 'Q' to break:"


def clean(data):
    return data.decode("utf-8", "replace").replace("\r", "")


def run_shell(ember, esp, lines, *args, timeout=60, extra=()):
    """Types lines (then exit) into shell.efi on --esp esp; returns (stdout, stderr, rc)."""
    typed = "".join(line + "\n" for line in lines) + "exit\n"
    result = ember(*extra, "--esp", esp, app("shell"), "-nostartup", "-noversion", "-nomap",
                   *args, input=typed.encode(), timeout=timeout)
    return clean(result.stdout), clean(result.stderr), result.returncode


def outputs(stdout):
    """The output of each typed command: {command line: [output lines]} (last one wins)."""
    result, current = {}, None
    for line in stdout.split("\n"):
        m = re.match(r"^(?:fs\d+:\\[^>]*|Shell)> (.*)$", line)
        if m:
            current = m.group(1)
            result[current] = []
        elif current is not None:
            result[current].append(line)
    return result


def sections(stdout):
    parts = SECTION.split(stdout)
    return {parts[i].split("\\")[-1]: parts[i + 1].lstrip("\n") for i in range(1, len(parts), 2)}


def copy_suite(dest):
    """The suite's files: startup.nsh, tests\\, lib\\ and bin\\ (the gnu-efi programs)."""
    shutil.copy(SCRIPTS / "startup.nsh", dest)
    shutil.copytree(SCRIPTS / "tests", dest / "tests")
    shutil.copytree(SCRIPTS / "lib", dest / "lib")
    (dest / "bin").mkdir()
    for name in ("shell_client", "exit_status"):
        shutil.copy(program(name), dest / "bin" / f"{name}.efi")


@pytest.fixture
def esp(tmp_path):
    d = tmp_path / "esp"
    d.mkdir()
    return d


# ---- The script suite ----

@pytest.fixture(scope="module")
def suite_output(tmp_path_factory):
    from conftest import run_ember
    esp = tmp_path_factory.mktemp("suite")
    copy_suite(esp)
    result = run_ember("--esp", esp, app("shell"), "-nodelay", "-noversion", "-nomap",
                       timeout=120)
    return clean(result.stdout), clean(result.stderr), result.returncode, esp


SCRIPT_NAMES = sorted(p.name for p in (SCRIPTS / "tests").glob("*.nsh"))


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_script_suite(suite_output, name):
    stdout, stderr, rc, _ = suite_output
    got = sections(stdout)
    assert name in got, f"{name} did not run\nstdout:\n{stdout}\nstderr:\n{stderr}"
    want = (SCRIPTS / "expected" / name.replace(".nsh", ".out")).read_text()
    assert got[name] == want, f"{name}: stderr:\n{stderr}"


def test_script_suite_ends_with_reset(suite_output):
    stdout, stderr, rc, esp = suite_output
    assert stdout.rstrip().endswith("==== end"), stdout[-500:]
    assert rc == 0, stderr
    assert stderr == "", stderr
    # The scripts clean up after themselves.
    assert sorted(p.name for p in esp.iterdir()) == ["bin", "lib", "startup.nsh", "tests"]


# ---- Interactive use ----

def test_echo_set_and_lasterror(ember, esp):
    out, err, rc = run_shell(ember, esp, [
        "echo hello   world", "set -v color blue", "echo %color%", "set color",
        "set -d color", "echo [%color%]", "nonexistent_cmd", "echo %lasterror%",
        "echo %lasterror%", "set -v 9bad x", "set lasterror 1"])
    o = outputs(out)
    assert o["echo hello   world"] == ["hello world"]
    assert o["echo %color%"] == ["blue"]
    assert o["set color"] == ["color = blue"]
    assert o["echo [%color%]"] == ["[]"]
    assert o["echo %lasterror%"] == ["0x0"]
    assert "'nonexistent_cmd' is not a command, a program or a script" in err
    assert "set: '9bad' is not a variable name" not in err  # digits are fine in names
    assert "set: cannot set lasterror: it is read-only" in err
    assert rc == 0


def test_lasterror_after_failure(ember, esp):
    out, err, _ = run_shell(ember, esp, ["ls nothing_here", "echo %lasterror%"])
    assert outputs(out)["echo %lasterror%"] == ["0x800000000000000e"]
    assert "ls: nothing_here: no such file or directory" in err


def test_ls_lists_sorted_with_sizes(ember, esp):
    (esp / "b.txt").write_bytes(b"12345")
    (esp / "A.txt").write_bytes(b"")
    (esp / "sub").mkdir()
    (esp / "sub" / "deep.bin").write_bytes(b"x" * 1234)
    out, err, _ = run_shell(ember, esp, ["ls", "dir *.txt", "ls -r", "ls -sfo sub", "ls -x"])
    o = outputs(out)
    row = r"\d\d/\d\d/\d{4}  \d\d:\d\d "
    listing = o["ls"]
    assert listing[0] == "Directory of: fs0:\\"
    assert re.match(row + r"\s+0  [-rhsa]{4}  A\.txt$", listing[1]), listing
    assert re.match(row + r"\s+5  [-rhsa]{4}  b\.txt$", listing[2]), listing
    assert re.match(row + r"<DIR>\s+\d+  [-rhsa]{4}  sub$", listing[3]), listing
    assert re.match(r"^\s+2 File\(s\)\s+5 bytes$", listing[4]), listing
    assert re.match(r"^\s+1 Dir\(s\)$", listing[5]), listing
    assert [l.split()[-1] for l in o["dir *.txt"][1:3]] == ["A.txt", "b.txt"]
    assert "Directory of: fs0:\\sub" in o["ls -r"]
    assert any(l.endswith("  deep.bin") and " 1234  " in l for l in o["ls -r"])
    sfo = o["ls -sfo sub"]
    assert sfo[0] == 'ShellCommand,"ls"'
    assert sfo[1].startswith('FileInfo,"fs0:\\sub\\deep.bin","1234",')
    assert "ls: unknown option '-x'" in err


def test_cd_and_prompt(ember, esp):
    (esp / "one" / "two").mkdir(parents=True)
    out, err, _ = run_shell(ember, esp, [
        "cd one\\two", "cd", "cd ..", "cd \\", "cd one/two", "cd ..\\..", "cd nowhere",
        "cd one\\two\\..\\..\\..", "echo %cwd%"])
    assert "fs0:\\one\\two> cd" in out
    assert outputs(out)["cd"] == ["fs0:\\one\\two"]
    assert "fs0:\\one> cd \\" in out
    assert "cd: nowhere: no such file or directory" in err
    assert "cd: one\\two\\..\\..\\..: no such file or directory" in err
    assert outputs(out)["echo %cwd%"] == ["fs0:\\"]


def test_file_commands_change_the_volume(ember, esp):
    (esp / "src.txt").write_bytes(b"source\n")
    (esp / "tree" / "inner").mkdir(parents=True)
    (esp / "tree" / "inner" / "leaf.txt").write_bytes(b"leaf")
    out, err, _ = run_shell(ember, esp, [
        "mkdir made made\\deeper", "cp src.txt made", "cp src.txt copy.txt", "copy -q src.txt c2.txt",
        "cp -r tree made\\tree2", "mv copy.txt moved.txt", "mv moved.txt made\\deeper",
        "rm c2.txt", "del tree", "md x", "rd x", "cp tree nowhere", "mkdir made",
        "rm \\", "cp src.txt src.txt"])
    assert (esp / "made" / "src.txt").read_bytes() == b"source\n"
    assert (esp / "made" / "tree2" / "inner" / "leaf.txt").read_bytes() == b"leaf"
    assert (esp / "made" / "deeper" / "moved.txt").read_bytes() == b"source\n"
    for gone in ("copy.txt", "c2.txt", "tree", "x", "moved.txt"):
        assert not (esp / gone).exists(), gone
    assert "Copying fs0:\\src.txt -> made\\src.txt" in out
    assert "cp: tree: no such file or directory" in err
    assert "mkdir: made already exists" in err
    assert "rm: fs0:\\ is the current directory or a root" in err
    assert "cp: fs0:\\src.txt cannot be copied onto itself" in err


def test_type_and_hexdump(ember, esp):
    (esp / "utf8.txt").write_bytes("caf\u00e9\nline two\n".encode())
    (esp / "ucs2.txt").write_bytes(b"\xff\xfeh\x00i\x00\r\x00\n\x00")
    (esp / "bin.dat").write_bytes(bytes(range(20)))
    out, err, _ = run_shell(ember, esp, [
        "type utf8.txt", "cat ucs2.txt", "hexdump bin.dat", "hexdump -s 16 bin.dat",
        "hexdump -n 3 bin.dat", "type missing.txt", "more utf8.txt ucs2.txt",
        "more missing.txt"])
    o = outputs(out)
    assert o["type utf8.txt"] == ["caf\u00e9", "line two"]
    assert o["cat ucs2.txt"] == ["hi"]
    assert o["hexdump bin.dat"] == [
        "00000000: 00 01 02 03 04 05 06 07-08 09 0a 0b 0c 0d 0e 0f  *................*",
        "00000010: 10 11 12 13                                      *....            *"]
    assert o["hexdump -s 16 bin.dat"] == [o["hexdump bin.dat"][1]]
    assert o["hexdump -n 3 bin.dat"] == [
        "00000000: 00 01 02                                         *...             *"]
    assert "type: missing.txt: no such file or directory" in err
    # more prints files as type does, without pauses when nobody types on the console.
    assert o["more utf8.txt ucs2.txt"] == ["caf\u00e9", "line two", "hi"]
    assert "more: missing.txt: no such file or directory" in err


def test_redirections_write_files(ember, esp):
    (esp / "host.txt").write_bytes(b"from host\n")
    out, err, _ = run_shell(ember, esp, [
        "echo hi > u.txt", "echo again >> u.txt", "echo hi >a a.txt", "echo more >> host.txt",
        "ls missing 2> e.txt", "ls missing 2>a e2.txt", "echo x > nul",
        "echo val >v captured", "echo [%captured%]", "type < host.txt", "echo \"quoted > x\"",
        "echo a ^> b"])
    assert (esp / "u.txt").read_bytes() == "\ufeffhi\r\nagain\r\n".encode("utf-16-le")
    assert (esp / "a.txt").read_bytes() == b"hi\r\n"
    assert (esp / "host.txt").read_bytes() == b"from host\nmore\r\n"
    assert (esp / "e2.txt").read_bytes() == b"ls: missing: no such file or directory\r\n"
    assert (esp / "e.txt").read_bytes()[:2] == b"\xff\xfe"
    assert not (esp / "nul").exists()
    o = outputs(out)
    assert o["echo [%captured%]"] == ["[val]"]
    assert o["type < host.txt"] == ["from host", "more"]
    assert o["echo \"quoted > x\""] == ["quoted > x"]
    assert o["echo a ^> b"] == ["a > b"]
    assert err == ""


def test_pipes(ember, esp):
    (esp / "f.txt").write_bytes(b"line 1\nline 2\n")
    out, err, _ = run_shell(ember, esp, ["type f.txt | more", "echo one two | type",
                                         "ls | more | type", "more", "| more"])
    o = outputs(out)
    assert o["type f.txt | more"] == ["line 1", "line 2"]
    assert o["echo one two | type"] == ["one two"]
    assert "Directory of: fs0:\\" in o["ls | more | type"]
    assert "more: name a file, or send text into it" in err
    assert "syntax error: a command is missing next to '|'" in err


def test_help_and_ver(ember, esp):
    out, err, _ = run_shell(ember, esp, ["help", "help ls", "help dir", "help e*", "help zz*",
                                         "ver"])
    o = outputs(out)
    names = [l.split()[0] for l in o["help"] if " - " in l]
    for cmd in ("alias", "cd", "cls", "cp", "echo", "exit", "for", "goto", "help", "hexdump",
                "if", "ls", "map", "mkdir", "more", "mv", "reset", "rm", "set", "shift",
                "stall", "type", "ver"):
        assert cmd in names, cmd
    assert names == sorted(names)
    assert o["help ls"][0].startswith("ls - ")
    assert any(l.startswith("ls [-r] [-a]") for l in o["help ls"])
    assert o["help dir"] == ["dir is an alias for: ls"]
    matched = [l.split()[0] for l in o["help e*"]]
    assert {"echo", "else", "endfor", "endif", "exit"} <= set(matched)
    assert all(name.startswith("e") for name in matched)
    assert "help: no command matches zz*" in err
    assert o["ver"][0] == "Ember Shell 0.1"
    assert o["ver"][2].startswith("UEFI 2.10 (Ember")


def test_aliases(ember, esp):
    out, err, _ = run_shell(ember, esp, [
        "alias -v ll \"ls -r\"", "alias ll", "alias -d ll", "alias ll", "alias",
        "alias -v ls \"echo ls is now echo\"", "ls"])
    o = outputs(out)
    assert o["alias ll"] == []
    assert "alias: ll is not an alias" in err
    assert "    dir : ls" in o["alias"] or "  dir : ls" in o["alias"]
    assert o["ls"] == ["ls is now echo"]


def test_line_editing_keys(ember, esp):
    (esp / "unique_name.txt").write_bytes(b"tabbed\n")
    left, home, end, delete, insert, up = "\x1b[D", "\x1b[H", "\x1b[F", "\x1b[3~", "\x1b[2~", "\x1b[A"
    out, err, _ = run_shell(ember, esp, [
        "cho homed" + home + "e",
        "echo abcX\x7f\x7fd",
        "echo xyz" + left + left + delete,
        "echo history one",
        up,
        "echo end" + left + insert + "X",
        "echo ab" + home + end + "Z",
        "type uniq\t",
        "hexd\t unique\t",
    ])
    lines = out.split("\n")
    assert "homed" in lines
    assert "abd" in lines
    assert "xz" in lines
    assert lines.count("history one") == 2
    assert "enX" in lines
    assert "abZ" in lines
    assert lines.count("tabbed") == 1
    assert any(l.startswith("00000000: 74 61 62 62 65 64") for l in lines)
    assert err == ""


def test_startup_nsh(ember, esp):
    (esp / "startup.nsh").write_text("@echo -off\necho from startup %0\n")
    shutil.copy(app("shell"), esp / "shell.efi")
    typed = "echo after\nexit\n".encode()
    result = ember("--esp", esp, esp / "shell.efi", "-nodelay", "-noversion", "-nomap",
                   input=typed)
    out = clean(result.stdout)
    assert "from startup fs0:\\startup.nsh" in out
    assert out.index("from startup") < out.index("> echo after")
    # Any key during the countdown skips it (the key is taken).
    result = ember("--esp", esp, esp / "shell.efi", "-delay", "3", "-noversion", "-nomap",
                   input=b"xexit\n")
    out = clean(result.stdout)
    assert "Press any key to skip startup.nsh in 3 seconds" in out
    assert "startup.nsh skipped" in out and "from startup" not in out
    assert "> exit" in out
    # Without a key the countdown runs out and the script runs.
    (esp / "startup.nsh").write_text("@echo -off\necho ran after countdown\nexit 0\n")
    result = ember("--esp", esp, esp / "shell.efi", "-delay", "1", "-noversion", "-nomap",
                   timeout=30)
    assert "ran after countdown" in clean(result.stdout)
    result = ember("--esp", esp, esp / "shell.efi", "-nostartup", "-noversion", "-nomap",
                   input=b"exit\n")
    assert "countdown" not in clean(result.stdout)


def test_command_on_the_shells_command_line(ember, esp):
    result = ember("--esp", esp, app("shell"), "-noversion", "-nomap", "-exit", "echo",
                   "given", "on", "the", "command", "line")
    assert clean(result.stdout) == "given on the command line\n"
    assert result.returncode == 0


def test_programs_and_the_shell_protocol(ember, esp):
    for name in ("shell_client", "exit_status"):
        shutil.copy(program(name), esp / f"{name}.efi")
    (esp / "data.txt").write_bytes(b"stored")
    out, err, _ = run_shell(ember, esp, [
        "shell_client args \"a b\" c", "shell_client env uefishellversion",
        "shell_client setenv fromprog 12", "echo %fromprog%", "shell_client cwd",
        "shell_client files *.efi", "shell_client write w.txt written", "shell_client read w.txt",
        "shell_client delete w.txt", "shell_client exec echo nested", "shell_client info",
        "shell_client map fs0:", "shell_client alias dir", "shell_client stdout direct > s.txt",
        "type s.txt", "shell_client status 0x800000000000000E", "echo %lasterror%",
        "exit_status not-found", "echo %lasterror%", "exit_status some args > args.txt",
        "type args.txt", "exit_status exit", "echo %lasterror%", "shell_client.efi info | more",
        "fs0:\\shell_client", "nothere.efi"])
    o = outputs(out)
    assert o["shell_client args \"a b\" c"] == [
        "argc 4", "argv[0] [shell_client]", "argv[1] [args]", "argv[2] [a b]", "argv[3] [c]"]
    assert o["shell_client env uefishellversion"] == ["env uefishellversion = 2.2"]
    assert o["echo %fromprog%"] == ["12"]
    assert o["shell_client cwd"] == ["cwd fs0:\\"]
    assert o["shell_client files *.efi"] == [
        "FindFiles: Success", "file fs0:\\exit_status.efi (exit_status.efi)",
        "file fs0:\\shell_client.efi (shell_client.efi)", "FreeFileList: Success"]
    assert o["shell_client read w.txt"][1] == "size 7, ReadFile: Success, data [written]"
    assert o["shell_client delete w.txt"] == ["DeleteFileByName: Success"]
    assert not (esp / "w.txt").exists()
    assert o["shell_client exec echo nested"] == [
        "nested", "Execute: Success, command returned Success"]
    assert o["shell_client info"] == ["version 2.2 batch 0 root 1 pagebreak 0"]
    assert o["shell_client map fs0:"][1:] == [
        "GetMapFromDevicePath: fs0:, rest is end: 1", "file path round trip: fs0:\\dir\\x.efi"]
    assert o["shell_client alias dir"] == ["alias dir = ls"]
    assert o["type s.txt"] == ["direct"]
    assert o["echo %lasterror%"] == ["0x8000000000000015"]  # EFI_ABORTED through Exit()
    assert o["type args.txt"] == ["args: [exit_status some args]"]
    assert o["shell_client.efi info | more"] == ["version 2.2 batch 0 root 1 pagebreak 0"]
    assert o["fs0:\\shell_client"][0] == "argc 1"
    assert "'nothere.efi' is not a command, a program or a script" in err


def test_program_status_in_lasterror(ember, esp):
    shutil.copy(program("exit_status"), esp / "exit_status.efi")
    out, _, _ = run_shell(ember, esp, ["exit_status not-found", "echo %lasterror%",
                                       "exit_status success", "echo %lasterror%"])
    assert out.count("0x800000000000000e") == 1
    assert outputs(out)["echo %lasterror%"] == ["0x0"]


def fat_image(path, files):
    """A 4 MiB FAT disk without partitions holding files {name: bytes}."""
    with open(path, "wb") as f:
        f.truncate(4 * 1024 * 1024)
    env = {"MTOOLS_SKIP_CHECK": "1"}
    subprocess.run(["mformat", "-i", path, "-v", "SECOND", "::"], check=True, env=env)
    for name, data in files.items():
        src = path.parent / name
        src.write_bytes(data)
        subprocess.run(["mcopy", "-i", path, src, "::/" + name], check=True, env=env)


@pytest.mark.skipif(not shutil.which("mformat"), reason="mtools not installed")
def test_map_and_switching_file_systems(ember, esp, tmp_path):
    img = tmp_path / "fat.img"
    fat_image(img, {"ONDISK.TXT": b"on the disk\n"})
    out, err, _ = run_shell(ember, esp, [
        "map", "map -r", "map fs1", "fs1:", "type ondisk.txt", "cd", "fs0:", "cd fs1:\\",
        "fs9:", "blk0:", "map nothing"], extra=("--disk", img))
    o = outputs(out)
    table = o["map"]
    assert table[0] == "Mapping table"
    assert re.match(r"^\*\s+fs0: VenHw\(", table[1]), table
    assert re.match(r"^\s+fs1: ", table[2]), table
    assert any(re.match(r"^\s+blk0: ", l) for l in table)
    assert o["map -r"] == table
    assert o["type ondisk.txt"] == ["on the disk"]
    assert "fs1:\\> type ondisk.txt" in out
    assert "fs9: is not a mapping (map lists them)" in err
    assert "blk0: is not a file system" in err
    assert "map: nothing is not a mapping" in err


def test_nonvolatile_variables_and_aliases_persist(ember, esp, tmp_path):
    store = tmp_path / "vars.fd"
    out, err, _ = run_shell(ember, esp, ["set kept value one", "alias keep \"echo kept\""],
                            extra=("--vars", store))
    assert err == ""
    out, err, _ = run_shell(ember, esp, ["echo %kept%", "keep", "set", "set -d kept"],
                            extra=("--vars", store))
    o = outputs(out)
    assert o["echo %kept%"] == ["value one"]
    assert o["keep"] == ["kept"]
    assert "* kept = value one" in o["set"]
    out, _, _ = run_shell(ember, esp, ["echo [%kept%]"], extra=("--vars", store))
    assert outputs(out)["echo [%kept%]"] == ["[]"]


def test_exit_codes_and_reset(ember, esp):
    out, _, rc = run_shell(ember, esp, ["exit 0x800000000000000E"])
    assert rc == 1
    # exit without /b in a script ends the whole shell.
    (esp / "bye.nsh").write_text("@echo -off\necho leaving\nexit\necho never\n")
    out, _, rc = run_shell(ember, esp, ["bye.nsh", "echo after"])
    assert "leaving" in out and "never" not in out and "> echo after" not in out
    assert rc == 0
    out, _, rc = run_shell(ember, esp, ["echo before", "reset -s", "echo after"])
    assert "before" in out and "\nafter" not in out
    assert rc == 0


def test_cls_and_stall(ember, esp):
    out, err, rc = run_shell(ember, esp, ["cls", "cls 1", "cls 9", "stall 1000", "stall x"])
    assert "cls: the background colour is a number from 0 to 7" in err
    assert "stall: give the time in microseconds" in err
    assert rc == 0


def test_ctrl_c_stops_a_script(ember, esp):
    (esp / "startup.nsh").write_text(
        "@echo -off\nfor %i run (1 100000)\n  stall 1000\nendfor\necho loop finished\n")
    result = ember("--esp", esp, app("shell"), "-nodelay", "-noversion", "-nomap",
                   input=b"\x03exit\n", timeout=60)
    assert re.search(r"startup\.nsh line [34]: interrupted; the script stops",
                     clean(result.stderr)), clean(result.stderr)
    assert "loop finished" not in clean(result.stdout)
    assert result.returncode == 0
