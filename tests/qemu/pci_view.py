"""Helpers for the PCI and ACPI tests: run apps/pci-test on a machine and parse what it
printed, and QEMU's own view of the PCI buses (QMP query-pci)."""
import re

from conftest import BUILD

PCI_TEST = BUILD / "apps" / "pci-test.efi"
UNMAPPED = (1 << 64) - 1
SUMMARY = r"pci-test: (\d+) passed, (\d+) failed"

FUNC_RE = re.compile(r"^PCI 0000:([0-9a-f]{2}):([0-9a-f]{2})\.([0-7]) ([0-9a-f]{4}):([0-9a-f]{4})"
                     r" class ([0-9a-f]{6})$")
PATH_RE = re.compile(r"^  path (\S+)$")
BAR_RE = re.compile(r"^  BAR(\d) (io|mem32|mem64)( pref)? base 0x([0-9a-f]+) len 0x([0-9a-f]+)$")


def run_pci_test(make, args="", **kwargs):
    """Boots pci-test (it stays in the firmware afterwards); returns (Machine, output)."""
    m = make(app=PCI_TEST, args=f"pci-test stay {args}", **kwargs)
    found = m.expect(SUMMARY)
    assert found.group(2) == "0", f"pci-test found failures:\n{m.text}"
    return m, m.text


def app_functions(text):
    """{(bus, dev, fn): {"id": (vendor, device), "class": int, "path": str, "bars": {i: bar}}}
    with bar = {"kind", "pref", "base", "len"}."""
    funcs, current = {}, None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            loc = tuple(int(x, 16) for x in m.group(1, 2, 3))
            current = funcs[loc] = {"id": (int(m.group(4), 16), int(m.group(5), 16)),
                                    "class": int(m.group(6), 16), "path": None,
                                    "bars": {}}
            continue
        p = PATH_RE.match(line)
        if p and current is not None:
            current["path"] = p.group(1)
        b = BAR_RE.match(line)
        if b and current is not None:
            current["bars"][int(b.group(1))] = {"kind": b.group(2), "pref": bool(b.group(3)),
                                               "base": int(b.group(4), 16),
                                               "len": int(b.group(5), 16)}
    return funcs


def _walk(devices, out):
    for d in devices:
        out[(d["bus"], d["slot"], d["function"])] = d
        bridge = d.get("pci_bridge")
        if bridge:
            _walk(bridge.get("devices", []), out)


def qemu_functions(m):
    """{(bus, dev, fn): device} from QMP query-pci, bridges' secondary buses included."""
    out = {}
    for bus in m.qmp("query-pci"):
        _walk(bus["devices"], out)
    return out


def mapped_bars(device):
    """QEMU's BARs 0-5 that decode: {bar: region}."""
    return {r["bar"]: r for r in device.get("regions", [])
            if r["bar"] < 6 and (r["address"] & UNMAPPED) != UNMAPPED}


def cross_check(app, qemu):
    """Every function QEMU has is listed with the same IDs, and every BAR QEMU shows as
    decoding equals what PciIo's GetBarAttributes said (and the other way round)."""
    assert sorted(app) == sorted(qemu)
    for loc, dev in qemu.items():
        mine = app[loc]
        assert mine["id"] == (dev["id"]["vendor"], dev["id"]["device"]), loc
        theirs = mapped_bars(dev)
        assert sorted(theirs) == sorted(mine["bars"]), (loc, theirs, mine["bars"])
        for i, r in theirs.items():
            bar = mine["bars"][i]
            assert (bar["base"], bar["len"]) == (r["address"], r["size"]), (loc, i)
            assert (bar["kind"] == "io") == (r["type"] == "io"), (loc, i)
            if r["type"] != "io":
                assert bar["pref"] == r["prefetch"], (loc, i)
                assert (bar["kind"] == "mem64") == r["mem_type_64"], (loc, i)
