"""The forms-test driver's form set (apps/forms-test: IFR built by hand from the spec's
opcode layouts) in QEMU over the serial console, on Ember's browser and on OVMF's, the
oracle that the IFR and the driver's Config Access protocol are right: space turns the
checkbox on, Esc leaves, Y answers the save question; the driver's RouteConfig then writes
the variable the application prints. The only difference: OVMF's browser first highlights
the text statement above the checkbox (Ember's highlights the first question), so on OVMF
a Down comes first.
"""
import time

import pytest

from conftest import BUILD

APP = BUILD / "apps" / "forms-test.efi"
DOWN, ESC = "\x1b[B", "\x1b"
FOOTER = {"bios": r"F10 save", "ovmf": r"Esc=Exit"}


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_checkbox_saved_through_config_access(machine, firmware):
    m = machine(firmware=firmware, app=APP, timeout=300)
    m.expect(r"Enable feature", timeout=300)
    m.expect(FOOTER[firmware], timeout=300)
    time.sleep(4)  # the browser has drawn the whole form and waits for keys (TCG is slow)
    keys = ([DOWN] if firmware == "ovmf" else []) + [" ", ESC, "y"]
    for key in keys:
        m.send(key)
        # A lone Esc is told from a sequence by the pause after it.
        time.sleep(4)
    m.expect(r"forms-test: enable=1 count=10 mode=0", timeout=120)
