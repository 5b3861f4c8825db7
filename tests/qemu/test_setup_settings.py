"""Ember's settings variables honoured at the next boot on QEMU (include/ember/core/
settings.h): ConsoleResolution picks the GOP mode qemu_video starts in
(gop_front_set_boot_mode) and SerialConsole the serial console's speed, which the terminal
driver sets on the UART before its Uart() node records it. The variables are what the
setup screen's Resolution and Serial pages save (apps/setup/settings_*.c); here
ember-varstore writes them into the VARS image, and one boot checks both.

OVMF has neither variable (its resolution is PcdVideoHorizontalResolution, set by its own
setup UI in its own variable): the test is Ember's only."""
import re
import shutil
import subprocess

from conftest import BUILD

GOP_MODE = BUILD / "tests" / "programs" / "gop_mode.efi"
SETTINGS_GUID = "8f1d2a64-5c3e-4b71-9e02-7a6bd41358e9"


def set_setting(vars_file, name, data):
    subprocess.run([BUILD / "ember-varstore", vars_file, "set", name, SETTINGS_GUID, "--hex",
                    data.hex(), "--attrs", "nv,bs"], check=True, capture_output=True,
                   timeout=60)


def test_resolution_and_serial_speed_from_the_settings(machine, tmp_path):
    vars_file = tmp_path / "vars.fd"
    shutil.copy(BUILD / "qemu-x86_64" / "ember-vars.fd", vars_file)
    set_setting(vars_file, "ConsoleResolution",
                (800).to_bytes(4, "little") + (600).to_bytes(4, "little"))
    set_setting(vars_file, "SerialConsole", (57600).to_bytes(4, "little"))
    m = machine(firmware="pflash", vars_file=vars_file, app=GOP_MODE, timeout=120)
    m.expect(r"^Mode [1-9]\d* is running at 800x600$")
    log = m.debug_log
    assert re.search(r"Uart\(57600,8,N,1\)/VenUtf8\(\)", log), log[-3000:]
