"""The runtime services in virtual mode with nothing left at their physical addresses
(apps/rt-virtual): after ExitBootServices and SetVirtualAddressMap the application drops
the runtime ranges from its page tables except at their new addresses, then uses variables,
time, the monotonic count and ResetSystem through the converted table. Any pointer the
firmware failed to convert faults there. Both variable stores: the VARS flash, and the RAM
copy of -bios.

With the Secure Boot keys and signed updates on a disk (tests/integration/sb_keys.py:
efitools' sign-efi-sig-list, keys made at test time) it also enrols PK, KEK, db and a
private authenticated variable at boot, then in virtual mode appends to db with an update
signed by the KEK, has an update signed by an unknown key refused with
EFI_SECURITY_VIOLATION, writes dbx (a SHA-256 list, signed by the KEK) and updates the
private variable (refused from another signer).
The signature check runs the crypto library, whose static tables of pointers
SetVirtualAddressMap converts from the image's map of pointer slots (scripts/mkfd).

OVMF's Secure Boot build (SMM, a secure pflash) runs the same application and passes the
authenticated part, which proves that part right. Three of the other checks are Ember's own
and fail there: OVMF leaves the SetVirtualAddressMap and ConvertPointer entries of the table
at their physical addresses (the OS may call them in physical mode only), and its
PlatformLangCodes is not Ember's "en-US"; so the test reads the authenticated part's own
summary on OVMF."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILD, ROOT
from disk_images import fat_partition

sys.path.insert(0, str(ROOT / "tests" / "integration"))
from sb_keys import make_keys  # noqa: E402

APP = BUILD / "apps" / "rt-virtual.efi"
OVMF_SECBOOT = Path("/usr/share/OVMF/OVMF_CODE_4M.secboot.fd")
SUMMARY = re.compile(r"^rt-virtual: (\d+) passed, (\d+) failed$", re.M)
AUTH_SUMMARY = re.compile(r"^rt-virtual: authenticated writes: (\d+) passed, (\d+) failed$", re.M)
# The checks without keys, and those the keys add (5 at boot, 9 in virtual mode).
PLAIN_CHECKS = 14
AUTH_CHECKS = 14
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """The .auth and .esl files rt-virtual reads (made once for the module)."""
    if not APP.exists():
        pytest.fail(f"{APP} is missing: run make first")
    work = tmp_path_factory.mktemp("rt-virtual")
    made = make_keys(work / "keys", APP)
    files = work / "files"
    files.mkdir()
    for p in made.iterdir():
        if p.suffix in (".auth", ".esl"):
            shutil.copy(p, files / p.name)
    return files


def check_auth_output(text):
    """The authenticated part ran and passed."""
    assert "rt-virtual: keys enrolled" in text, text[-3000:]
    assert re.search(r"^rt-virtual: db append in virtual mode: EFI_SUCCESS$", text, re.M), \
        text[-3000:]
    assert re.search(r"^rt-virtual: wrongly signed db update in virtual mode: "
                     r"EFI_SECURITY_VIOLATION$", text, re.M), text[-3000:]
    found = AUTH_SUMMARY.findall(text)
    assert found, text[-3000:]
    passed, failed = map(int, found[-1])
    assert failed == 0 and passed == AUTH_CHECKS, text[-3000:]


@pytest.mark.parametrize("firmware", ["pflash", "bios"])
def test_runtime_services_without_identity_mapping(machine, firmware, keys, tmp_path):
    disk = fat_partition(tmp_path / "keys.img", 16 * MIB,
                         {p.name: p for p in keys.iterdir()})
    m = machine(firmware=firmware, app=APP, timeout=120,
                extra=["-drive", f"if=none,id=keys,format=raw,file={disk}",
                       "-device", "virtio-blk-pci,drive=keys"])
    m.expect(r"rt-virtual: \d+ runtime ranges now only at \+0x100000000000")
    m.expect(r"rt-virtual: \d+ passed, \d+ failed")
    assert m.wait_exit() == 0
    check_auth_output(m.text)
    passed, failed = map(int, SUMMARY.findall(m.text)[-1])
    assert failed == 0 and passed == PLAIN_CHECKS + AUTH_CHECKS, m.text[-3000:]
    # The signature check fits an OS's stack for runtime calls with room to spare (Linux
    # gives them a kernel thread's 16 KiB).
    used = int(re.search(r"the db append used (\d+) bytes of stack", m.text).group(1))
    assert used < 8192, used
    # The shutdown came from ResetSystem, called through its new address, and finished
    # its log line (a fault in the middle would have reset the machine instead).
    assert re.search(r"^reset: ResetSystem\(EfiResetShutdown\) at runtime, status 0x0$",
                     m.debug_log, re.M), m.debug_log[-1000:]
    assert "ResetSystem returned" not in m.text


@pytest.mark.skipif(not OVMF_SECBOOT.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF's Secure Boot build (Debian package ovmf) or QEMU missing")
def test_authenticated_writes_in_virtual_mode_on_ovmf_secboot(keys):
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--secboot", "--timeout", "400",
                          "--files", str(keys), str(APP)], capture_output=True, timeout=500)
    out = run.stdout.decode("utf-8", "replace")
    check_auth_output(out)
    # The guest got through to the end: the overall summary (see above for its failures).
    assert SUMMARY.search(out), out[-3000:] + run.stderr.decode()
