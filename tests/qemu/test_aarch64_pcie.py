"""PCIe on QEMU's AArch64 virt machine (platform/qemu-aarch64/pcie.c, drivers/pci_root_bridge,
issue 17): the host bridge from the device tree, BARs assigned by the firmware, and the
shared drivers on it. One boot per firmware: a FAT ESP on virtio-blk-pci holds Ember's
shell for AArch64 as EFI/BOOT/BOOTAA64.EFI, which the boot manager's removable-media path
starts; its startup.nsh lists the files of an NVMe disk and of a disk on a legacy-only
virtio-scsi controller (its I/O BAR reached through virt's I/O window, which is MMIO),
after the shell's mapping table shows all three. Then, in one more boot each, a USB keyboard
on qemu-xhci and virtio-gpu-pci's GOP, and EFI_RNG_PROTOCOL from virtio-rng-pci. AAVMF runs
the same devices as the oracle."""
import socket
import subprocess
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from test_aarch64 import A64, AAVMF_CODE, AAVMF_VARS, QEMU, Arm64Machine, program

MTOOLS_ENV = {"MTOOLS_SKIP_CHECK": "1", "PATH": "/usr/bin:/bin"}

pytestmark = pytest.mark.skipif(shutil.which(QEMU) is None,
                                reason=f"{QEMU} is missing (Debian package qemu-system-arm)")


def fat_disk(path, files, size_mib=8):
    """A FAT disk (no partition table) holding files: {name in the image: bytes or Path}."""
    with open(path, "wb") as f:
        f.truncate(size_mib << 20)
    subprocess.run(["mformat", "-i", path, "::"], check=True, env=MTOOLS_ENV)
    made = set()
    for name, content in files.items():
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder not in made:
                subprocess.run(["mmd", "-i", path, "::/" + folder], check=True, env=MTOOLS_ENV)
                made.add(folder)
        src = content if isinstance(content, Path) else path.parent / Path(name).name
        if not isinstance(content, Path):
            src.write_bytes(content)
        subprocess.run(["mcopy", "-i", path, src, "::/" + name], check=True, env=MTOOLS_ENV)
    return path


class PcieMachine(Arm64Machine):
    """virt with a pflash pair (Ember's or AAVMF's) and the PCIe devices given, nothing
    handed in through fw_cfg: what boots comes from the disks."""

    def __init__(self, firmware, devices, timeout):
        self.work = Path(tempfile.mkdtemp(prefix="ember-a64-pcie-"))
        self.timeout = timeout
        code, vars_template = ((A64 / "ember-code.fd", A64 / "ember-vars.fd")
                               if firmware == "ember" else (AAVMF_CODE, AAVMF_VARS))
        self.vars = self.work / "vars.fd"
        shutil.copy(vars_template, self.vars)
        self.cmd = [QEMU, "-machine", "virt,accel=tcg", "-cpu", "cortex-a57", "-m", "1G",
                    "-display", "none", "-net", "none", "-serial", "stdio", "-monitor", "none",
                    "-no-reboot",
                    "-drive", f"if=pflash,format=raw,readonly=on,file={code}",
                    "-drive", f"if=pflash,format=raw,file={self.vars}"] + list(devices)
        self.output = b""
        self.lock = threading.Condition()
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()


@pytest.fixture(scope="module")
def disks(tmp_path_factory):
    work = tmp_path_factory.mktemp("a64-pcie")
    startup = b"ls fs1:\r\nls fs2:\r\nreset -s\r\n"
    esp = fat_disk(work / "esp.img", {"EFI/BOOT/BOOTAA64.EFI": A64 / "apps" / "shell.efi",
                                      "startup.nsh": startup}, size_mib=16)
    nvme = fat_disk(work / "nvme.img", {"NVME.TXT": b"on nvme\r\n"})
    scsi = fat_disk(work / "scsi.img", {"SCSI.TXT": b"on virtio-scsi\r\n"})
    return esp, nvme, scsi


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_virtio_blk_boot_nvme_and_virtio_scsi(firmware, disks):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    esp, nvme, scsi = disks
    devices = ["-drive", f"if=none,id=esp,format=raw,file={esp}",
               "-device", "virtio-blk-pci,drive=esp",
               "-drive", f"if=none,id=nvme,format=raw,file={nvme},snapshot=on",
               "-device", "nvme,drive=nvme,serial=ember-a64",
               "-device", "virtio-scsi-pci,id=scsi,disable-modern=on",
               "-drive", f"if=none,id=sd,format=raw,file={scsi},snapshot=on",
               "-device", "scsi-hd,drive=sd,bus=scsi.0"]
    with PcieMachine(firmware, devices, timeout=300) as m:
        # Ember's shell, booted from the virtio-blk disk as removable media.
        m.expect(r"Ember Shell")
        m.expect(r"Mapping table")
        m.expect(r"fs\d+: PciRoot\(0x0\)/Pci\(0x1,0x0\)\r?\n")
        m.expect(r"fs\d+: PciRoot\(0x0\)/Pci\(0x2,0x0\)/NVMe\(0x1,")
        m.expect(r"fs\d+: PciRoot\(0x0\)/Pci\(0x3,0x0\)/Scsi\(0x0,0x0\)")
        m.expect(r"NVME\.TXT")
        m.expect(r"SCSI\.TXT")
        m.wait_exit()


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_xhci_keyboard_and_virtio_gpu(firmware, tmp_path):
    """virt has no display but ramfb without PCIe, and no keyboard but the serial line: the
    article's gop_mode sees virtio-gpu-pci's Graphics Output, and a key pressed on a USB
    keyboard behind qemu-xhci (QEMU's monitor, sendkey) reaches ConIn, in one boot of the
    shell running both from its startup.nsh. virtio-net-pci's option ROM (QEMU's efi-virtio,
    an x64 image) is skipped without a warning: it is for another processor."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    startup = b"fs0:\r\ngop_mode.efi\r\nread_key.efi\r\nreset -s\r\n"
    esp = fat_disk(tmp_path / "esp.img",
                   {"EFI/BOOT/BOOTAA64.EFI": A64 / "apps" / "shell.efi",
                    "gop_mode.efi": A64 / "programs" / "gop_mode.efi",
                    "read_key.efi": A64 / "read_key.efi", "startup.nsh": startup},
                   size_mib=16)
    monitor = tmp_path / "monitor.sock"
    devices = ["-drive", f"if=none,id=esp,format=raw,file={esp}",
               "-device", "virtio-blk-pci,drive=esp", "-device", "virtio-gpu-pci",
               "-device", "qemu-xhci", "-device", "usb-kbd",
               "-device", "virtio-net-pci", "-monitor", f"unix:{monitor},server=on,wait=off"]
    with PcieMachine(firmware, devices, timeout=300) as m:
        m.expect(r"Mode \d+ is running at \d+x\d+")
        m.expect(r"press a key")
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(monitor))
            s.sendall(b"sendkey z\n")
            m.expect(r"key: z")
        m.wait_exit()
        assert "option ROM" not in m.text


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_rng_from_virtio_rng(firmware):
    """EFI_RNG_PROTOCOL from virtio-rng-pci: cortex-a57 has no RNDR, so without PCIe there
    is no source (tests/aarch64/rng.c draws twice)."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    with Arm64Machine(program("rng"), firmware=firmware, extra=["-device", "virtio-rng-pci"],
                      timeout=300) as m:
        m.expect(r"rng: two draws differ")
