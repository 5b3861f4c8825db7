"""Boot entries written by Linux's efibootmgr on AArch64 (issue 17), as test_linux.py's
boot-entry test does on x86-64, with the same stages of tests/qemu/linux/init.sh, on Ember
and on AAVMF (the oracle). The ESP is a GPT disk on virtio-blk-pci holding a UKI at the
removable-media path (stage install) and Debian's arm64 kernel Image, which is itself a PE
with the EFI stub, as \\EFI\\ember\\vmlinuz.efi beside the initramfs (busybox, efibootmgr
and the virtio-blk modules).

Run 1: Linux writes a variable and creates two entries with `efibootmgr -c -d /dev/vda -p 1`
(short-form HD() paths to vmlinuz.efi, the kernel's command line as the entry's optional
data), then powers off. Run 2, same variables flash, resets restart the machine: the
firmware boots "Ember second" (first in BootOrder), where the variable is back; Linux sets
BootNext to "Ember next" and reboots (through the EFI ResetSystem, as arm64 Linux does);
the firmware boots "Ember next" once, which reboots; then "Ember second" again, which
powers off."""
import re
import shutil
import time

import pytest

from test_aarch64 import A64, AAVMF_CODE, AAVMF_VARS, Arm64Machine
from test_aarch64_linux import virtio_disk

linux_payloads = pytest.importorskip("linux_payloads")


def report(text):
    """The init's EMBER-<WHAT> lines: {WHAT: [values in order]}."""
    found = {}
    for what, value in re.findall(r"^EMBER-([A-Z0-9-]+): ?(.*)$", text, re.M):
        found.setdefault(what, []).append(value.strip())
    return found


@pytest.fixture(scope="module")
def install_disk(tmp_path_factory):
    work = tmp_path_factory.mktemp("a64-boot-entries")
    try:
        initrd = linux_payloads.arm64_initramfs(efibootmgr=True)
        uki = linux_payloads.arm64_uki(f"{linux_payloads.ARM64_CMDLINE} ember_stage=install",
                                       name="uki-arm64-install.efi", initrd=initrd)
        return linux_payloads.esp_disk(
            work / "install.img", work,
            {"EFI/BOOT/BOOTAA64.EFI": uki, "EFI/ember/vmlinuz.efi": linux_payloads.arm64_kernel(),
             "EFI/ember/initrd.gz": initrd},
            esp_size=96 * linux_payloads.MIB)
    except linux_payloads.PayloadError as e:
        pytest.fail(f"the arm64 Linux payloads could not be made: {e}")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_efibootmgr_entries_bootnext_and_resets(firmware, install_disk, tmp_path):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    vars_file = tmp_path / "vars.fd"
    shutil.copy(A64 / "ember-vars.fd" if firmware == "ember" else AAVMF_VARS, vars_file)
    # Linux only reads the disk (efibootmgr reads its GPT): a snapshot keeps it shared.
    disk = virtio_disk(install_disk)
    disk[1] += ",snapshot=on"
    start = time.monotonic()
    with Arm64Machine(None, firmware=firmware, extra=disk, vars_file=vars_file,
                      timeout=600) as m:
        m.expect(r"^EMBER-DONE: install")
        assert m.wait_exit() == 0, "poweroff -f did not end QEMU"
        created = "\n".join(report(m.text).get("CREATED", []))
    entries = dict((label, number) for number, label in
                   re.findall(r"^Boot([0-9A-F]{4})\* (Ember \w+)", created, re.M))
    assert set(entries) == {"Ember second", "Ember next"}, created
    assert re.search(r"Ember second\tHD\(1,GPT,[^)]*\)/File\(\\EFI\\ember\\vmlinuz.efi\)",
                     created), created
    second, nxt = entries["Ember second"], entries["Ember next"]
    first_run = time.monotonic() - start

    with Arm64Machine(None, firmware=firmware, extra=disk, vars_file=vars_file,
                      no_reboot=False, timeout=600) as m:
        m.expect(r"^EMBER-DONE: second again")
        assert m.wait_exit() == 0
        text = m.text
    r = report(text)
    assert r["STAGE"] == ["second", "next", "second"], r["STAGE"]
    assert r["BOOTCURRENT"] == [second, nxt, second], r["BOOTCURRENT"]
    assert r["TESTVAR"] == ["from-linux"] * 3, "the variable Linux wrote did not persist"
    assert r["BOOTNEXT-SET"] == [nxt]
    # BootNext is gone once used: every boot of run 2 starts without one.
    assert r["BOOTNEXT"] == ["none", "none", "none"], r["BOOTNEXT"]
    # Each boot took its command line from its entry's optional data, and the EFI stub read
    # the initrd= file through the file system of the partition the short-form path named.
    assert text.count("EFI stub: Loaded initrd from command line option") == 3, text[-3000:]
    if firmware == "ember":  # both reboots came through the runtime ResetSystem
        assert text.count("cold reset: EFI_SUCCESS") == 2, text[-3000:]
    bugs = [line for line in text.splitlines()
            if re.search(r"[Ff]irmware [Bb]ug|FIRMWARE BUG|buggy firmware", line)]
    assert not bugs, "\n".join(bugs)
    print(f"{firmware}: install {first_run:.1f} s, all {time.monotonic() - start:.1f} s")
