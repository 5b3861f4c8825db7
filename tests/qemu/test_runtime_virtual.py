"""The runtime services in virtual mode with nothing left at their physical addresses
(apps/rt-virtual): after ExitBootServices and SetVirtualAddressMap the application drops
the runtime ranges from its page tables except at their new addresses, then uses variables,
time, the monotonic count and ResetSystem through the converted table. Any pointer the
firmware failed to convert faults there. Both variable stores: the VARS flash, and the RAM
copy of -bios."""
import re

import pytest

from conftest import BUILD

APP = BUILD / "apps" / "rt-virtual.efi"


@pytest.mark.parametrize("firmware", ["pflash", "bios"])
def test_runtime_services_without_identity_mapping(machine, firmware):
    m = machine(firmware=firmware, app=APP)
    m.expect(r"rt-virtual: \d+ runtime ranges now only at \+0x100000000000")
    m.expect(r"rt-virtual: \d+ checks, 0 failed")
    assert m.wait_exit() == 0
    # The shutdown came from ResetSystem, called through its new address, and finished
    # its log line (a fault in the middle would have reset the machine instead).
    assert re.search(r"^reset: ResetSystem\(EfiResetShutdown\) at runtime, status 0x0$",
                     m.debug_log, re.M), m.debug_log[-1000:]
    assert "ResetSystem returned" not in m.text
