"""SMBIOS on QEMU's AArch64 virt machine (platform/qemu-aarch64/smbios.c over
platform/common/smbios.c, issue 17): QEMU's tables come over fw_cfg with a 3.0 anchor and are
published under SMBIOS3_TABLE_GUID. tests/aarch64/smbios.c checks the 3.0 entry point, walks
the structures and prints the system information (type 1) that -smbios sets. AAVMF, which
installs QEMU's SMBIOS too, runs the same program as the oracle."""
import pytest

from test_aarch64 import AAVMF_CODE, Arm64Machine, program

MANUFACTURER = "Ember-Test-Works"
PRODUCT = "virt-smbios-check"


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_smbios3_system_information(firmware):
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    smbios = ["-smbios", f"type=1,manufacturer={MANUFACTURER},product={PRODUCT}"]
    with Arm64Machine(program("smbios"), firmware=firmware, extra=smbios,
                      timeout=120 if firmware == "ember" else 300) as m:
        m.expect(r"smbios: (no SMBIOS3 table|the 3.0 entry point is broken|3.0 entry point "
                 r"checked)")
        assert "smbios: 3.0 entry point checked" in m.text, m.text[-2000:]
        line = m.expect(r"smbios: type 1 manufacturer \"([^\"]*)\" product \"([^\"]*)\"")
        assert line.groups() == (MANUFACTURER, PRODUCT), m.text[-2000:]
        two = m.expect(r"smbios: (no 2\.x entry point|2\.x entry point too)").group(1)
        if firmware == "ember":  # virt's anchor is 3.0: no 32-bit entry point to publish
            assert two == "no 2.x entry point"
