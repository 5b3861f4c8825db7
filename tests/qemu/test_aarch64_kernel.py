"""QEMU's -kernel/-initrd/-append on AArch64 (issue 17; platform/common/kernel.c): Debian's
arm64 kernel handed in through fw_cfg, on Ember and on AAVMF, the oracle. One boot each: the
firmware starts the kernel's EFI stub with -append as its command line, the stub takes the
initrd through LoadFile2 (the Linux initrd media device path), and the test initramfs
(tests/qemu/linux/init.sh) reports the stage the command line names (/proc/cmdline), then
powers off. Without -kernel support Ember boots its shell instead."""
import time

import pytest

from test_aarch64 import AAVMF_CODE, Arm64Machine

linux_payloads = pytest.importorskip("linux_payloads")

MARKER = "kernel_via_fw_cfg"


@pytest.fixture(scope="module")
def payloads():
    try:
        return linux_payloads.arm64_kernel(), linux_payloads.arm64_initramfs()
    except linux_payloads.PayloadError as e:
        pytest.fail(f"the arm64 Linux payloads could not be made: {e}")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_kernel_initrd_append(firmware, payloads):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    kernel, initrd = payloads
    start = time.monotonic()
    with Arm64Machine(None, firmware=firmware, timeout=600,
                      extra=["-kernel", str(kernel), "-initrd", str(initrd), "-append",
                             f"{linux_payloads.ARM64_CMDLINE} ember_stage={MARKER}"]) as m:
        # The initramfs's report, or Ember's shell when the kernel was not booted (which
        # fails at once instead of at the timeout).
        m.expect(r"^EMBER-DONE: report|Shell> ")
        text = m.text
        assert "EMBER-DONE: report" in text, f"the kernel did not boot:\n{text[-3000:]}"
        assert "EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path" in text
        assert f"EMBER-STAGE: {MARKER}" in text, text[-3000:]
        assert "EMBER-EFI: yes" in text and "EMBER-EFIVARFS: mounted" in text, text[-3000:]
        assert m.wait_exit() == 0
    print(f"{firmware} -kernel: {time.monotonic() - start:.1f} s")
