"""EFI_RNG_PROTOCOL from the CPU's RNDR instruction on QEMU's AArch64 virt machine
(platform/qemu-aarch64/rng_rndr.c, issue 17), with no virtio-rng device: `-cpu max` has
FEAT_RNG (ID_AA64ISAR0_EL1.RNDR), so tests/aarch64/rng.c draws twice, different bytes, and a
raw draw works (RNDR is a hardware source: the raw algorithm is offered, as RDRAND is on
x86-64); cortex-a57 has no RNDR and then there is no protocol at all. AAVMF (Debian's
qemu-efi-aarch64 2022.11) has no RNG from RNDR: on `-cpu max` without virtio-rng the same
program finds no EFI_RNG_PROTOCOL there (checked by hand), so its case is a skip that says
so."""
import shutil

import pytest

from test_aarch64 import QEMU, Arm64Machine, program

pytestmark = pytest.mark.skipif(shutil.which(QEMU) is None,
                                reason=f"{QEMU} is missing (Debian package qemu-system-arm)")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_rng_from_rndr(firmware):
    if firmware == "aavmf":
        pytest.skip("AAVMF (qemu-efi-aarch64 2022.11) has no EFI_RNG_PROTOCOL from RNDR: "
                    "tests/aarch64/rng.c says 'rng: no protocol' on -cpu max")
    with Arm64Machine(program("rng"), firmware=firmware, cpu="max", timeout=300) as m:
        # Either answer ends the wait: a missing protocol fails at once.
        assert m.expect(r"rng: (two draws differ|two equal draws|no protocol|GetRNG failed)")[1] \
            == "two draws differ"
        assert m.expect(r"rng: (raw draw works|no raw algorithm)")[1] == "raw draw works"


def test_no_rng_without_rndr():
    """cortex-a57 and no virtio-rng: no source, so no protocol (nothing faked)."""
    with Arm64Machine(program("rng"), cpu="cortex-a57", timeout=300) as m:
        m.expect(r"rng: no protocol")
