"""USB mass storage on QEMU's xHCI (qemu-xhci with usb-storage, Bulk-Only Transport): the
article's two programs boot from a GPT disk on a USB stick, a hybrid El Torito ISO made by
xorriso boots from a USB stick, and a stick plugged in while the shell runs gets a new fsN:
after map -r; Debian's kernel as a UKI boots from a stick. Each also runs on OVMF (the
oracle)."""
import re
import subprocess
import time

import pytest

import linux_payloads as lp
from conftest import BUILD, OVMF_CODE
from disk_images import MIB, fat_partition, gpt_esp_disk
from test_usb import USB_KEYBOARD, shell_disk, shell_on, typed  # noqa: F401 (a fixture)

PROGRAMS = {"hello": r"Hello World!", "gop_mode": r"Mode 0 is running at 1024x768"}
# OVMF starts in a mode of its own choice.
PROGRAMS_OVMF = {"hello": r"Hello World!", "gop_mode": r"Mode \d+ is running at \d+x\d+"}
HELLO = BUILD / "tests" / "programs" / "hello.efi"


def usb_stick(image, bus="xhci.0"):
    return ["-drive", f"if=none,id=stick,format=raw,file={image},snapshot=on",
            "-device", f"usb-storage,bus={bus},drive=stick"]


def boot_from_stick(machine, firmware, image):
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) missing")
    return machine(machine="q35", firmware=firmware, timeout=240,
                   extra=["-device", "qemu-xhci,id=xhci"] + usb_stick(image))


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_article_programs_boot_from_usb_stick(machine, tmp_path, firmware, program):
    image = BUILD / "tests" / "programs" / f"{program}.efi"
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": image})
    m = boot_from_stick(machine, firmware, disk)
    m.expect((PROGRAMS_OVMF if firmware == "ovmf" else PROGRAMS)[program])
    if firmware != "ovmf":
        assert "usb-storage: mass storage ready" in m.debug_log


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_hybrid_iso_boots_from_usb_stick(machine, tmp_path, firmware):
    """xorriso's hybrid ISO, as written to a stick with dd: El Torito's EFI image is also
    appended as a GPT EFI system partition (what a stick of 512-byte blocks boots from)."""
    content = tmp_path / "iso"
    content.mkdir()
    fat_partition(content / "efiboot.img", 2 * MIB, {"EFI/BOOT/BOOTX64.EFI": HELLO})
    iso = tmp_path / "boot.iso"
    subprocess.run(["xorriso", "-as", "mkisofs", "-quiet", "-V", "EMBERBOOT", "-e",
                    "efiboot.img", "-no-emul-boot", "-append_partition", "2", "0xef",
                    str(content / "efiboot.img"), "-appended_part_as_gpt", "-o", str(iso),
                    str(content)], check=True, capture_output=True)
    m = boot_from_stick(machine, firmware, iso)
    m.expect(r"Hello World!")


@pytest.fixture(scope="module")
def stick(tmp_path_factory):
    work = tmp_path_factory.mktemp("stick")
    return gpt_esp_disk(work / "stick.img", work, {"STICK.TXT": HELLO})


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_usb_stick_plugged_in_while_the_shell_runs(machine, shell_disk, stick, firmware):
    m = shell_on(machine, shell_disk, firmware, devices=USB_KEYBOARD + [
        "-drive", f"if=none,id=stick,format=raw,file={stick},snapshot=on"])
    m.qmp("device_add", driver="usb-storage", bus="xhci.0", drive="stick", id="hotstick")
    if firmware != "ovmf":
        m.expect_log(r"usb-storage: mass storage ready")
    else:
        time.sleep(3)  # OVMF says nothing when its hot-plug poll finds the stick
    m.send_keys(*typed("map -r"), "ret")
    m.expect(r"fs1:")
    m.send_keys(*typed("ls fs1"), ["shift", "semicolon"], "ret")
    m.expect(r"(?i)stick\.txt")
    # Pulled out: the disk above the stick goes with it, and the shell lives on.
    m.qmp("device_del", id="hotstick")
    if firmware != "ovmf":
        m.expect_log(r"usb: port \d+: device removed")
    else:
        time.sleep(3)
    m.send_keys(*typed("echo still"), "ret")
    m.expect(r"^still$")


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_bootindex_puts_the_stick_first(machine, tmp_path, firmware):
    """QEMU's bootindex on usb-storage (fw_cfg bootorder .../usb@N/storage@P/...) ranks the
    stick before a virtio disk that would otherwise come first."""
    stick = gpt_esp_disk(tmp_path / "stick.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": HELLO})
    other = tmp_path / "other"
    other.mkdir()
    disk = gpt_esp_disk(other / "disk.img", other,
                        {"EFI/BOOT/BOOTX64.EFI": BUILD / "tests" / "programs" / "gop_mode.efi"})
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) missing")
    m = machine(machine="q35", firmware=firmware, timeout=240, extra=[
        "-drive", f"if=none,id=disk,format=raw,file={disk},snapshot=on",
        "-device", "virtio-blk-pci,drive=disk,bootindex=2",
        "-device", "qemu-xhci,id=xhci",
        "-drive", f"if=none,id=stick,format=raw,file={stick},snapshot=on",
        "-device", "usb-storage,bus=xhci.0,drive=stick,bootindex=1"])
    m.expect(r"Hello World!|Mode \d+ is running")
    assert "Hello World!" in m.text, "\n".join(l for l in m.debug_log.splitlines() if "ofw" in l or "boot" in l)


@pytest.fixture(scope="module")
def uki_stick(tmp_path_factory):
    work = tmp_path_factory.mktemp("usb-linux")
    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    return lp.esp_disk(work / "disk.img", work, {"EFI/BOOT/BOOTX64.EFI": uki})


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_linux_uki_boots_from_usb_stick(machine, uki_stick, firmware):
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) missing")
    m = machine(machine="q35", firmware=firmware, memory=512, timeout=300,
                extra=["-device", "qemu-xhci,id=xhci"] + usb_stick(uki_stick))
    m.expect(r"^EMBER-DONE: report")
    assert m.wait_exit(60) == 0, "poweroff -f did not end QEMU"
    assert "EMBER-STAGE: report" in m.text
    assert "EMBER-EFI: yes" in m.text
    if firmware != "ovmf":
        assert re.search(r"starting UEFI \S*USB\(0x\d,0x0\)", m.debug_log), m.debug_log[-2000:]
