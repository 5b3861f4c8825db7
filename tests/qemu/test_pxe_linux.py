"""PXE all the way to Linux: Debian's grubnetx64.efi (grub-efi-amd64-bin) boots over PXE on
virtio-net with the option ROM disabled (romfile=, so Ember's own driver and network stack
serve it), reads its grub.cfg, Debian's kernel and the Linux tests' initramfs over TFTP from
QEMU's user network, and Linux's /init reports (tests/qemu/linux/init.sh). The kernel and the
initramfs are those of the Linux tests (tests/qemu/linux_payloads.py, cached in the build
directory). OVMF runs the same with its own PXE stack on its own VirtioNetDxe. One Linux boot
per firmware. The machine has a display (QEMU's standard VGA): Linux must report the
firmware's boot logo from its ACPI BGRT (/sys/firmware/acpi/bgrt/), Ember's as OVMF's."""
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

import linux_payloads as lp
from conftest import ROOT

GRUBNET = Path("/usr/lib/grub/x86_64-efi/monolithic/grubnetx64.efi")  # grub-efi-amd64-bin
MAC = "52:54:00:12:34:56"
BOOT_TIMEOUT = 600  # two TFTP downloads of 10 MB in 1 KiB blocks, then Linux, under TCG


def tftp_root(tmp_path):
    """The TFTP directory: grubnetx64.efi, grub/grub.cfg, vmlinuz and initrd.gz."""
    if not GRUBNET.exists():
        pytest.fail(f"{GRUBNET} is missing: scripts/deps installs grub-efi-amd64-bin")
    try:
        kernel, initrd = lp.kernel(), lp.initramfs()
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    root = tmp_path / "tftp"
    (root / "grub").mkdir(parents=True)
    shutil.copy(GRUBNET, root / "grubnetx64.efi")
    # Links, not copies: slirp's TFTP server follows them, and the cache stays the one copy.
    (root / "vmlinuz").symlink_to(kernel)
    (root / "initrd.gz").symlink_to(initrd)
    (root / "grub" / "grub.cfg").write_text(
        "set timeout=0\n"
        "echo GRUB-PXE server=$net_default_server\n"
        f"linux /vmlinuz {lp.CMDLINE} ember_stage=report\n"
        "initrd /initrd.gz\n"
        "boot\n")
    return root


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_grubnetx64_boots_linux_over_pxe(machine, tmp_path, firmware):
    root = tftp_root(tmp_path)
    m = machine(firmware=firmware, memory=1024, timeout=BOOT_TIMEOUT, extra=[
        "-netdev", f"user,id=n0,tftp={root},bootfile=grubnetx64.efi",
        "-device", f"virtio-net-pci,netdev=n0,mac={MAC},romfile="])
    m.expect(r"GRUB-PXE server=10\.0\.2\.2")
    if firmware == "bios":  # Ember's PXE option (romfile=: on Ember's virtio-net SNP)
        m.expect_log(r"bds: starting UEFI PXEv4 \(MAC:525400123456\)")
    m.expect(r"^EMBER-STAGE: report")
    m.expect(r"^EMBER-EFI: yes")
    m.expect(r"^EMBER-DONE: report")
    assert m.wait_exit() == 0, "poweroff -f did not end QEMU"
    # Read once the line is whole (expect() may match a line still arriving).
    bgrt = re.search(r"^EMBER-BGRT: (.*?)\r?\n", m.text, re.M)
    assert bgrt, "init.sh printed no BGRT line"
    check_bgrt(bgrt.group(1).strip(), firmware)


def check_bgrt(line, firmware):
    """init.sh's BGRT line: version 1, displayed, a BMP Linux copied whole (for Ember, the
    size of scripts/mklogo's logo, centred)."""
    assert line != "none", "Linux found no BGRT (/sys/firmware/acpi/bgrt/)"
    fields = dict(f.split("=", 1) for f in line.split())
    assert fields.get("version") == "1" and fields.get("type") == "0", line
    assert fields["status"] == "1" and fields["magic"] == "BM", line
    if firmware == "bios":
        logo = subprocess.run([ROOT / "scripts" / "mklogo", "bmp", "/dev/stdout"],
                              check=True, capture_output=True).stdout
        size, width, height = (struct.unpack_from("<I", logo, 2)[0],
                               *struct.unpack_from("<ii", logo, 18))
        assert int(fields["size"]) == size, line
        # Centred on the 1024x768 screen of QEMU's VGA, as the GOP mode Ember sets.
        assert (int(fields["x"]), int(fields["y"])) == ((1024 - width) // 2,
                                                        (768 - height) // 2), line
    else:
        assert int(fields["size"]) > 54 and int(fields["x"]) > 0, line
