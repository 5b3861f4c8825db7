"""Debian's arm64 kernel on Ember for AArch64 (issue 17), as a unified kernel image:
systemd's arm64 stub with the kernel, the test initramfs (busybox, efivarfs) and the command
line (tests/qemu/linux_payloads.py), booted by the boot manager as the removable-media file
of an EFI system partition on a virtio-blk disk (PCIe), on Ember and on AAVMF, the oracle.
One scenario per way the OS learns the machine:

- ACPI (QEMU's tables from its table loader): Linux writes a variable through efivarfs and
  reboots, which arm64 Linux does through the EFI ResetSystem at its virtual address; the
  next boot finds the variable (the pflash bank) and powers off through ResetSystem.
- acpi=off: the device tree as the DTB configuration table; Linux reports and powers off.

Both check what the EFI stub and the kernel said: the table they took, efivarfs, the RTC
(the EFI GetTime at runtime on ACPI), the memory attributes table, and no firmware bug
(Linux checks x18 across runtime calls, and the 64 KiB alignment of runtime memory).
Then the boot loaders, with ACPI, one boot each: systemd-boot finding the UKI in \\EFI\\Linux,
and shim chain-loading GRUB, which loads the kernel and the initramfs from the ESP."""
import re
import time

import pytest

from test_aarch64 import AAVMF_CODE, Arm64Machine

linux_payloads = pytest.importorskip("linux_payloads")


def virtio_disk(image):
    """The ESP as a virtio-blk PCI disk, as both firmwares read it (Ember's RAM disk through
    fw_cfg is left to test_aarch64.py)."""
    return ["-drive", f"if=none,id=esp,format=raw,file={image}", "-device",
            "virtio-blk-pci,drive=esp"]


@pytest.fixture(scope="module")
def esp_disks(tmp_path_factory):
    """The two ESP disks (the UKIs differ in their stage only), made once."""
    work = tmp_path_factory.mktemp("a64-linux")
    disks = {}
    try:
        for stage in ("persist", "report"):
            uki = linux_payloads.arm64_uki(f"{linux_payloads.ARM64_CMDLINE} ember_stage={stage}",
                                           name=f"uki-arm64-{stage}.efi")
            disks[stage] = linux_payloads.esp_disk(work / f"{stage}.img", work,
                                                   {"EFI/BOOT/BOOTAA64.EFI": uki},
                                                   esp_size=40 * linux_payloads.MIB)
        # systemd-boot as the removable-media file, the report UKI in \EFI\Linux (found
        # there without an entry file), no menu.
        disks["systemd-boot"] = linux_payloads.esp_disk(
            work / "systemd-boot.img", work,
            {"EFI/BOOT/BOOTAA64.EFI": linux_payloads.arm64_systemd_boot(),
             "loader/loader.conf": "timeout 0\n", "EFI/Linux/ember.efi": uki},
            esp_size=40 * linux_payloads.MIB)
        # shim (unsigned, Secure Boot off) as the removable-media file, starting GRUB beside
        # it, which loads the kernel and the initramfs from the ESP.
        grub = linux_payloads.arm64_grub_standalone(
            "set timeout=0\nsearch --no-floppy --file --set=root /ember/vmlinuz\n"
            f"linux /ember/vmlinuz {linux_payloads.ARM64_CMDLINE} ember_stage=report\n"
            "initrd /ember/initrd.gz\nboot\n")
        disks["shim-grub"] = linux_payloads.esp_disk(
            work / "shim-grub.img", work,
            {"EFI/BOOT/BOOTAA64.EFI": linux_payloads.arm64_shim(), "EFI/BOOT/grubaa64.efi": grub,
             "ember/vmlinuz": linux_payloads.arm64_kernel(),
             "ember/initrd.gz": linux_payloads.arm64_initramfs()},
            esp_size=40 * linux_payloads.MIB)
    except linux_payloads.PayloadError as e:
        pytest.fail(f"the arm64 Linux payloads could not be made: {e}")
    return disks


def check_linux_report(text, acpi, grub=False):
    assert "EMBER-EFI: yes" in text and "EMBER-EFIVARFS: mounted" in text, text[-3000:]
    if acpi:
        # GRUB installs a tree of its own (no model: Linux still takes ACPI).
        stub = "Using DTB from configuration table" if grub else "Generating empty DTB"
        assert f"EFI stub: {stub}" in text, text[-3000:]
        assert "EMBER-ACPI: yes" in text and "EMBER-DT-MODEL: none" in text, text[-3000:]
    else:
        assert "EFI stub: Using DTB from configuration table" in text, text[-3000:]
        assert "EMBER-ACPI: no" in text, text[-3000:]
        assert "EMBER-DT-MODEL: linux,dummy-virt" in text, text[-3000:]
    efi = re.search(r"EMBER-DMESG: .*efi: (.*MEMATTR=.*)", text)  # the tables Linux found
    assert efi, text[-3000:]
    assert ("ACPI 2.0=" in efi.group(1)) == acpi, efi.group(1)
    year = re.search(r"EMBER-RTC: (\d{4})-", text)
    assert year and int(year.group(1)) >= 2024, text[-3000:]
    bugs = [line for line in text.splitlines()
            if re.search(r"[Ff]irmware [Bb]ug|FIRMWARE BUG|buggy firmware", line)]
    assert not bugs, "\n".join(bugs)


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
@pytest.mark.parametrize("acpi", [True, False], ids=["acpi", "acpi-off"])
def test_linux_uki(firmware, acpi, esp_disks):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    stage = "persist" if acpi else "report"
    start = time.monotonic()
    with Arm64Machine(None, firmware=firmware, machine="virt" if acpi else "virt,acpi=off",
                      extra=virtio_disk(esp_disks[stage]), no_reboot=not acpi,
                      timeout=600) as m:
        if acpi:
            m.expect(r"EMBER-DONE: persist, written, rebooting")
            first = m.text
            m.expect(r"EMBER-DONE: persist, found")
            text = m.text[len(first):]
            assert "EMBER-TESTVAR: none" in first, first[-3000:]
            assert "EMBER-TESTVAR: from-linux" in text, text[-3000:]
            check_linux_report(first, acpi)
            if firmware == "ember":  # Linux reset through the runtime ResetSystem
                assert "cold reset: EFI_SUCCESS" in text, text[-3000:]
        else:
            m.expect(r"EMBER-DONE: report")
            text = m.text
        check_linux_report(text, acpi)
        assert m.wait_exit() == 0
        if firmware == "ember":  # and powered off through it
            assert "shutdown: EFI_SUCCESS" in m.text
    print(f"{firmware} {'acpi' if acpi else 'acpi=off'}: {time.monotonic() - start:.1f} s")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_linux_through_systemd_boot(firmware, esp_disks):
    """systemd-boot for arm64 (Debian's systemd-boot-efi) finds the UKI in \\EFI\\Linux of
    the same ESP and starts it; Linux sees the loader's variables."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    start = time.monotonic()
    with Arm64Machine(None, firmware=firmware, extra=virtio_disk(esp_disks["systemd-boot"]),
                      timeout=600) as m:
        m.expect(r"EMBER-DONE: report")
        text = m.text
        assert "EMBER-VAR: LoaderInfo-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f" in text, text[-3000:]
        check_linux_report(text, acpi=True)
        assert m.wait_exit() == 0
    print(f"{firmware} systemd-boot: {time.monotonic() - start:.1f} s")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_linux_through_shim_and_grub(firmware, esp_disks):
    """shim for arm64 (Debian's shim-unsigned, Secure Boot off) chain-loads GRUB (Debian's
    arm64 modules, grub-mkstandalone), which boots the kernel with the initramfs."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    start = time.monotonic()
    with Arm64Machine(None, firmware=firmware, extra=virtio_disk(esp_disks["shim-grub"]),
                      timeout=600) as m:
        m.expect(r"EMBER-DONE: report")
        text = m.text
        # shim leaves its runtime copies of the MOK state behind: it ran.
        assert "EMBER-VAR: MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23" in text, text[-3000:]
        assert "Welcome to GRUB!" in text
        check_linux_report(text, acpi=True, grub=True)
        assert m.wait_exit() == 0
    print(f"{firmware} shim and GRUB: {time.monotonic() - start:.1f} s")
