"""Ember for AArch64 under Debian's libvirt (issue 17): `make install` puts the AArch64 pair
in PREFIX/share/ember/aarch64 and its firmware descriptor (scripts/firmware-json --aarch64,
72-ember-aarch64.json) where libvirt reads them. With AAVMF's descriptors masked (they come
first in file-name order), `<os firmware='efi'>` on an aarch64 virt domain picks Ember's
pair from the descriptor, and the domain runs the article's hello, handed in through
libvirt's fw_cfg entries (the disk would sit on PCIe, which Ember does not drive yet on
AArch64). The daemon and make install are test_libvirt.py's."""
import shutil

import pytest

from test_aarch64 import QEMU, program
from test_libvirt import (SYSTEM_FIRMWARE_DIRS, boot, libvirt, live_loader,  # noqa: F401
                          wait_for_serial)

pytestmark = pytest.mark.skipif(shutil.which(QEMU) is None, reason=f"{QEMU} is missing")

DOMAIN = """<domain type='qemu'>
  <name>ember-aarch64</name>
  <memory unit='MiB'>512</memory>
  <os firmware='efi'>
    <type arch='aarch64' machine='virt'>hvm</type>
  </os>
  <cpu mode='custom' match='exact'><model>cortex-a57</model></cpu>
  <sysinfo type='fwcfg'>
    <entry name='opt/ember/app' file='{app}'/>
  </sysinfo>
  <devices>
    <serial type='pty'><log file='{log}' append='off'/></serial>
    <console type='pty'/>
  </devices>
</domain>
"""


def test_libvirt_picks_ember_for_aarch64(libvirt):
    lv = libvirt
    app = lv.base / "hello-aa64.efi"
    shutil.copy(program("hello"), app)
    lv.give(app)
    log = lv.base / "log" / "aarch64-serial.log"
    ember_code = f"{lv.prefix}/share/ember/aarch64/ember-code.fd"
    masks = []
    try:
        for name in sorted({p.name for d in SYSTEM_FIRMWARE_DIRS if d.is_dir()
                            for p in d.glob("*aarch64*.json")}):
            mask = lv.firmware_dir / name
            mask.write_bytes(b"")
            lv.give(mask)
            masks.append(mask)
        assert (lv.firmware_dir / "72-ember-aarch64.json").is_file()
        boot(lv, DOMAIN.format(app=app, log=log), "aarch64")
        assert live_loader(lv, "ember-aarch64") == ember_code
        wait_for_serial(lv, log, r"Hello World!", "ember-aarch64")
    finally:
        lv.virsh("destroy", "ember-aarch64", check=False)
        lv.virsh("undefine", "--nvram", "ember-aarch64", check=False)
        for mask in masks:
            mask.unlink()
