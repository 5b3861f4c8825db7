"""The EDK2 UEFI Shell of Debian's ovmf package, for the tests that run it on ember-run
(tests/integration/test_edk2_shell.py), on Ember in QEMU and on OVMF
(tests/qemu/test_edk2_shell.py): Shell.efi is extracted from OVMF_CODE_4M.fd at test time
(scripts/extract-edk2-shell, never committed) and put with one startup.nsh on a FAT disk
that every run uses, so that listings of it compare byte for byte."""
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
EXTRACT = ROOT / "scripts" / "extract-edk2-shell"

# The commands of issue 15, each after a marker line; the script ends by powering off.
COMMANDS = ["help", "map", "ls", "dh", "drivers", "devices", "memmap", "dmpstore",
            "bcfg boot add", "bcfg boot dump"]
# What each section runs, when more than its name.
COMMAND_LINES = {"bcfg boot add": r'bcfg boot add 9 fs0:\hello.txt "edk2 shell test"'}
STARTUP = "\r\n".join(
    ["echo -off", "fs0:", "echo section: startup.nsh running"]
    + [line for c in COMMANDS for line in (f"echo section: {c}", COMMAND_LINES.get(c, c))]
    + ["echo section: end", "reset -s", ""])
MARKER = re.compile(r"^section: (.*)$", re.M)
PROMPT_LINE = re.compile(r"^FS0:\\> .*$", re.M)


def missing():
    """Why the EDK2 Shell cannot be had here, or None."""
    if not OVMF_CODE.exists():
        return f"{OVMF_CODE} missing (Debian package ovmf)"
    if not shutil.which("mcopy"):
        return "mtools missing"
    return None


def extract_shell(dest):
    """Writes Shell.efi from OVMF's firmware image to dest."""
    subprocess.run([str(EXTRACT), str(OVMF_CODE), str(dest)], check=True)
    assert Path(dest).read_bytes()[:2] == b"MZ"
    return Path(dest)


def make_disk(path, shell):
    """A 32 MiB FAT image (no partition table): the Shell as \\EFI\\BOOT\\BOOTX64.EFI (so
    both firmwares boot it as removable media), startup.nsh beside it and in the root (where
    the Shell looks when it was not loaded from a file), and a small file for ls."""
    work = Path(path).parent
    (work / "startup.nsh").write_bytes(STARTUP.encode())
    (work / "hello.txt").write_bytes(b"hello from the EDK2 shell test\r\n")
    with open(path, "wb") as f:
        f.truncate(32 * 1024 * 1024)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    # Fixed times, so that ls prints the same dates wherever the disk is made.
    for cmd in (["mformat", "-i", path, "-T", "65536", "-N", "12345678", "::"],
                ["mmd", "-i", path, "::/EFI", "::/EFI/BOOT"],
                ["mcopy", "-m", "-i", path, shell, "::/EFI/BOOT/BOOTX64.EFI"],
                ["mcopy", "-m", "-i", path, work / "startup.nsh", "::/EFI/BOOT/startup.nsh"],
                ["mcopy", "-m", "-i", path, work / "startup.nsh", "::/startup.nsh"],
                ["mcopy", "-m", "-i", path, work / "hello.txt", "::/hello.txt"]):
        subprocess.run([str(c) for c in cmd], check=True, env=env, stdout=subprocess.DEVNULL)
    return Path(path)


def sections(text):
    """The output of each command by name (the lines between its marker and the next),
    without the echo of the command line itself."""
    text = text.replace("\r\n", "\n")
    marks = list(MARKER.finditer(text))
    out = {}
    for m, nxt in zip(marks, marks[1:] + [None]):
        body = text[m.end() + 1:nxt.start() if nxt else len(text)]
        out[m.group(1).strip()] = PROMPT_LINE.sub("", body).strip("\n")
    return out
