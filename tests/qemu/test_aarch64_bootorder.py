"""QEMU's bootindex on AArch64's virt machine (platform/common/bootorder.c, issue 17): fw_cfg
"bootorder" names devices under virt's PCIe host bridge ("/pci@ffffffffffffffff/scsi@2/
disk@0,0"), and the boot manager tries them in that order. Two virtio-blk-pci disks, each a
GPT disk whose ESP holds a different BOOTAA64.EFI: the first in PCI order hello (prints and
returns, so the boot manager would go on), the second timer_reset (prints, then powers
off). bootindex puts the second first, so timer_reset runs and hello never does; in PCI
order hello would come first. One boot per firmware; AAVMF, which reads bootorder too, is
the oracle."""
import pytest

from disk_images import MIB, gpt_esp_disk
from test_aarch64 import AAVMF_CODE, program
from test_aarch64_pcie import PcieMachine


@pytest.fixture(scope="module")
def disks(tmp_path_factory):
    work = tmp_path_factory.mktemp("a64-bootorder")
    made = []
    for name in ("hello", "timer_reset"):
        sub = work / name
        sub.mkdir()
        made.append(gpt_esp_disk(work / f"{name}.img", sub,
                                 {"EFI/BOOT/BOOTAA64.EFI": program(name)},
                                 size=8 * MIB, esp_size=6 * MIB))
    return made


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_bootindex_picks_the_second_disk(firmware, disks):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    first, second = disks
    devices = ["-drive", f"if=none,id=a,format=raw,file={first},snapshot=on",
               "-device", "virtio-blk-pci,drive=a,addr=0x2",
               "-drive", f"if=none,id=b,format=raw,file={second},snapshot=on",
               "-device", "virtio-blk-pci,drive=b,addr=0x3,bootindex=0"]
    with PcieMachine(firmware, devices, timeout=300) as m:
        assert m.expect(r"Hello World!|timer: fired").group(0) == "timer: fired", m.text
        m.expect(r"reset: shutdown")
        assert m.wait_exit() == 0
        assert "Hello World!" not in m.text
