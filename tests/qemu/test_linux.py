"""Debian's Linux to userspace on Ember's QEMU firmware, unmodified Debian binaries all the
way (tests/qemu/linux_payloads.py fetches and builds them in the build directory): a
unified kernel image at the removable-media path, systemd-boot with a loader entry, GRUB
(grub-mkstandalone), shim chain-loading GRUB (Secure Boot off), and QEMU's -kernel. The
initramfs' /init (tests/qemu/linux/init.sh) reports what Linux sees of the firmware as
"EMBER-<WHAT>: value" lines; the boot-entry test runs it through efibootmgr, BootNext,
reboots through EFI ResetSystem and ACPI, and power-off, over two QEMU runs that keep the
VARS flash.

How Linux resets here: `poweroff -f` enters ACPI S5 (Linux uses EFI ResetSystem for power-off
only on reduced-hardware ACPI, which QEMU's q35 is not); `reboot -f` uses the FADT reset
register by default and EFI ResetSystem with `reboot=efi` (checked in Ember's log)."""
import re

import pytest

import linux_payloads as lp
from conftest import BUILD

GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
SHIM_GUID = "605dab50-e046-4300-abb6-3dd810dd8b23"
SYSTEMD_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
BOOT_TIMEOUT = 240  # one Linux boot is 10-20 s under TCG; CI machines are slower
RTC_BASE = "2031-05-06T07:08:09"


def report(text):
    """The init's EMBER-<WHAT> lines: {WHAT: [values in order]}."""
    found = {}
    for what, value in re.findall(r"^EMBER-([A-Z0-9-]+): ?(.*)$", text, re.M):
        found.setdefault(what, []).append(value.strip())
    return found


def efi_dmesg(r):
    return "\n".join(r.get("DMESG", []))


@pytest.fixture(scope="module")
def payloads(tmp_path_factory):
    """The kernel, the initramfs and the disks every test shares (made once)."""
    if not (BUILD / "qemu-x86_64" / "ember-code.fd").exists():
        pytest.fail(f"{BUILD}/qemu-x86_64 is missing: run make first")
    work = tmp_path_factory.mktemp("linux")
    try:
        kernel, initrd = lp.kernel(), lp.initramfs()
        report_cmd = f"{lp.CMDLINE} ember_stage=report"
        grub_cfg = ("set timeout=0\n"
                    "search --no-floppy --set=root --file /ember/vmlinuz\n"
                    f"linux /ember/vmlinuz {report_cmd}\n"
                    "initrd /ember/initrd.gz\n"
                    "boot\n")
        grub = lp.grub_standalone(grub_cfg)
        on_esp = {"ember/vmlinuz": kernel, "ember/initrd.gz": initrd}

        def disk(name, files):
            (work / name).mkdir()
            return lp.esp_disk(work / name / "disk.img", work / name, files)

        return {
            "kernel": kernel,
            "initrd": initrd,
            "uki": disk("uki", {"EFI/BOOT/BOOTX64.EFI": lp.uki(report_cmd)}),
            "systemd-boot": disk("sdboot", {
                "EFI/BOOT/BOOTX64.EFI": lp.systemd_boot(),
                "loader/loader.conf": "timeout 0\ndefault ember.conf\n",
                "loader/entries/ember.conf": ("title Ember test\nlinux /ember/vmlinuz\n"
                                              f"initrd /ember/initrd.gz\noptions {report_cmd}\n"),
                **on_esp}),
            "grub": disk("grub", {"EFI/BOOT/BOOTX64.EFI": grub, **on_esp}),
            "shim": disk("shim", {"EFI/BOOT/BOOTX64.EFI": lp.shim(),
                                  "EFI/BOOT/grubx64.efi": grub, **on_esp}),
            "install": disk("install", {
                "EFI/BOOT/BOOTX64.EFI": lp.uki(f"{lp.CMDLINE} ember_stage=install",
                                               name="uki-install.efi"),
                "EFI/ember/vmlinuz.efi": kernel, "EFI/ember/initrd.gz": initrd}),
        }
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")


def virtio_disk(path, snapshot=True):
    return ["-drive", f"file={path},format=raw,if=virtio" + (",snapshot=on" if snapshot else "")]


def boot_to_report(machine, disk, **kwargs):
    """Boots a disk (pflash pair) to the init's report and its power-off; the report."""
    m = machine(firmware="pflash", memory=512, timeout=BOOT_TIMEOUT,
                disks=[virtio_disk(disk)], **kwargs)
    m.expect(r"^EMBER-DONE: report")
    assert m.wait_exit() == 0, "poweroff -f did not end QEMU"
    return m, report(m.text)


def check_linux_sees_ember(r, tables=("RTPROP=", "MEMATTR=", "RNG="), boot_manager=True):
    """boot_manager=False: a program from fw_cfg started the loader, so the boot manager
    made no boot options and no console variables."""
    assert r["STAGE"] == ["report"], "the loader did not pass the command line"
    assert r["EFI"] == ["yes"], "Linux did not find EFI (/sys/firmware/efi)"
    assert r["EFIVARFS"] == ["mounted"]
    names = ["PlatformLangCodes", "PlatformLang", "OsIndicationsSupported"]
    if boot_manager:
        names += ["BootOrder", "Boot0000", "ConOut", "ConOutDev", "BootCurrent"]
    for name in names:
        assert f"{name}-{GLOBAL}" in r["VAR"], f"efivarfs does not list {name}"
    dmesg = efi_dmesg(r)
    assert "efi: EFI v2.100 by Ember" in dmesg
    # The configuration tables Linux took: runtime properties, memory attributes (Linux
    # then maps the runtime code read-only and the data non-executable, and efivarfs above
    # shows the services still work), and the random seed its EFI stub makes with
    # EFI_RNG_PROTOCOL when entered as a PE image.
    for table in tables:
        assert table in dmesg, f"no {table} in Linux's EFI line"


def test_uki_at_removable_path(machine, payloads):
    """systemd's stub with the kernel, the initramfs and the command line in one image at
    \\EFI\\BOOT\\BOOTX64.EFI, booted through Ember's default option for the disk."""
    m, r = boot_to_report(machine, payloads["uki"])
    check_linux_sees_ember(r)
    # The option that booted is the one Ember made for the disk, and says so.
    assert r["BOOTCURRENT"] == ["0000"]
    assert any(re.match(r"Boot0000\* UEFI PciRoot\(0x0\)/Pci\(0x2,0x0\)/HD\(1,GPT,", line)
               for line in r["EFIBOOTMGR"])
    assert f"StubInfo-{SYSTEMD_GUID}" in r["VAR"], "systemd-stub's variable is missing"
    assert "EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path" in m.text


def test_systemd_boot_loader_entry(machine, payloads):
    """systemd-boot with a loader entry: kernel and initrd on the ESP (systemd-boot hands the
    initrd over through LoadFile2). The machine has a virtio-rng device: Ember's RNG
    protocol then offers its bytes raw, and they seed Linux. And 4 processors: apps/mp-test
    first runs procedures on every AP through MP services, then starts the disk's
    systemd-boot ("boot"); Linux brings up the APs Ember parked at ExitBootServices. (The
    boot manager's options are checked by the other tests: here it does not run.)"""
    m, r = boot_to_report(machine, payloads["systemd-boot"],
                          extra=["-device", "virtio-rng-pci", "-smp", "4"],
                          app=BUILD / "apps" / "mp-test.efi", args="mp-test boot")
    assert re.search(r"^mp-test: \d+ passed, 0 failed", m.text, re.M), m.text[-3000:]
    assert "mp-test: 4 processors" in m.text
    assert r["CPUS"] == ["0-3"], "Linux did not bring up the 4 processors"
    check_linux_sees_ember(r, boot_manager=False)
    assert "rng: source virtio-rng (hardware)" in m.debug_log
    assert f"LoaderEntrySelected-{SYSTEMD_GUID}" in r["VAR"]
    assert "EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path" in m.text


def test_grub_standalone(machine, payloads):
    """GRUB as one image (grub-mkstandalone) with `linux` and `initrd` from the ESP."""
    m, r = boot_to_report(machine, payloads["grub"])
    # GRUB enters the kernel through the EFI handover protocol, where the stub seeds no RNG.
    check_linux_sees_ember(r, tables=("RTPROP=", "MEMATTR="))


def test_shim_chain_loads_grub(machine, payloads):
    """shim (unsigned, Secure Boot off) as BOOTX64.EFI starts grubx64.efi beside it."""
    m, r = boot_to_report(machine, payloads["shim"])
    check_linux_sees_ember(r, tables=("RTPROP=", "MEMATTR="))
    # shim leaves its runtime copies of the MOK state behind: it ran.
    assert any(v.endswith(SHIM_GUID) for v in r["VAR"]), "no variable of shim's"


def test_kernel_initrd_append(machine, payloads, tmp_path):
    """QEMU's -kernel/-initrd/-append (here with the pflash pair): the initrd through
    LoadFile2, the command line as LoadOptions; and the clock Linux reads is the one Ember
    reports. Then Linux asks for the firmware's setup screen as `systemctl reboot
    --firmware-setup` does (OsIndications' BOOT_TO_FW_UI, when OsIndicationsSupported
    offers it) and reboots: the next boot opens the setup screen."""
    m = machine(firmware="pflash", memory=512, timeout=BOOT_TIMEOUT, no_reboot=False,
                extra=["-kernel", str(payloads["kernel"]), "-initrd", str(payloads["initrd"]),
                       "-append", f"{lp.CMDLINE} ember_stage=firmware_setup",
                       "-rtc", f"base={RTC_BASE}"])
    m.expect(r"^EMBER-DONE: firmware setup asked, rebooting")
    m.expect(r"Ember settings")
    m.expect(r"F10 save")
    r = report(m.text)
    assert r["STAGE"] == ["firmware_setup"]
    assert int(r["OSINDICATIONS-SUPPORTED"][0]) & 1
    assert r["EFI"] == ["yes"]
    for table in ("RTPROP=", "MEMATTR=", "RNG="):
        assert table in efi_dmesg(r), f"no {table} in Linux's EFI line"
    assert "EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path" in m.text
    # Ember's GetTime at boot and Linux's RTC (rtc_cmos) both read 2031-05-06 07:08.
    day, time = RTC_BASE.split("T")
    assert re.search(rf"time {day} {time[:5]}", m.debug_log), "Ember's GetTime differs"
    assert r["RTC"][0].startswith(f"{day} {time[:5]}"), r["RTC"]
    assert r["HWCLOCK"][0].startswith("Tue May  6 07:08"), r["HWCLOCK"]


def test_boot_entries_bootnext_and_resets(machine, payloads, tmp_path):
    """Run 1 (the UKI at the removable path): Linux writes a variable and creates two boot
    entries with efibootmgr (short-form HD() paths to the kernel's own EFI stub, its
    command line as the entry's optional data), then powers off. Run 2, same VARS file:
    Ember boots the first entry ("Ember second"), where the variable is back; Linux sets
    BootNext to "Ember next" and reboots through EFI ResetSystem (reboot=efi); Ember boots
    "Ember next" once, which reboots through ACPI; then "Ember second" again."""
    vars_file = tmp_path / "vars.fd"
    disk = tmp_path / "disk.img"
    disk.write_bytes(payloads["install"].read_bytes())

    m = machine(firmware="pflash", memory=512, timeout=BOOT_TIMEOUT, vars_file=vars_file,
                disks=[virtio_disk(disk, snapshot=False)])
    m.expect(r"^EMBER-DONE: install")
    assert m.wait_exit() == 0, "poweroff -f did not end QEMU"
    created = "\n".join(report(m.text)["CREATED"])
    entries = dict((label, number) for number, label in
                   re.findall(r"^Boot([0-9A-F]{4})\* (Ember \w+)", created, re.M))
    assert set(entries) == {"Ember second", "Ember next"}, created
    assert re.search(r"Ember second\tHD\(1,GPT,[^)]*\)/File\(\\EFI\\ember\\vmlinuz.efi\)",
                     created), created
    second, nxt = entries["Ember second"], entries["Ember next"]
    m.close()

    # No -no-reboot: the resets Linux asks for restart the machine.
    m = machine(firmware="pflash", memory=512, timeout=3 * BOOT_TIMEOUT, vars_file=vars_file,
                disks=[virtio_disk(disk, snapshot=False)], no_reboot=False)
    m.expect(r"^EMBER-DONE: second again")
    assert m.wait_exit() == 0
    r = report(m.text)
    assert r["STAGE"] == ["second", "next", "second"], r["STAGE"]
    assert r["BOOTCURRENT"] == [second, nxt, second]
    assert r["TESTVAR"] == ["from-linux"] * 3, "the variable Linux wrote did not persist"
    assert r["BOOTNEXT-SET"] == [nxt]
    # BootNext is gone once used: the third boot sees none.
    assert r["BOOTNEXT"] == ["none", "none", "none"]
    # Ember's log: the option expansion, and exactly one ResetSystem, from reboot=efi.
    log = m.debug_log
    assert log.count(f"starting Ember second") == 2
    assert log.count(f"starting Ember next") == 1
    resets = re.findall(r"^reset: ResetSystem\((\w+)\) at runtime", log, re.M)
    assert resets == ["EfiResetCold"], log[-2000:]
