"""virtio-scsi with QEMU's scsi-hd and scsi-cd: Ember's virtio-scsi pass-thru, SCSI bus and
SCSI disk drivers under the partition and FAT drivers. The article's two programs boot from
a GPT disk, an El Torito ISO made by xorriso boots from a CD, files the firmware's shell
writes read back with mtools and pass fsck.fat, the blk-test application reads, checks and
writes disks on several targets and LUNs over the modern and the legacy interface and sees
a CD swapped, and Debian's kernel as a UKI boots. The boot tests run on OVMF too, which has
a virtio-scsi driver, as the oracle."""
import re
import subprocess

import pytest

import linux_payloads as lp
from conftest import BUILD
from disk_images import MIB, fat_partition, gpt_esp_disk, iso_image, pattern_image
from test_disks import BLK_TEST, check_image, find, parse, remember, run_blk_test

HELLO = BUILD / "tests" / "programs" / "hello.efi"
PROGRAMS = {"hello": r"Hello World!", "gop_mode": r"Mode 0 is running at 1024x768"}
FIRMWARES = ["bios", "ovmf"]
ESP_START = MIB


def scsi_args(image, device="scsi-hd", cdrom=False, controller="", snapshot=False):
    """A virtio-scsi adapter (options in controller) with one device on it."""
    fmt = f"file={image},format=raw" + (",media=cdrom" if cdrom else "")
    fmt += ",snapshot=on" if snapshot else ""
    return ["-device", f"virtio-scsi-pci,id=scsi0{controller}",
            "-drive", f"if=none,id=D,{fmt}", "-device", f"{device},drive=D,bus=scsi0.0"]


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("firmware", FIRMWARES)
def test_article_programs_boot_from_scsi_hd(machine, tmp_path, firmware, program):
    image = BUILD / "tests" / "programs" / f"{program}.efi"
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": image})
    m = machine(firmware=firmware, extra=scsi_args(disk), timeout=120)
    # OVMF starts in a mode of its own choosing: only Ember's mode 0 is known.
    m.expect(PROGRAMS[program] if firmware != "ovmf" else PROGRAMS[program].split(" at ")[0])
    if firmware != "ovmf":
        # The boot option Ember made for the disk names the SCSI device.
        assert re.search(r"bds: starting UEFI PciRoot\(0x0\)/Pci\(0x\w+,0x0\)/Scsi\(0x0,0x0\)"
                         r"/HD\(1,GPT,", m.debug_log), m.debug_log


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_el_torito_iso_boots_from_scsi_cd(machine, tmp_path, firmware):
    content = tmp_path / "iso"
    content.mkdir()
    fat_partition(content / "efiboot.img", 2 * MIB, {"EFI/BOOT/BOOTX64.EFI": HELLO})
    iso = tmp_path / "boot.iso"
    subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-V", "EMBERBOOT", "-e",
                    "efiboot.img", "-no-emul-boot", "-o", str(iso), str(content)],
                   check=True, capture_output=True)
    m = machine(firmware=firmware, extra=scsi_args(iso, "scsi-cd", cdrom=True), timeout=120)
    m.expect(r"Hello World!")
    if firmware != "ovmf":
        assert re.search(r"bds: starting UEFI .*/Scsi\(0x0,0x0\)/CDROM\(0x0\)", m.debug_log)


def mtools(esp, *args):
    return subprocess.run(list(args) + ["-i", f"{esp}@@{ESP_START}"], check=True,
                          capture_output=True).stdout


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_fat_written_on_scsi_hd_reads_back_with_mtools(machine, tmp_path, firmware):
    """The firmware's shell (Ember's, OVMF's) makes a directory, writes a file and copies a
    program on the disk's ESP; mtools reads them back and fsck.fat finds nothing to fix."""
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"ember/hello.efi": HELLO})
    m = machine(firmware=firmware, extra=scsi_args(disk), timeout=180)
    prompt = r"(Shell|FS0:\\|fs0:\\)> ?$"
    m.expect(prompt)
    for command in ["fs0:", "mkdir written", r"echo written by the firmware > written\note.txt",
                    r"cp ember\hello.efi written\copy.efi", "reset -s"]:
        m.send(command + "\r")
        if command != "reset -s":
            m.expect(prompt)
    m.wait_exit()
    esp = tmp_path / "esp-after.img"
    with open(disk, "rb") as f:
        f.seek(ESP_START)
        esp.write_bytes(f.read(40 * MIB))
    note = subprocess.run(["mtype", "-i", str(esp), "::/written/note.txt"], check=True,
                          capture_output=True).stdout
    assert b"written by the firmware" in note.replace(b"\0", b"")
    subprocess.run(["mcopy", "-i", str(esp), "::/written/copy.efi", str(tmp_path / "copy")],
                   check=True)
    assert (tmp_path / "copy").read_bytes() == HELLO.read_bytes()
    fsck = subprocess.run(["fsck.fat", "-n", str(esp)], capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stdout + fsck.stderr


def test_blk_test_on_targets_and_luns(machine, tmp_path):
    """Disks on two targets and a second LUN, a CD, over the modern and the legacy
    interface: BlockIo reads match the images, the checks pass, writes land."""
    imgs = [remember(pattern_image(tmp_path / f"s{i}.img", seed=20 + i)) for i in range(3)]
    iso = remember(iso_image(tmp_path / "cd.iso", tmp_path, seed=23))
    args = ["-device", "virtio-scsi-pci,id=scsi0,addr=0x4",
            "-device", "virtio-scsi-pci,id=scsi1,addr=0x5,disable-modern=on",
            "-drive", f"if=none,id=d0,file={imgs[0]},format=raw",
            "-device", "scsi-hd,drive=d0,bus=scsi0.0,scsi-id=0,lun=0",
            "-drive", f"if=none,id=d1,file={imgs[1]},format=raw",
            "-device", "scsi-hd,drive=d1,bus=scsi0.0,scsi-id=3,lun=2",
            "-drive", f"if=none,id=d2,file={imgs[2]},format=raw",
            "-device", "scsi-hd,drive=d2,bus=scsi1.0,scsi-id=1,lun=0",
            "-drive", f"if=none,id=c0,file={iso},format=raw,media=cdrom",
            "-device", "scsi-cd,drive=c0,bus=scsi1.0,scsi-id=2,lun=0"]
    disks, m = run_blk_test(machine, "q35", args)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x4,0x0\)/Scsi\(0x0,0x0\)"), imgs[0], 512)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x4,0x0\)/Scsi\(0x3,0x2\)"), imgs[1], 512)
    check_image(find(disks, r"PciRoot\(0x0\)/Pci\(0x5,0x0\)/Scsi\(0x1,0x0\)"), imgs[2], 512)
    cd = find(disks, r"PciRoot\(0x0\)/Pci\(0x5,0x0\)/Scsi\(0x2,0x0\)")
    assert cd["media"]["removable"] == "1" and cd["media"]["ro"] == "1"
    check_image(cd, iso, 2048, written=False)
    found = sorted(re.findall(r"virtio-scsi: .* (modern|legacy) interface", m.debug_log))
    # Each adapter starts as often as the other (at boot and on blk-test's reconnect).
    assert found.count("legacy") == found.count("modern") > 0, found


def test_scsi_cd_media_changes(machine, tmp_path):
    """A swapped disc and an ejected one: the old MediaId's reads get EFI_MEDIA_CHANGED or
    EFI_NO_MEDIA, and the new medium is read."""
    first = remember(iso_image(tmp_path / "first.iso", tmp_path, seed=50))
    second = remember(iso_image(tmp_path / "second.iso", tmp_path, data_size=MIB, seed=51))
    args = ["-device", "virtio-scsi-pci,id=scsi0",
            "-drive", f"if=none,id=c0,file={first},format=raw,media=cdrom",
            "-device", "scsi-cd,drive=c0,bus=scsi0.0,scsi-id=0",
            "-drive", f"if=none,id=c1,file={first},format=raw,media=cdrom",
            "-device", "scsi-cd,drive=c1,bus=scsi0.0,scsi-id=1"]
    m = machine(machine="q35", app=BLK_TEST, args="blk-test list media crc shutdown",
                extra=args, timeout=180)
    m.expect(r"blk-test: change the media, then press a key")
    m.qmp("blockdev-change-medium", device="c0", filename=str(second), format="raw")
    m.qmp("eject", device="c1", force=True)
    m.send("x")
    summary = m.expect(r"blk-test: (\d+) passed, (\d+) failed")
    m.wait_exit()
    assert summary.group(2) == "0", m.text
    after = m.text.split("change the media")[1]
    disks = parse(after)
    swapped = find(disks, r".*/Scsi\(0x0,0x0\)")
    ejected = find(disks, r".*/Scsi\(0x1,0x0\)")
    assert re.search(r"disk \d+: after change: EFI_MEDIA_CHANGED", after)
    assert re.search(r"disk \d+: after change: EFI_NO_MEDIA", after)
    assert ejected["media"]["present"] == "0"
    assert swapped["media"]["present"] == "1" and swapped["media"]["id"] != "0"
    check_image(swapped, second, 2048, written=False)


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_linux_uki_boots_from_scsi_hd(machine, tmp_path, firmware):
    """Debian's kernel as a UKI at the removable path of a scsi-hd disk, booted once per
    firmware: Linux sees EFI and its boot entry names the SCSI device."""
    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
        disk = lp.esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": uki})
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    m = machine(firmware="pflash" if firmware == "bios" else firmware, memory=512,
                timeout=240, extra=scsi_args(disk, snapshot=True))
    m.expect(r"^EMBER-DONE: report")
    assert m.wait_exit() == 0, "poweroff -f did not end QEMU"
    lines = re.findall(r"^EMBER-EFI(?:BOOTMGR)?: (.*)$", m.text, re.M)
    assert "yes" in lines, "Linux did not find EFI"
    # The entry that booted, as efibootmgr (libefivar) prints its device path.
    current = next(line.split()[1] for line in lines if line.startswith("BootCurrent:"))
    entry = next(line for line in lines if line.startswith(f"Boot{current}"))
    assert re.search(r"PciRoot\(0x0\)/Pci\(0x\w+,0x0\)/SCSI\(0,0\)", entry, re.I), entry
