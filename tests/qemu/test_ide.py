"""IDE on QEMU's pc machine (the PIIX3 IDE function, legacy channels, bus-master DMA): the
article's two programs boot from a GPT disk given as -hda, an El Torito ISO made by xorriso
boots from -cdrom, files Ember's shell writes on an -hda disk through the firmware's FAT
driver read back with mtools with fsck.fat clean, and bootindex= on a drive picks it; each
of these also runs on OVMF (the oracle), whose boot lines name the same Ata() nodes.
blk-test (started through Ember's fw_cfg hook, which OVMF lacks) checks the four drive
positions and CD-ROM media changes on Ember only, and Debian's kernel as a UKI boots from an
IDE disk once."""
import re
import subprocess

import pytest

from conftest import BUILD
from disk_images import MIB, fat_partition, gpt_esp_disk, iso_image, pattern_image
from test_disks import check_image, find, parse, remember

PROGRAMS = BUILD / "tests" / "programs"
SHELL = BUILD / "apps" / "shell.efi"
BLK_TEST = BUILD / "apps" / "blk-test.efi"
FIRMWARES = ["bios", "ovmf"]
# What the article's programs print; OVMF's GOP starts in a mode of its own choosing.
EXPECTED = {
    "hello": {"bios": r"Hello World!", "ovmf": r"Hello World!"},
    "gop_mode": {"bios": r"Mode 0 is running at 1024x768",
                 "ovmf": r"Mode \d+ is running at \d+x\d+"},
}
ESP_START = MIB
ESP_SIZE = 40 * MIB


@pytest.mark.parametrize("firmware", FIRMWARES)
@pytest.mark.parametrize("program", sorted(EXPECTED))
def test_article_programs_boot_from_hda(machine, tmp_path, program, firmware):
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / f"{program}.efi"})
    m = machine(machine="pc", firmware=firmware, extra=["-hda", str(disk)], timeout=180)
    m.expect(EXPECTED[program][firmware])
    if firmware == "bios":
        assert re.search(r"starting UEFI PciRoot\(0x0\)/Pci\(0x1,0x1\)/Ata\(0x0\)/HD\(1,GPT",
                         m.debug_log), m.debug_log[-2000:]
    else:  # OVMF names the disk's node in full: the one Ember's children carry
        assert "from PciRoot(0x0)/Pci(0x1,0x1)/Ata(Primary,Master,0x0)" in m.text


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_eltorito_iso_boots_from_cdrom(machine, tmp_path, firmware):
    content = tmp_path / "iso"
    content.mkdir()
    fat_partition(content / "efiboot.img", 2 * MIB, {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    iso = tmp_path / "boot.iso"
    subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-V", "EMBERBOOT", "-e",
                    "efiboot.img", "-no-emul-boot", "-o", str(iso), str(content)],
                   check=True, capture_output=True)
    m = machine(machine="pc", firmware=firmware, extra=["-cdrom", str(iso)], timeout=180)
    m.expect(r"Hello World!")
    if firmware == "bios":
        assert "Ata(0x0)/CDROM(0x0)" in m.debug_log
    else:
        assert "from PciRoot(0x0)/Pci(0x1,0x1)/Ata(Secondary,Master,0x0)" in m.text


# Run by Ember's shell (BOOTX64.EFI) from the disk: writes through the firmware's FAT driver.
STARTUP = "\r\n".join([
    "fs0:",
    "mkdir \\made",
    "echo written over ide >a \\made\\note.txt",
    "cp \\big.bin \\made\\copy.bin",
    "rm \\gone.txt",
    "echo done-writing",
    "reset -s",
]) + "\r\n"


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_fat_writes_read_back_with_mtools(machine, tmp_path, firmware):
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(range(256)) * 4096 + b"tail")  # about 1 MiB, many clusters
    startup = tmp_path / "startup.nsh"
    startup.write_bytes(STARTUP.encode())
    gone = tmp_path / "gone.txt"
    gone.write_text("to be removed\n")
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": SHELL, "startup.nsh": startup,
                         "big.bin": big, "gone.txt": gone},
                        esp_start=ESP_START, esp_size=ESP_SIZE)
    m = machine(machine="pc", firmware=firmware, extra=["-hda", str(disk)], timeout=300)
    m.expect(r"done-writing")
    m.wait_exit()
    esp = tmp_path / "esp-after.img"
    with open(disk, "rb") as f:
        f.seek(ESP_START)
        esp.write_bytes(f.read(ESP_SIZE))
    fsck = subprocess.run(["fsck.fat", "-n", str(esp)], capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stdout + fsck.stderr
    note = subprocess.run(["mtype", "-i", str(esp), "::/made/note.txt"], check=True,
                          capture_output=True).stdout
    assert note.replace(b"\r\n", b"\n") == b"written over ide\n"
    out = tmp_path / "copy.bin"
    subprocess.run(["mcopy", "-i", str(esp), "::/made/copy.bin", str(out)], check=True)
    assert out.read_bytes() == big.read_bytes()
    listing = subprocess.run(["mdir", "-b", "-i", str(esp), "::/"], check=True,
                             capture_output=True, text=True).stdout
    assert "GONE.TXT" not in listing.upper()


def skip_blk_test_on_ovmf(firmware):
    if firmware == "ovmf":
        pytest.skip("OVMF has IDE, but blk-test starts with its arguments through Ember's "
                    "fw_cfg opt/ember/app hook, which OVMF lacks")


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_blk_test_on_all_four_drives(machine, tmp_path, firmware):
    """Primary master and slave disks (LBA48: 48 MiB, so that blk-test's 40 MiB read takes
    more than one command of 256 sectors in any case), an ISO in the secondary master and an
    empty CD-ROM drive as secondary slave; blk-test reads known ranges, checks BlockIo's
    statuses and writes 2 MiB, which must land in the image files."""
    skip_blk_test_on_ovmf(firmware)
    master = remember(pattern_image(tmp_path / "m.img", size=48 * MIB, seed=50))
    slave = remember(pattern_image(tmp_path / "s.img", seed=51))
    iso = remember(iso_image(tmp_path / "cd.iso", tmp_path, seed=52))
    args = ["-drive", f"if=ide,index=0,format=raw,file={master}",
            "-drive", f"if=ide,index=1,format=raw,file={slave}",
            "-drive", f"if=ide,index=2,media=cdrom,format=raw,file={iso}",
            "-drive", "if=ide,index=3,media=cdrom"]
    m = machine(machine="pc", app=BLK_TEST, args="blk-test list crc checks write reconnect shutdown",
                extra=args, timeout=600)
    summary = m.expect(r"blk-test: (\d+) passed, (\d+) failed")
    m.wait_exit()
    assert summary.group(2) == "0", m.text
    disks = parse(m.text)
    base = r"PciRoot\(0x0\)/Pci\(0x1,0x1\)/"
    check_image(find(disks, base + r"Ata\(Primary,Master,0x0\)"), master, 512)
    check_image(find(disks, base + r"Ata\(Primary,Slave,0x0\)"), slave, 512)
    cd = find(disks, base + r"Ata\(Secondary,Master,0x0\)")
    assert cd["media"]["removable"] == "1" and cd["media"]["ro"] == "1"
    check_image(cd, iso, 2048, written=False)
    empty = find(disks, base + r"Ata\(Secondary,Slave,0x0\)")
    assert empty["media"]["present"] == "0" and empty.get("no_media")


def test_linux_uki_boots_from_hda(machine, tmp_path):
    """Debian's kernel with systemd's stub as one image (tests/qemu/linux_payloads.py) at
    the removable-media path of an -hda disk, to the initramfs' report and its power-off.
    One Linux boot, on Ember only: OVMF boots the same disk in test_linux.py's kind of runs,
    and a second boot would double the test's minutes."""
    import linux_payloads as lp
    from test_linux import report

    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    disk = lp.esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": uki})
    m = machine(machine="pc", firmware="pflash", memory=512, timeout=600,
                extra=["-drive", f"file={disk},format=raw,if=ide,snapshot=on"])
    m.expect(r"^EMBER-DONE: report")
    assert m.wait_exit() == 0, "poweroff -f did not end QEMU"
    r = report(m.text)
    assert r["STAGE"] == ["report"] and r["EFI"] == ["yes"]
    assert "efi: EFI v2.100 by Ember" in "\n".join(r.get("DMESG", []))
    assert re.search(r"starting UEFI PciRoot\(0x0\)/Pci\(0x1,0x1\)/Ata\(0x0\)/HD\(1,GPT",
                     m.debug_log)


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_bootindex_picks_the_secondary_slave(machine, tmp_path, firmware):
    """QEMU's bootorder names /pci@i0cf8/ide@1,1/drive@1/disk@1: the secondary slave's
    program starts although the primary master's comes first in the default order."""
    first = tmp_path / "first"
    second = tmp_path / "second"
    first.mkdir()
    second.mkdir()
    master = gpt_esp_disk(tmp_path / "master.img", first,
                          {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    slave = gpt_esp_disk(tmp_path / "slave.img", second,
                         {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "gop_mode.efi"})
    args = ["-drive", f"if=ide,index=0,format=raw,file={master}",
            "-drive", f"if=none,id=slave,format=raw,file={slave}",
            "-device", "ide-hd,drive=slave,bus=ide.1,unit=1,bootindex=0"]
    m = machine(machine="pc", firmware=firmware, extra=args, timeout=180)
    # Once the slave's program has returned, the boot manager may go on to the master's:
    # only what came before the slave's line counts.
    m.expect(EXPECTED["gop_mode"][firmware])
    text = m.text
    assert "Hello World!" not in text[:re.search(EXPECTED["gop_mode"][firmware], text).start()]


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_cdrom_media_changes(machine, tmp_path, firmware):
    """Removable media on IDE CD-ROM drives: a swapped disc, an ejected one and one put into
    an empty drive each give the old MediaId's reads EFI_MEDIA_CHANGED or EFI_NO_MEDIA, a
    new MediaId, and the new medium's content."""
    skip_blk_test_on_ovmf(firmware)
    first = remember(iso_image(tmp_path / "first.iso", tmp_path, seed=60))
    second = remember(iso_image(tmp_path / "second.iso", tmp_path, data_size=MIB, seed=61))
    args = ["-drive", f"if=none,id=c0,media=cdrom,format=raw,file={first}",
            "-device", "ide-cd,drive=c0,bus=ide.0,unit=1",
            "-drive", f"if=none,id=c1,media=cdrom,format=raw,file={first}",
            "-device", "ide-cd,drive=c1,bus=ide.1,unit=0",
            "-drive", "if=none,id=c2,media=cdrom",
            "-device", "ide-cd,drive=c2,bus=ide.1,unit=1"]
    m = machine(machine="pc", app=BLK_TEST, args="blk-test list media crc shutdown",
                extra=args, timeout=300)
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
    swapped = find(disks, r".*/Ata\(Primary,Slave,0x0\)")
    ejected = find(disks, r".*/Ata\(Secondary,Master,0x0\)")
    inserted = find(disks, r".*/Ata\(Secondary,Slave,0x0\)")
    assert re.search(r"disk \d+: after change: EFI_MEDIA_CHANGED", after)
    assert re.search(r"disk \d+: after change: EFI_NO_MEDIA", after)
    assert ejected["media"]["present"] == "0"
    for d in (swapped, inserted):
        assert d["media"]["present"] == "1" and d["media"]["id"] != "0"
    check_image(swapped, second, 2048, written=False)
