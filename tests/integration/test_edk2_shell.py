"""The EDK2 UEFI Shell of Debian's ovmf package on ember-run (issue 15): extracted from
OVMF_CODE_4M.fd at test time, loaded from a FAT disk image (--disk) that also holds its
startup.nsh, it shows its banner, runs the script and the commands help, map, ls, dh,
drivers, devices, memmap, dmpstore and bcfg boot dump, and powers off. What each command
prints is checked for the parts that depend on the Shell and the disk, not on the
firmware (tests/qemu/test_edk2_shell.py compares them with OVMF's)."""
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import edk2_shell  # noqa: E402

pytestmark = pytest.mark.skipif(edk2_shell.missing() is not None,
                                reason=str(edk2_shell.missing()))


@pytest.fixture(scope="module")
def shell_run(tmp_path_factory):
    from conftest import run_ember
    work = tmp_path_factory.mktemp("edk2-shell")
    shell = edk2_shell.extract_shell(work / "Shell.efi")
    disk = edk2_shell.make_disk(work / "disk.img", shell)
    # A key for the Shell's countdown ("any other key to continue"), then nothing more:
    # the input ends, and the script's reset -s ends ember-run.
    run = run_ember("--disk", disk, r"fs0:\EFI\BOOT\BOOTX64.EFI", input=b"\r", timeout=120)
    out = run.stdout.decode("utf-8", "replace")
    return run, out, edk2_shell.sections(out)


def test_shell_starts_and_runs_startup_nsh(shell_run):
    run, out, got = shell_run
    assert "UEFI Interactive Shell v2.2" in out, out[-3000:]
    assert "UEFI v2.100 (Ember," in out
    assert "startup.nsh running" in got, out[-3000:]
    assert "end" in got, out[-3000:]


def test_help_lists_the_commands(shell_run):
    _, out, got = shell_run
    help_text = got["help"]
    for name in ("bcfg", "dh", "dmpstore", "drivers", "devices", "ls", "map", "memmap"):
        assert re.search(rf"^{name} +- ", help_text, re.M), help_text
    assert "Help usage:help [cmd|pattern|special]" in help_text


def test_map_and_ls_see_the_disk(shell_run):
    _, out, got = shell_run
    assert re.search(r"^ +FS0: Alias\(s\):", got["map"], re.M), got["map"]
    assert "BLK0" in got["map"], got["map"]
    ls = got["ls"]
    assert "Directory of: FS0:\\" in ls, ls
    assert re.search(r"<DIR> +\d+ +EFI$", ls, re.M), ls
    assert re.search(r" 32 +hello\.txt$", ls, re.M), ls
    assert re.search(r"^ +2 File\(s\) .* bytes$", ls, re.M), ls


def test_dh_drivers_devices(shell_run):
    _, out, got = shell_run
    assert got["dh"].startswith("Handle dump"), got["dh"]
    assert re.search(r"^[0-9A-F]+: .*LoadedImage\(\\EFI\\BOOT\\BOOTX64\.EFI\)", got["dh"],
                     re.M), got["dh"]
    assert "FAT File System Driver" in got["drivers"], got["drivers"]
    assert re.search(r"^== ======== = = = == == =+ =+$", got["drivers"], re.M)
    assert re.search(r"^==== = = = == == === =+$", got["devices"], re.M), got["devices"]


def test_memmap_dmpstore_bcfg(shell_run):
    _, out, got = shell_run
    memmap = got["memmap"]
    assert memmap.startswith("Type       Start            End              # Pages"), memmap
    assert re.search(r"^Total Memory: +1,024 MB", memmap, re.M), memmap
    assert re.search(r"^Variable NV\+RT\+BS 'EFIGlobalVariable:PlatformLang' DataSize = 0x06$",
                     got["dmpstore"], re.M), got["dmpstore"]
    # ember-run's store starts empty: the option bcfg added is the only one.
    assert got["bcfg boot add"].split() == "Target = 0000. bcfg: Add Boot0000 as 0".split(), \
        got["bcfg boot add"]
    assert got["bcfg boot dump"].startswith(
        "Option: 00. Variable: Boot0000   \n  Desc    - edk2 shell test\n"
        "  DevPath - VenHw(060EEBC7-D6AD-4E41-A68C-ACB54B135D80,00000000)/\\hello.txt\n"), \
        got["bcfg boot dump"]


def test_shell_over_the_console_splitter(ember, tmp_path):
    """With --screen, ConOut is the console splitter: the Shell's console logger (a
    SimpleTextOut on the Shell's image handle that writes to ConOut) must not become one of
    its devices, or ConOut's text loops back into ConOut until the stack runs out."""
    shell = edk2_shell.extract_shell(tmp_path / "Shell.efi")
    run = ember("--screen", "--esp", tmp_path, shell, input=b"\rver\rexit\r", timeout=120)
    out = run.stdout.decode("utf-8", "replace")
    assert run.returncode == 0, out[-3000:] + run.stderr.decode("utf-8", "replace")[-3000:]
    assert out.count("UEFI v2.100 (Ember,") == 2, out[-3000:]
