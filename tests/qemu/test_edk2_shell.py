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
            m.expect(r"^section: end$")
            m.wait_exit(120)
            got[firmware] = (m.text, edk2_shell.sections(m.text))
    return got


def test_shell_starts_on_ember_and_runs_startup_nsh(outputs):
    text, got = outputs["bios"]
    assert "UEFI v2.100 (Ember," in text, text[-3000:]
    assert "startup.nsh running" in got and "end" in got, text[-3000:]
    assert set(edk2_shell.COMMANDS) <= set(got), text[-3000:]


def test_help_and_ls_equal_ovmf(outputs):
    ember, ovmf = outputs["bios"][1], outputs["ovmf"][1]
    assert ember["help"] == ovmf["help"]
    assert ember["ls"] == ovmf["ls"]


def header(text, lines):
    return text.splitlines()[:lines]


def test_tables_have_ovmf_form(outputs):
    ember, ovmf = outputs["bios"][1], outputs["ovmf"][1]
    # drivers and devices: the same column headers; the rows are each firmware's drivers.
    assert header(ember["drivers"], 6) == header(ovmf["drivers"], 6)
    assert header(ember["devices"], 5) == header(ovmf["devices"], 5)
    assert "Virtio Block Driver" in ember["drivers"], ember["drivers"]
    # memmap: the same header and summary lines, the firmware's own ranges.
    assert header(ember["memmap"], 1) == header(ovmf["memmap"], 1)
    summary = re.compile(r"^ *([A-Za-z_ ]+?) *:", re.M)
    tail = lambda t: summary.findall(t[t.index("Reserved"):])  # noqa: E731
    assert tail(ember["memmap"]) == tail(ovmf["memmap"])
    # map: FS0 on the virtio disk, named by a PCI device path on both.
    for got in (ember, ovmf):
        assert re.search(r"^ +FS0: Alias\(s\):.*\n +PciRoot\(0x0\)/Pci\(", got["map"], re.M), \
            got["map"]
    assert ember["dh"].startswith("Handle dump") and ovmf["dh"].startswith("Handle dump")


def test_variables_and_boot_options(outputs):
    ember, ovmf = outputs["bios"][1], outputs["ovmf"][1]
    variable = re.compile(r"^Variable (NV\+)?RT\+BS '[^']+' DataSize = 0x[0-9A-F]+$", re.M)
    for got in (ember, ovmf):
        assert variable.search(got["dmpstore"]), got["dmpstore"]
        assert re.search(r"'EFIGlobalVariable:PlatformLang' DataSize = 0x06$", got["dmpstore"],
                         re.M)
        assert "Option: 00. Variable: Boot" in got["bcfg boot dump"], got["bcfg boot dump"]
