"""Ember's disk controllers under QEMU: virtio-blk (transitional, modern-only behind a PCIe
root port or with disable-legacy, legacy-only with disable-modern) and AHCI (q35's built-in
ICH9 controller and -device ahci on pc) with ATA disks and ATAPI CD-ROMs. The blk-test
application lists every disk with its device path and media, prints CRCs of known ranges
(compared here with the image files), runs the BlockIo/BlockIo2 status checks and writes
2 MiB, which must then be in the image file."""
import re
import time
import zlib

import pytest

from conftest import BUILD
from disk_images import MIB, iso_image, pattern_image, written_pattern

BLK_TEST = BUILD / "apps" / "blk-test.efi"
ALL_STEPS = "blk-test list crc checks write reconnect shutdown"
ORIGINAL = {}  # image path -> its bytes when it was made


def remember(image):
    ORIGINAL[image] = image.read_bytes()
    return image


def drive(image, node, device, **options):
    """-drive/-device arguments attaching image to a QEMU device model."""
    fmt = ",format=raw" if image else ""
    media = ",media=cdrom" if device == "ide-cd" else ""
    ro = ",readonly=on" if options.pop("readonly", False) else ""
    file = f",file={image}" if image else ""
    opts = "".join(f",{k.replace('_', '-')}={v}" for k, v in options.items())
    return ["-drive", f"if=none,id={node}{file}{fmt}{media}{ro}",
            "-device", f"{device},drive={node}{opts}"]


def parse(text):
    """blk-test's output: {number: {"path", "media", "crc": [(lba, blocks, crc)], ...}}."""
    disks = {}
    for m in re.finditer(r"^disk (\d+): (.*)$", text, re.M):
        d = disks.setdefault(int(m.group(1)), {"crc": [], "media": {}})
        line = m.group(2)
        if line.startswith("path="):
            d["path"] = line[5:]
        elif line.startswith("crc "):
            f = dict(kv.split("=") for kv in line[4:].split())
            d["crc"].append((int(f["lba"]), int(f["blocks"]), int(f["crc"], 16)))
        elif line.startswith("wrote "):
            f = dict(kv.split("=") for kv in line[6:].split())
            d["wrote"] = (int(f["lba"]), int(f["bytes"]))
        elif line.startswith("no media"):
            d["no_media"] = True
        else:
            d["media"].update(kv.split("=") for kv in line.split() if "=" in kv)
    return disks


def run_blk_test(machine, machine_type, args, steps=ALL_STEPS, firmware="bios"):
    """Boots blk-test with the devices in args; returns (parsed disks, machine)."""
    m = machine(machine=machine_type, firmware=firmware, app=BLK_TEST, args=steps,
                extra=args, timeout=120)
    summary = m.expect(r"blk-test: (\d+) passed, (\d+) failed")
    if "shutdown" in steps:
        m.wait_exit()
    assert summary.group(2) == "0", m.text
    return parse(m.text), m


def find(disks, pattern):
    """The one disk whose device path matches pattern (a regex)."""
    found = [d for d in disks.values() if re.fullmatch(pattern, d.get("path", ""))]
    assert len(found) == 1, f"{pattern}: {[d.get('path') for d in disks.values()]}"
    return found[0]


def check_image(disk, image, block_size, written=True):
    """The disk's CRCs match the image as it was before the run (ORIGINAL); its write
    landed in the file."""
    data = ORIGINAL[image]
    assert int(disk["media"]["bs"]) == block_size
    assert int(disk["media"]["last"]) == len(data) // block_size - 1
    assert len(disk["crc"]) == 3
    for lba, blocks, crc in disk["crc"]:
        chunk = data[lba * block_size:(lba + blocks) * block_size]
        assert zlib.crc32(chunk) == crc, f"lba {lba} blocks {blocks}"
    if written:
        lba, size = disk["wrote"]
        assert size == 2 * MIB
        offset = lba * block_size
        assert image.read_bytes()[offset:offset + size] == written_pattern(offset, size)
    else:
        assert "wrote" not in disk


def interfaces(m):
    """The virtio interfaces the driver chose, from the debug log (each device starts twice:
    at boot and after the reconnect step)."""
    found = sorted(re.findall(r"virtio-blk: .* (modern|legacy) interface", m.debug_log))
    assert found[::2] == found[1::2]
    return found[::2]


def test_virtio_blk_on_q35(machine, tmp_path):
    """Transitional on the root bus, modern-only behind a root port, legacy-only, read-only."""
    imgs = [remember(pattern_image(tmp_path / f"v{i}.img", size=(48 if i == 0 else 16) * MIB,
                                   seed=i)) for i in range(4)]
    args = (drive(imgs[0], "v0", "virtio-blk-pci", addr="0x4")
            + ["-device", "pcie-root-port,id=rp1,chassis=1,addr=0x5"]
            + drive(imgs[1], "v1", "virtio-blk-pci", bus="rp1")
            + drive(imgs[2], "v2", "virtio-blk-pci", addr="0x6", disable_modern="on")
            + drive(imgs[3], "v3", "virtio-blk-pci", addr="0x7", readonly=True))
    disks, m = run_blk_test(machine, "q35", args)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x4,0x0\)"), imgs[0], 512)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x5,0x0\)/Pci\(0x0,0x0\)"), imgs[1], 512)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x6,0x0\)"), imgs[2], 512)
    ro = find(disks, r"PciRoot\(0x0\)/Pci\(0x7,0x0\)")
    check_image(ro, imgs[3], 512, written=False)
    assert ro["media"]["ro"] == "1"
    assert interfaces(m) == ["legacy", "modern", "modern", "modern"]
    for d in disks.values():
        if "Sata" not in d["path"]:
            assert d["media"]["removable"] == "0" and d["media"]["rev"] == "0x2001f"


def test_virtio_blk_on_pc(machine, tmp_path):
    """Transitional, modern-only (disable-legacy) and legacy-only (disable-modern) on pc."""
    imgs = [remember(pattern_image(tmp_path / f"v{i}.img", seed=10 + i)) for i in range(3)]
    args = (drive(imgs[0], "v0", "virtio-blk-pci", addr="0x4")
            + drive(imgs[1], "v1", "virtio-blk-pci", addr="0x5", disable_legacy="on")
            + drive(imgs[2], "v2", "virtio-blk-pci", addr="0x6", disable_modern="on"))
    disks, m = run_blk_test(machine, "pc", args)
    for i, img in enumerate(imgs):
        check_image(find(disks, rf"PciRoot\(0x0\)/Pci\(0x{4 + i},0x0\)"), img, 512)
    assert interfaces(m) == ["legacy", "modern", "modern"]


def check_cdrom(disk, iso):
    assert disk["media"]["removable"] == "1" and disk["media"]["ro"] == "1"
    check_image(disk, iso, 2048, written=False)


def test_ahci_on_q35(machine, tmp_path):
    """The ICH9 AHCI at 00:1F.2: a disk on port 0 (48 MiB, so that the 40 MiB read takes two
    commands), a CD-ROM with an ISO on port 1 and an empty CD-ROM drive on port 2."""
    img = remember(pattern_image(tmp_path / "a.img", size=48 * MIB, seed=20))
    iso = remember(iso_image(tmp_path / "cd.iso", tmp_path))
    args = (drive(img, "a0", "ide-hd", bus="ide.0") + drive(iso, "c0", "ide-cd", bus="ide.1")
            + drive(None, "e0", "ide-cd", bus="ide.2"))
    disks, m = run_blk_test(machine, "q35", args)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x1F,0x2\)/Sata\(0x0,0xFFFF,0x0\)"), img, 512)
    check_cdrom(find(disks, r"PciRoot\(0x0\)/Pci\(0x1F,0x2\)/Sata\(0x1,0xFFFF,0x0\)"), iso)
    empty = find(disks, r"PciRoot\(0x0\)/Pci\(0x1F,0x2\)/Sata\(0x2,0xFFFF,0x0\)")
    assert empty["media"]["present"] == "0" and empty.get("no_media")


def test_ahci_on_pc(machine, tmp_path):
    """-device ahci on pc: a disk, a CD-ROM with an ISO and an empty CD-ROM drive."""
    img = remember(pattern_image(tmp_path / "a.img", seed=30))
    iso = remember(iso_image(tmp_path / "cd.iso", tmp_path, seed=31))
    args = (["-device", "ahci,id=ahci,addr=0x8"] + drive(img, "a0", "ide-hd", bus="ahci.3")
            + drive(iso, "c0", "ide-cd", bus="ahci.0") + drive(None, "e0", "ide-cd", bus="ahci.5"))
    disks, m = run_blk_test(machine, "pc", args, firmware="pflash")
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x8,0x0\)/Sata\(0x3,0xFFFF,0x0\)"), img, 512)
    check_cdrom(find(disks, r"PciRoot\(0x0\)/Pci\(0x8,0x0\)/Sata\(0x0,0xFFFF,0x0\)"), iso)
    empty = find(disks, r"PciRoot\(0x0\)/Pci\(0x8,0x0\)/Sata\(0x5,0xFFFF,0x0\)")
    assert empty["media"]["present"] == "0" and empty.get("no_media")


def device_state(m):
    """(virtio device status, PxCMD of AHCI port 0) as QEMU sees them."""
    status = m.qmp("x-query-virtio-status", path="/machine/peripheral/vd0/virtio-backend")
    devices = m.qmp("query-pci")[0]["devices"]
    abar = [r["address"] for d in devices if d["class_info"]["class"] == 0x0106
            for r in d["regions"] if r["bar"] == 5][0]
    word = m.qmp("human-monitor-command", **{"command-line": f"xp /1xw {abar + 0x118:#x}"})
    return status["status"]["statuses"], int(word.split(":")[1], 16)


@pytest.mark.parametrize("exit_boot_services", [False, True])
def test_dma_stops_at_exit_boot_services(machine, tmp_path, exit_boot_services):
    """After ExitBootServices the virtio device is reset (status 0) and the AHCI port's
    command and FIS engines are off; before it, both are live (the control case)."""
    img = pattern_image(tmp_path / "v.img", size=MIB)
    args = (drive(img, "v0", "virtio-blk-pci", id="vd0")
            + drive(pattern_image(tmp_path / "a.img", size=MIB), "a0", "ide-hd", bus="ide.0"))
    steps = "blk-test exit" if exit_boot_services else "blk-test list"
    m = machine(machine="q35", app=BLK_TEST, args=steps, extra=args)
    m.expect(r"blk-test: exiting boot services" if exit_boot_services
             else r"blk-test: \d+ passed, 0 failed")
    # The app prints before it calls ExitBootServices, and the two devices stop in the
    # order of their notifications: wait until both show the awaited state (or time out).
    deadline = time.monotonic() + 30
    while True:
        virtio_status, px_cmd = device_state(m)
        if exit_boot_services:
            done = virtio_status == [] and px_cmd & 0x11 == 0
        else:
            done = any("DRIVER_OK" in s for s in virtio_status) and px_cmd & 0x11 == 0x11
        if done or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    if exit_boot_services:
        assert virtio_status == [] and px_cmd & 0x11 == 0, (virtio_status, hex(px_cmd))
    else:
        assert any("DRIVER_OK" in s for s in virtio_status) and px_cmd & 0x11 == 0x11, (virtio_status, px_cmd)


def test_cdrom_media_changes(machine, tmp_path):
    """Removable media on AHCI CD-ROM drives: a swapped disc, an ejected one and one put
    into an empty drive each give the old MediaId's reads EFI_MEDIA_CHANGED or EFI_NO_MEDIA,
    a new MediaId, and the new medium's content."""
    first = remember(iso_image(tmp_path / "first.iso", tmp_path, seed=40))
    second = remember(iso_image(tmp_path / "second.iso", tmp_path, data_size=MIB, seed=41))
    args = (drive(first, "c0", "ide-cd", bus="ide.0") + drive(first, "c1", "ide-cd", bus="ide.1")
            + drive(None, "c2", "ide-cd", bus="ide.2"))
    m = machine(machine="q35", app=BLK_TEST, args="blk-test list media crc shutdown",
                extra=args, timeout=120)
    m.expect(r"blk-test: change the media, then press a key")
    m.qmp("blockdev-change-medium", device="c0", filename=str(second), format="raw")
    m.qmp("eject", device="c1", force=True)
    m.qmp("blockdev-change-medium", device="c2", filename=str(second), format="raw")
    m.send("x")
    summary = m.expect(r"blk-test: (\d+) passed, (\d+) failed")
    m.wait_exit()
    assert summary.group(2) == "0", m.text
    after = m.text.split("change the media")[1]
    disks = parse(after)
    swapped = find(disks, r".*/Sata\(0x0,0xFFFF,0x0\)")
    ejected = find(disks, r".*/Sata\(0x1,0xFFFF,0x0\)")
    inserted = find(disks, r".*/Sata\(0x2,0xFFFF,0x0\)")
    assert re.search(r"disk \d+: after change: EFI_MEDIA_CHANGED", after)
    assert re.search(r"disk \d+: after change: EFI_NO_MEDIA", after)
    assert ejected["media"]["present"] == "0"
    for d in (swapped, inserted):
        assert d["media"]["present"] == "1" and d["media"]["id"] != "0"
        check_cdrom(d, second)
