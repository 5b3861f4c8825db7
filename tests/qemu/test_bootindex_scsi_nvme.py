"""QEMU's bootindex on a disk behind virtio-scsi or on an NVMe namespace: fw_cfg
"bootorder" names it /pci@i0cf8/scsi@N/channel@0/disk@T,L or /pci@i0cf8/pci1b36,0010@N/
namespace@1,0, which core/devpath/from_ofw.c turns into .../Scsi(T,L) and the NVMe
controller's Pci(). Two disks: a virtio-blk disk first in PCI order with hello.efi and no
bootindex, and the other disk, with tsc_entry.efi and bootindex=0, so the first line tells
which one the boot manager ranked first. OVMF honours bootindex on both and proves the
test; before from_ofw.c knew these paths, Ember ignored the line and booted hello."""
import re
import time

import pytest

from conftest import BUILD
from disk_images import gpt_esp_disk

PROGRAMS = BUILD / "tests" / "programs"
FIRST = re.compile(r"Hello World!|tsc-entry: \d+")
# The disk given bootindex=0 (its controller after the virtio-blk disk on the PCI bus).
SECOND_DISK = {
    "scsi": ["-device", "virtio-scsi-pci,id=scsi0",
             "-device", "scsi-hd,bus=scsi0.0,drive=d1,scsi-id=1,lun=0,bootindex=0"],
    "nvme": ["-device", "nvme,serial=ember-nvme,drive=d1,bootindex=0"],
}


@pytest.fixture(scope="module")
def disks(tmp_path_factory):
    work = tmp_path_factory.mktemp("bootindex")
    hello = gpt_esp_disk(work / "hello.img", work, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    (work / "esp.img").unlink()
    tsc = gpt_esp_disk(work / "tsc.img", work, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "tsc_entry.efi"})
    return hello, tsc


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
@pytest.mark.parametrize("bus", ["scsi", "nvme"])
def test_bootindex_on_scsi_and_nvme_disk(machine, disks, firmware, bus):
    hello, tsc = disks
    start = time.monotonic()
    m = machine(firmware=firmware, timeout=300, extra=[
        "-drive", f"if=none,id=d0,format=raw,snapshot=on,file={hello}",
        "-device", "virtio-blk-pci,drive=d0",
        "-drive", f"if=none,id=d1,format=raw,snapshot=on,file={tsc}", *SECOND_DISK[bus]])
    first = m.expect(FIRST.pattern)
    assert first.group(0).startswith("tsc-entry"), m.text[-3000:]
    print(f"{firmware} {bus}: {time.monotonic() - start:.1f} s")
