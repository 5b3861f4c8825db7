"""The EDK2 UEFI Shell of Debian's ovmf package on Ember in QEMU and on OVMF (issue 15):
both firmwares boot the same FAT disk, whose \\EFI\\BOOT\\BOOTX64.EFI is the Shell
(extracted from OVMF_CODE_4M.fd at test time) and whose startup.nsh runs help, map, ls,
dh, drivers, devices, memmap, dmpstore and bcfg boot dump, then powers off. What does not
depend on the firmware matches OVMF's output exactly (help, ls, the tables' headers); the
rest is the firmware's own (names, addresses, device lists) and is checked for form."""
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import edk2_shell  # noqa: E402

pytestmark = pytest.mark.skipif(edk2_shell.missing() is not None,
                                reason=str(edk2_shell.missing()))


@pytest.fixture(scope="module")
def disk(tmp_path_factory):
    work = tmp_path_factory.mktemp("edk2-shell")
    shell = edk2_shell.extract_shell(work / "Shell.efi")
    return edk2_shell.make_disk(work / "disk.img", shell)


@pytest.fixture(scope="module")
def outputs(disk):
    """The Shell's sections on Ember and on OVMF (one boot each)."""
    from conftest import Machine
    got = {}
    for firmware in ("bios", "ovmf"):
        with Machine(firmware=firmware, timeout=300, disks=[[
                "-drive", f"file={disk},format=raw,if=none,id=d0,readonly=on",
                "-device", "virtio-blk-pci,drive=d0"]]) as m:
            m.expect(r"UEFI Interactive Shell v2\.2")
            # The script ends with reset -s: wait for QEMU to end, then read everything
            # (an expect of the last line can miss it when QEMU ends just after it).
            m.wait_exit(300)
            assert re.search(r"^section: end$", m.text, re.M), m.text[-3000:]
            got[firmware] = (m.text, edk2_shell.sections(m.text))
    return got


def test_shell_starts_on_ember_and_runs_startup_nsh(outputs):
    text, got = outputs["bios"]
    assert "UEFI v2.100 (Ember," in text, text[-3000:]
    assert "startup.nsh running" in got and "end" in got, text[-3000:]
    assert set(edk2_shell.COMMANDS) <= set(got), text[-3000:]


# OVMF's own commands, from drivers of its firmware volume (EFI_SHELL_DYNAMIC_COMMAND_PROTOCOL).
OVMF_DYNAMIC_COMMANDS = {"http", "initrd", "tftp"}


def test_help_ls_and_map_equal_ovmf(outputs):
    ember, ovmf = outputs["bios"][1], outputs["ovmf"][1]
    # help: the same lines, but for the commands OVMF's firmware adds to the Shell.
    ember_lines, ovmf_lines = ember["help"].splitlines(), ovmf["help"].splitlines()
    extra = [line for line in ovmf_lines if line not in ember_lines]
    assert {line.split()[0] for line in extra} == OVMF_DYNAMIC_COMMANDS, extra
    assert [line for line in ovmf_lines if line not in extra] == ember_lines
    assert ember["ls"] == ovmf["ls"]
    assert ember["map"] == ovmf["map"]


def header(text, lines):
    return text.splitlines()[:lines]


def test_tables_have_ovmf_form(outputs):
    ember, ovmf = outputs["bios"][1], outputs["ovmf"][1]
    # drivers and devices: the same column headers; the rows are each firmware's drivers.
    assert header(ember["drivers"], 5) == header(ovmf["drivers"], 5)
    assert header(ember["devices"], 5) == header(ovmf["devices"], 5)
    assert "Virtio Block Driver" in ember["drivers"], ember["drivers"]
    # memmap: the same header and summary lines, the firmware's own ranges.
    assert header(ember["memmap"], 1) == header(ovmf["memmap"], 1)
    summary = re.compile(r"^ *([A-Za-z_ ]+?) *:", re.M)
    tail = lambda t: summary.findall(t[t.index("Reserved"):])  # noqa: E731
    assert tail(ember["memmap"]) == tail(ovmf["memmap"])
    assert ember["dh"].startswith("Handle dump") and ovmf["dh"].startswith("Handle dump")


def test_variables_and_boot_options(outputs):
    ember, ovmf = outputs["bios"][1], outputs["ovmf"][1]
    variable = re.compile(r"^Variable (NV\+)?RT\+BS 'EFIGlobalVariable:(\w+)' DataSize = 0x[0-9A-F]+$",
                          re.M)
    option = re.compile(r"^Option: (\d\d)\. Variable: Boot[0-9A-F]{4} *\n  Desc    - .*\n"
                        r"  DevPath - .*\n  Optional- [YN]$", re.M)
    for got in (ember, ovmf):
        names = set(m.group(2) for m in variable.finditer(got["dmpstore"]))
        assert {"BootOrder", "Boot0000", "ConOut", "PlatformLang", "SecureBoot"} <= names, \
            got["dmpstore"]
        options = option.findall(got["bcfg boot dump"])
        assert options and options[0] == "00", got["bcfg boot dump"]
    # The option that booted the Shell: the virtio disk's removable-media path on both; and
    # the one bcfg added, last, with the file's path on that disk.
    for got in (ember, ovmf):
        assert "DevPath - PciRoot(0x0)/Pci(0x2,0x0)\n" in got["bcfg boot dump"]
        assert got["bcfg boot dump"].endswith(
            "  Desc    - edk2 shell test\n  DevPath - PciRoot(0x0)/Pci(0x2,0x0)/\\hello.txt\n"
            "  Optional- N"), got["bcfg boot dump"]
