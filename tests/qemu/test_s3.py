"""S3 suspend and resume on QEMU (docs/platform-qemu.md, "S3 resume"): Debian's kernel,
booted with QEMU's -kernel/-initrd on the pflash pair, suspends to RAM three times in a
row (`echo mem > /sys/power/state` in the initramfs' s3 stage, tests/qemu/linux/init.sh);
the test wakes the machine each time with QMP system_wakeup, and after each wake the
initramfs writes and reads back a variable through efivarfs and reads the disk's marker
from the device. On q35 and pc, on Ember and on OVMF (the oracle), one Linux boot each.
On Ember, the reset stage's debug-console line shows the wake took the resume path (not a
fresh boot), and the S3 record's area is reserved in Linux's e820. A record damaged from
Linux (/dev/mem) makes the wake a normal boot: Linux starts afresh."""
import gzip
import time

import pytest

import linux_payloads as lp

BOOT_TIMEOUT = 300  # one Linux boot is 10-40 s under TCG; CI machines are slower
S3_GLOBAL = {"q35": "ICH9-LPC.disable_s3=0", "pc": "PIIX4_PM.disable_s3=0"}
MARKER = "EMBER-S3-MARKER!"
RESUMED = "Ember: S3 resume: jumping to the OS's waking vector"
DAMAGED = "Ember: S3 resume: the saved state is damaged; booting normally"


@pytest.fixture(scope="module")
def s3_payloads(tmp_path_factory):
    """The kernel, the test initramfs (made here, not in the shared cache) and a disk whose
    second sector holds MARKER."""
    work = tmp_path_factory.mktemp("s3")
    try:
        kernel = lp.kernel()
        initrd = work / "initrd.gz"
        initrd.write_bytes(gzip.compress(lp.cpio_newc(lp._initramfs_entries()), 6, mtime=0))
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    disk = bytearray(1 << 20)
    disk[512:512 + len(MARKER)] = MARKER.encode()
    (work / "disk.img").write_bytes(disk)
    return {"kernel": kernel, "initrd": initrd, "disk": work / "disk.img"}


def boot(machine, p, machine_type, firmware, stage):
    return machine(machine=machine_type, firmware=firmware, memory=512, timeout=BOOT_TIMEOUT,
                   disks=[["-drive", f"file={p['disk']},format=raw,if=virtio,snapshot=on"]],
                   extra=["-global", S3_GLOBAL[machine_type], "-kernel", str(p["kernel"]),
                          "-initrd", str(p["initrd"]),
                          "-append", f"{lp.CMDLINE} ember_stage={stage}"])


def wake_when_suspended(m, n):
    """Waits for the n-th suspend (QMP query-status says so), then wakes the machine."""
    m.expect(rf"^EMBER-S3-SUSPEND: {n}$")
    deadline = time.monotonic() + 60
    while m.qmp("query-status")["status"] != "suspended":
        assert time.monotonic() < deadline, f"suspend {n}: QEMU never suspended:\n{m.text[-2000:]}"
        time.sleep(0.1)
    m.qmp("system_wakeup")


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"], ids=["ember", "ovmf"])
@pytest.mark.parametrize("machine_type", ["q35", "pc"])
def test_s3_suspend_resume_three_times(machine, s3_payloads, machine_type, firmware):
    m = boot(machine, s3_payloads, machine_type, firmware, "s3")
    for n in (1, 2, 3):
        wake_when_suspended(m, n)
        m.expect(rf"^EMBER-S3-RESUMED: {n}$")
        m.expect(rf"^EMBER-S3-EFIVARFS: s3-{n}$")
    m.expect(r"^EMBER-DONE: s3$")
    text = m.text
    assert text.count("EMBER-INIT: start") == 1, "the machine booted afresh instead of resuming"
    assert "EMBER-S3-FAILED" not in text, text[-3000:]
    assert text.count(f"EMBER-S3-DISK: {MARKER}") == 3, text[-3000:]
    if firmware == "pflash":
        assert m.debug_log.count(RESUMED) == 3, m.debug_log[-3000:]
        assert ("EMBER-E820: [mem 0x000000000009e000-0x000000000009ffff] reserved"
                in text), "the S3 record's area is not reserved in e820"
    assert m.wait_exit() == 0


def test_s3_damaged_record_boots_afresh(machine, s3_payloads):
    """Linux changes four bytes of Ember's S3 record through /dev/mem, then suspends: the
    wake finds the checksum wrong and boots normally (Linux starts again), never hangs."""
    m = boot(machine, s3_payloads, "q35", "pflash", "s3_damaged")
    m.expect(r"^EMBER-S3-DAMAGED: yes$")
    wake_when_suspended(m, 1)
    deadline = time.monotonic() + BOOT_TIMEOUT
    while m.text.count("EMBER-INIT: start") < 2:
        assert time.monotonic() < deadline, f"no second boot:\n{m.text[-2000:]}"
        time.sleep(0.5)
    assert DAMAGED in m.debug_log
    assert RESUMED not in m.debug_log
    assert "EMBER-S3-RESUMED: 1" not in m.text
