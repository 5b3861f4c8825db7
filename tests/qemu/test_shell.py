"""The Ember shell (build/apps/shell.efi) on Ember's QEMU firmware: the script suite of
tests/integration/shell_scripts runs from startup.nsh on a virtio disk and gives the same
output as under ember-run and OVMF; and typing over the serial terminal reaches the line
editor (keys, cursor movement, history)."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests" / "integration"))
SCRIPTS = ROOT / "tests" / "integration" / "shell_scripts"
SHELL = BUILD / "apps" / "shell.efi"
PROGRAMS = BUILD / "tests" / "programs"


def suite_disk(path, work, programs=PROGRAMS):
    """A FAT disk (no partitions) with the suite: startup.nsh, tests\\, lib\\, bin\\ (the
    test programs, from programs: the x86-64 ones unless told)."""
    files = Path(work) / "files"
    files.mkdir()
    shutil.copy(SCRIPTS / "startup.nsh", files)
    shutil.copytree(SCRIPTS / "tests", files / "tests")
    shutil.copytree(SCRIPTS / "lib", files / "lib")
    (files / "bin").mkdir()
    for name in ("shell_client", "exit_status"):
        shutil.copy(programs / f"{name}.efi", files / "bin")
    subprocess.run(["truncate", "-s", "16M", str(path)], check=True)
    subprocess.run(["mkfs.vfat", "-n", "SUITE", str(path)], check=True, capture_output=True)
    for entry in sorted(files.iterdir()):
        subprocess.run(["mcopy", "-s", "-i", str(path), str(entry), "::/" + entry.name],
                       check=True)
    return path


def test_script_suite_on_ember_firmware(machine, tmp_path):
    disk = suite_disk(tmp_path / "suite.img", tmp_path)
    m = machine(app=SHELL, args="shell.efi -nodelay -noversion",
                disks=[f"file={disk},format=raw,if=virtio"], timeout=120)
    m.expect(r"^==== end$")
    m.wait_exit()
    parts = re.split(r"^==== (.*)$", m.text, flags=re.M)
    got = {parts[i].split("\\")[-1]: parts[i + 1].lstrip("\n") for i in range(1, len(parts), 2)}
    for expected in sorted((SCRIPTS / "expected").glob("*.out")):
        name = expected.name.replace(".out", ".nsh")
        assert name in got, f"{name} did not run:\n{m.text[-3000:]}"
        assert got[name] == expected.read_text(), name


def test_typing_over_the_serial_terminal(machine):
    m = machine(app=SHELL, args="shell.efi -nostartup -noversion -nomap")
    m.expect(r"Shell> $")
    m.send("echo typed over serial\r")
    m.expect(r"^typed over serial$")
    # Home, then insert at the start; Left and Delete; Up recalls the last line.
    m.send("cho moved\x1b[He\r")
    m.expect(r"^moved$")
    m.send("echo abXc\x1b[D\x1b[D\x1b[3~\r")
    m.expect(r"^abc$")
    m.send("\x1b[A\r")
    m.expect(r"(?s)^abc$.*^abc$")
    m.send("ver\r")
    m.expect(r"^UEFI 2\.\d+ \(Ember")
    m.send("reset -s\r")
    m.wait_exit()
