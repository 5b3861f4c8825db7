"""virtio-net (drivers/virtio/virtio_net*.c) as EFI_SIMPLE_NETWORK_PROTOCOL, checked by
apps/snp-test: the SNP state machine, the argument checks and an ARP exchange with QEMU's
user network (slirp answers for its gateway 10.0.2.2). With the option ROM disabled
(romfile=) on the modern (disable-legacy=on, 1af4:1041) and the transitional device used
through its legacy interface (disable-modern=on, 1af4:1000), on Ember and on OVMF (its own
VirtioNetDxe), where the same app passes. With QEMU's default iPXE ROM, the option ROM's
driver binds the NIC and Ember's stays out (docs/design.md, "Network")."""
import pytest

from conftest import BUILD

APP = BUILD / "apps" / "snp-test.efi"
SUMMARY = r"snp-test: (\d+) passed, (\d+) failed"
MAC = "52:54:00:12:34:56"
VARIANTS = {"modern": "disable-legacy=on,disable-modern=off",
            "transitional": "disable-legacy=off,disable-modern=on"}


def nic(variant, rom=""):
    device = f"virtio-net-pci,netdev=n0,mac={MAC},{VARIANTS[variant]}"
    if rom is not None:
        device += f",romfile={rom}"
    return ["-netdev", "user,id=n0", "-device", device]


def run_app(machine, firmware, extra, args=None):
    m = machine(firmware=firmware, app=APP, timeout=240, extra=extra, args=args)
    return m, m.expect(SUMMARY)


@pytest.mark.parametrize("variant", ["modern", "transitional"])
def test_snp_on_ember(machine, variant):
    m, found = run_app(machine, "bios", nic(variant))
    assert found.group(2) == "0", m.text[-4000:]
    assert int(found.group(1)) >= 100, m.text[-4000:]
    assert "KNOWN" not in m.text, m.text[-4000:]
    assert "snp-test: driver: Virtio Network Driver" in m.text
    assert "snp-test: ARP reply from 10.0.2.2" in m.text
    interface = "modern" if variant == "modern" else "legacy"
    m.expect_log(rf"virtio-net: 52:54:00:12:34:56, {interface} interface, link up")


@pytest.mark.parametrize("variant", ["modern", "transitional"])
def test_snp_on_ovmf(machine, variant):
    m, found = run_app(machine, "ovmf", nic(variant))
    assert found.group(2) == "0", m.text[-4000:]
    assert int(found.group(1)) >= 100, m.text[-4000:]
    assert "snp-test: ARP reply from 10.0.2.2" in m.text
    # VirtioNetDxe's two answers in the wrong state, and only those.
    assert "snp-test: 2 known divergence(s)" in m.text, m.text[-4000:]


DEFAULT_ROM = ["-netdev", "user,id=n0", "-device", f"virtio-net-pci,netdev=n0,mac={MAC}"]


def test_option_rom_driver_wins_on_ember(machine):
    """QEMU's default ROM (iPXE, efi-virtio.rom): the PCI bus connects its driver first
    (bus specific driver override); it holds PciIo BY_DRIVER and Ember's driver stays out."""
    m, found = run_app(machine, "bios", DEFAULT_ROM, args="identify")
    m.expect_log(r"00:02\.0: started the option ROM's EFI driver")
    assert "snp-test: 1 SNP handle(s)" in m.text, m.text[-4000:]
    assert "snp-test: driver: virtio-net.efidrv" in m.text, m.text[-4000:]
    assert found.group(2) == "0", m.text[-4000:]
    assert "virtio-net: 52:54:00:12:34:56" not in m.debug_log


def test_option_rom_driver_wins_on_ovmf(machine):
    """The same rule on OVMF: iPXE's driver, not VirtioPciDeviceDxe, holds the function."""
    m = machine(firmware="ovmf", app=APP, timeout=240, extra=DEFAULT_ROM)
    driver = m.expect(r"snp-test: driver: (\S.*)\n").group(1)
    assert driver.strip() == "virtio-net.efidrv", m.text[-4000:]
