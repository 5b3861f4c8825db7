"""QEMU's bootindex on a NIC: the boot manager orders the NIC's PXE option as fw_cfg
"bootorder" says (the NIC is /pci@i0cf8/ethernet@N there), before or after a disk that
has its own bootindex. The disk holds tsc_entry.efi, the TFTP server hello.efi, so the
first line tells which option ran first. OVMF follows QEMU's boot order too."""
import re
import shutil

import pytest

from conftest import BUILD
from disk_images import gpt_esp_disk

PROGRAMS = BUILD / "tests" / "programs"
MAC = "52:54:00:12:34:56"
FIRST = re.compile(r"Hello World!|tsc-entry: \d+")


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
@pytest.mark.parametrize("nic_first", [True, False], ids=["nic-first", "disk-first"])
def test_nic_bootindex_orders_pxe(machine, tmp_path, firmware, nic_first):
    tftp = tmp_path / "tftp"
    tftp.mkdir()
    shutil.copy(PROGRAMS / "hello.efi", tftp / "hello.efi")
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "tsc_entry.efi"})
    nic_index, disk_index = (1, 2) if nic_first else (2, 1)
    m = machine(firmware=firmware, timeout=300, extra=[
        "-drive", f"if=none,id=d0,format=raw,file={disk}",
        "-device", f"virtio-blk-pci,drive=d0,bootindex={disk_index}",
        "-netdev", f"user,id=n0,tftp={tftp},bootfile=hello.efi",
        "-device", f"virtio-net-pci,netdev=n0,mac={MAC},romfile=,bootindex={nic_index}"])
    first = m.expect(FIRST.pattern)
    if nic_first:
        assert first.group(0) == "Hello World!", m.text[-3000:]
    else:
        assert first.group(0).startswith("tsc-entry"), m.text[-3000:]
