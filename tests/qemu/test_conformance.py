"""Ember's conformance application on Ember's own QEMU firmware, booted as removable media
from a GPT disk (so its file-system checks run too), on both machines. The checks after
ExitBootServices report through ResetSystem's data, which the firmware logs."""
import re

import pytest

from conftest import BUILD
from disk_images import gpt_esp_disk

APP = BUILD / "apps" / "conformance.efi"


@pytest.mark.parametrize("machine_type", ["q35", "pc"])
def test_conformance_on_ember_qemu(machine, tmp_path, machine_type):
    disk = gpt_esp_disk(tmp_path / "esp-disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": APP})
    m = machine(machine=machine_type, firmware="pflash",
                disks=[f"file={disk},format=raw,if=virtio"], timeout=240)
    summary = m.expect(r"conformance: (\d+) passed, (\d+) failed")
    failures = [line for line in m.text.splitlines() if line.startswith("FAIL")]
    assert summary.group(2) == "0", "\n".join(failures[:40])
    assert int(summary.group(1)) > 1000
    m.wait_exit(timeout=120)
    after = re.findall(r"shutdown: (EFI_\w+): conformance: (\d+) passed, (\d+) failed",
                       m.debug_log)
    assert after, m.debug_log[-2000:]
    status, passed, failed = after[-1]
    assert (status, failed) == ("EFI_SUCCESS", "0"), after[-1]
