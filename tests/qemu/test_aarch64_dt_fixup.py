"""EFI_DT_FIXUP_PROTOCOL on QEMU's AArch64 virt machine with `acpi=off`, where the OS gets
the device tree (platform/qemu-aarch64/dt_fixup.c, lib/fdt_edit.c; issue 17):
tests/aarch64/dt_fixup.c hands it a copy of the DTB table's tree made to look foreign (no
memory node, a free page in its reservation block, no free room), gets EFI_BUFFER_TOO_SMALL
and the size, then the fixed-up tree (memory@40000000 added) installed as the DTB table and
the page taken in the memory map; bad arguments are refused. Ember only:
AAVMF (Debian's qemu-efi-aarch64 2022.11) has no EFI_DT_FIXUP_PROTOCOL (the same program
says "dt_fixup: no protocol" there, checked by hand)."""
import shutil

import pytest

from test_aarch64 import QEMU, Arm64Machine, program

pytestmark = pytest.mark.skipif(shutil.which(QEMU) is None,
                                reason=f"{QEMU} is missing (Debian package qemu-system-arm)")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_dt_fixup(firmware):
    if firmware == "aavmf":
        pytest.skip("AAVMF (qemu-efi-aarch64 2022.11) has no EFI_DT_FIXUP_PROTOCOL: "
                    "tests/aarch64/dt_fixup.c says 'dt_fixup: no protocol' there")
    with Arm64Machine(program("dt_fixup"), machine="virt,acpi=off", timeout=300) as m:
        # Each check says yes or no: no waiting on a miss. The status is read whole.
        returned = m.expect(r"opt/ember/app returned ([A-Z_]+)\s").group(1)
    for line in ["bad arguments refused", "EFI_BUFFER_TOO_SMALL, a bigger size asked",
                 "memory@40000000 added, the tree fills the buffer",
                 "the reserved page is taken in the memory map", "installed as the DTB table"]:
        assert f"dt_fixup: {line}" in m.text, m.text[-3000:]
    assert returned == "EFI_SUCCESS", m.text[-3000:]
