"""Secure Boot key enrolment (issue 11): apps/sb-enroll enrolls PK, KEK, db, a db append
and a dbx entry from .auth files made at test time by openssl and efitools, checks
SetupMode and SecureBoot before and after, and that replayed, wrongly signed and
unauthenticated writes are refused with the statuses of UEFI 2.10 8.2.6; under ember-run
with a --vars file, whose keys then survive into the next process. The same app runs on
Ember's QEMU firmware and on OVMF's Secure Boot build (tests/qemu/test_secure_boot.py)."""
import re
import shutil
import subprocess

from conftest import app
from sb_keys import make_keys

SUMMARY = re.compile(r"^sb-enroll: (\d+) passed, (\d+) failed", re.M)


def enroll_dir(tmp_path):
    esp = make_keys(tmp_path / "esp", app("sb-enroll"))
    shutil.copy(app("sb-enroll"), esp / "sb-enroll.efi")
    return esp


def test_enrolment_under_ember_run(ember, tmp_path):
    esp = enroll_dir(tmp_path)
    store = tmp_path / "vars.fd"
    result = ember("--vars", store, "--esp", esp, esp / "sb-enroll.efi", timeout=120)
    out = result.stdout.decode("utf-8", "replace")
    found = SUMMARY.findall(out)
    assert found, out + result.stderr.decode("utf-8", "replace")
    passed, failed = map(int, found[-1])
    assert failed == 0 and passed >= 37, out
    # PK was deleted at the end, KEK, db and dbx stay in the file for the next process.
    assert "sb-enroll: db: " in out


def test_keys_persist_in_the_vars_file(ember, tmp_path):
    """The store file after the run: KEK, db and dbx kept with their authenticated
    attributes, PK deleted (the app's last step)."""
    esp = enroll_dir(tmp_path)
    store = tmp_path / "vars.fd"
    ember("--vars", store, "--esp", esp, esp / "sb-enroll.efi", timeout=120)
    varstore = app("sb-enroll").parents[1] / "ember-varstore"
    listing = subprocess.run([str(varstore), str(store), "list"], capture_output=True,
                             timeout=60)
    text = listing.stdout.decode()
    for name in ("KEK", "db", "dbx"):
        assert re.search(rf"NV,BS,RT,AT +\d+ {name}$", text, re.M), text
    assert not re.search(r" PK$", text, re.M), text
