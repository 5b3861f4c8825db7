"""PCI(e) enumeration and resource assignment on both machines: bus numbers behind PCIe
root ports and PCI bridges, BARs (32- and 64-bit) inside the apertures, decoding on,
Interrupt Line set; PciIo's view (apps/pci-test) cross-checked with QEMU's (query-pci)."""
from pci_view import app_functions, cross_check, mapped_bars, qemu_functions, run_pci_test

BLK = ["-drive", "if=none,id=d1,file=/dev/null,format=raw,readonly=on"]
Q35_DEVICES = BLK + [
    "-device", "pcie-root-port,id=rp1,chassis=1,bus=pcie.0,addr=0x10",
    "-device", "pcie-root-port,id=rp2,chassis=2,bus=pcie.0,addr=0x11",
    # An empty hot-plug port with QEMU's resource-reservation hints (Red Hat capability).
    "-device", "pcie-root-port,id=rp3,chassis=3,bus=pcie.0,addr=0x12,bus-reserve=3,"
               "io-reserve=4K,mem-reserve=2M,pref64-reserve=32M",
    "-device", "virtio-blk-pci,drive=d1,bus=rp1",
    # No option ROMs: this test reconnects the root bridge, and the iPXE drivers the NICs'
    # default ROMs start do not let go of their NICs (tests/qemu/test_option_rom.py).
    "-device", "virtio-net-pci,bus=rp2,romfile=",
    "-device", "virtio-net-pci,addr=0x5,romfile=",
    "-device", "e1000e,addr=0x6,romfile=",
    "-device", "virtio-rng-pci,addr=0x7",
]
PC_DEVICES = BLK + [
    "-device", "pci-bridge,id=br1,chassis_nr=1,addr=0x5",
    "-device", "pci-bridge,id=br2,chassis_nr=2,bus=br1,addr=0x3",
    "-device", "virtio-blk-pci,drive=d1,bus=br2,addr=0x2",
    "-device", "virtio-net-pci,bus=br1,addr=0x1",
    "-device", "e1000,addr=0x6",
    "-device", "virtio-net-pci,addr=0x7",
]


def in_apertures(bar, machine_type):
    if bar["kind"] == "io":
        low = 0x6000 if machine_type == "q35" else 0xc000
        return low <= bar["base"] and bar["base"] + bar["len"] <= 0x10000
    if bar["base"] >= 1 << 32:  # the 64-bit window: above RAM, below 2^40 (qemu64's phys-bits)
        return bar["kind"] == "mem64" and bar["base"] + bar["len"] <= 1 << 40
    # OVMF's 32-bit windows: above the ECAM on q35; on pc (256 MiB) from 2 GiB.
    low = 0xc0000000 if machine_type == "q35" else 0x80000000
    return low <= bar["base"] and bar["base"] + bar["len"] <= 0xfc000000


def check_machine(machine, machine_type, extra, memory=256, args=""):
    m, text = run_pci_test(machine, args, machine=machine_type, extra=extra, memory=memory)
    app, qemu = app_functions(text), qemu_functions(m)
    cross_check(app, qemu)
    for loc, f in app.items():
        for bar in f["bars"].values():
            assert in_apertures(bar, machine_type), (loc, bar)
    # Every function with an interrupt pin got a routed IRQ in its Interrupt Line.
    for loc, dev in qemu.items():
        if dev.get("irq_pin"):
            assert dev.get("irq") in (10, 11), (loc, dev.get("irq"))
    return app, qemu


def test_q35_root_ports_and_bars(machine):
    """Also disconnects and reconnects the root bridge first: the second enumeration is
    the one checked."""
    app, qemu = check_machine(machine, "q35", Q35_DEVICES, args="reconnect")
    # The root ports got buses 1 and 2; the devices behind them are visible there.
    assert qemu[(0, 0x10, 0)]["pci_bridge"]["bus"]["secondary"] == 1
    assert qemu[(0, 0x11, 0)]["pci_bridge"]["bus"]["secondary"] == 2
    blk = app[(1, 0, 0)]
    assert blk["id"] == (0x1af4, 0x1042)
    assert blk["path"] == "PciRoot(0x0)/Pci(0x10,0x0)/Pci(0x0,0x0)"
    assert app[(2, 0, 0)]["path"] == "PciRoot(0x0)/Pci(0x11,0x0)/Pci(0x0,0x0)"
    # Modern virtio's 64-bit prefetchable BAR lands in the 64-bit window, above 4 GiB.
    assert blk["bars"][4]["kind"] == "mem64" and blk["bars"][4]["base"] >= 1 << 32
    assert app[(0, 0x1f, 2)]["path"] == "PciRoot(0x0)/Pci(0x1F,0x2)"
    # The hints: three buses, and windows at least as large as asked.
    rp3 = qemu[(0, 0x12, 0)]["pci_bridge"]["bus"]
    assert (rp3["secondary"], rp3["subordinate"]) == (3, 5)
    sizes = {k: rp3[k]["limit"] - rp3[k]["base"] + 1 for k in
             ("io_range", "memory_range", "prefetchable_range")}
    assert sizes == {"io_range": 4 << 10, "memory_range": 2 << 20,
                     "prefetchable_range": 32 << 20}


def test_pc_nested_pci_bridges(machine):
    app, qemu = check_machine(machine, "pc", PC_DEVICES)
    br1 = qemu[(0, 5, 0)]["pci_bridge"]["bus"]
    br2 = qemu[(1, 3, 0)]["pci_bridge"]["bus"]
    assert (br1["secondary"], br1["subordinate"]) == (1, 2)
    assert (br2["secondary"], br2["subordinate"]) == (2, 2)
    assert app[(2, 2, 0)]["path"] == "PciRoot(0x0)/Pci(0x5,0x0)/Pci(0x3,0x0)/Pci(0x2,0x0)"
    assert app[(1, 1, 0)]["path"] == "PciRoot(0x0)/Pci(0x5,0x0)/Pci(0x1,0x0)"
    # Bridge windows enclose what is behind them.
    for r in mapped_bars(qemu[(2, 2, 0)]).values():
        rng = br2["io_range" if r["type"] == "io" else
                  "prefetchable_range" if r["prefetch"] and r["mem_type_64"] else
                  "memory_range"]
        assert rng["base"] <= r["address"] and r["address"] + r["size"] - 1 <= rng["limit"]


def test_64bit_window_above_the_identity_map(machine):
    """With a large hot-plug area the 64-bit window moves above 64 GiB, where the reset
    code's page tables end: its BARs must still be reachable (pci-test reads each one)."""
    app, qemu = check_machine(machine, "q35", BLK + [
        "-device", "virtio-blk-pci,drive=d1,addr=0x4"], memory="512,slots=2,maxmem=80G")
    bar = app[(0, 4, 0)]["bars"][4]
    assert bar["kind"] == "mem64" and bar["base"] >= 64 << 30
