"""The forms-test driver's form set (apps/forms-test: IFR built by hand from the spec's
opcode layouts) in QEMU over the serial console, on Ember's browser and on OVMF's, the
oracle that the IFR and the driver's Config Access protocol are right. One boot per
firmware: space turns the checkbox on (which shows Level, under a suppressif), the ordered
list's second entry moves up, the date's year steps up, Level steps up, Esc leaves and Y
answers the save question; the driver's RouteConfig then writes the variable the
application prints. The key sequences differ where the browsers do:
- OVMF first highlights the text statement above the checkbox (Ember's highlights the
  first question), so on OVMF a Down comes first;
- OVMF's ordered-list popup, like Ember's editor, moves the chosen entry up with +, but
  opens with its entries in a box; both keep them with Enter;
- OVMF edits a date in place (month/day/year, Right to the year, + steps it); Ember opens
  its editor with Enter on the year, + steps it, Enter goes through month and day and
  keeps the value.
"""
import time

import pytest

from conftest import BUILD

APP = BUILD / "apps" / "forms-test.efi"
DOWN, RIGHT, ESC = "\x1b[B", "\x1b[C", "\x1b"
FOOTER = {"bios": r"F10 save", "ovmf": r"Esc=Exit"}
KEYS = {
    "bios": [" "] + [DOWN] * 6 + ["\r", DOWN, "+", "\r"] +
            [DOWN, "\r", "+", "\r", "\r", "\r"] + [DOWN, DOWN, "+", ESC, "y"],
    "ovmf": [DOWN, " "] + [DOWN] * 6 + ["\r", DOWN, "+", "\r"] +
            [DOWN, RIGHT, RIGHT, "+"] + [DOWN, DOWN, "+", ESC, "y"],
}


def settle(m, before, quiet=1.0, limit=30):
    """Waits until the firmware answered a key: output past `before`, then none for
    `quiet` seconds (a browser draws a screen in bursts)."""
    deadline = time.monotonic() + limit
    while len(m.output) <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    size = len(m.output)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        if len(m.output) == size:
            return
        size = len(m.output)


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_form_set_saved_through_config_access(machine, firmware):
    m = machine(firmware=firmware, app=APP, timeout=300)
    m.expect(r"Enable feature", timeout=300)
    m.expect(FOOTER[firmware], timeout=300)
    settle(m, 0)  # the browser has drawn the whole form and waits for keys
    for key in KEYS[firmware]:
        before = len(m.output)
        m.send(key)
        settle(m, before)
    m.expect(r"forms-test: enable=1 count=10 mode=0", timeout=120)
    m.expect(r"forms-test: order=2,1,3 date=2027-01-15 time=12:30:45 level=2", timeout=60)
