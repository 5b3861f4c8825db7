"""Secure Boot image verification under ember-run (issue 11, UEFI 2.10 32.5): apps/sb-verify
enrolls PK, KEK, db and dbx in a --vars file, then checks what LoadImage does with images
signed by sbsign (tests/integration/sb_images.py): signed by db loads and runs; unsigned,
tampered, unknown signer, hash in dbx and signer in dbx are refused with
EFI_ACCESS_DENIED; two signatures (one unknown, one trusted) load; a hooked Security2
protocol and a replaced LoadImage are honoured. With the keys enrolled, the program given
to ember-run is itself checked. The same app runs on QEMU with Ember's firmware and on
OVMF's Secure Boot build (tests/qemu/test_secure_boot.py)."""
import re
import shutil
import subprocess

from conftest import app, program
from sb_images import make_images, sign

SUMMARY = re.compile(r"^sb-verify: (\d+) passed, (\d+) failed", re.M)


def esp_with_images(tmp_path):
    esp = make_images(tmp_path / "esp", program("hello"), program("exit_status"))
    shutil.copy(app("sb-verify"), esp / "sb-verify.efi")
    sign("db", app("sb-verify"), esp / "sb-verify-signed.efi", esp / "keys")
    return esp


def summary(result):
    out = result.stdout.decode("utf-8", "replace")
    found = SUMMARY.findall(out)
    assert found, out + result.stderr.decode("utf-8", "replace")
    return out, tuple(map(int, found[-1]))


def test_images_verified_under_ember_run(ember, tmp_path):
    esp = esp_with_images(tmp_path)
    store = tmp_path / "vars.fd"
    # Setup Mode: the unsigned app runs and enrolls the keys.
    out, (passed, failed) = summary(
        ember("--vars", store, "--esp", esp, esp / "sb-verify.efi", timeout=120))
    assert failed == 0 and passed >= 25, out
    assert out.count("Hello World!") >= 4, out
    # User Mode: the same unsigned program is refused before it runs ...
    refused = ember("--vars", store, "--esp", esp, esp / "sb-verify.efi", timeout=120)
    text = refused.stdout.decode("utf-8", "replace") + refused.stderr.decode("utf-8", "replace")
    assert refused.returncode == 2, text
    assert "sb-verify: firmware" not in text, text
    assert re.search(r"refused by Secure Boot: no signature", text), text
    # ... also when it comes from outside any volume (a buffer) ...
    outside = tmp_path / "outside.efi"
    shutil.copy(app("sb-verify"), outside)
    refused = ember("--vars", store, outside, timeout=120)
    assert refused.returncode == 2, refused.stderr
    # ... while the signed one runs all the checks again.
    out, (passed, failed) = summary(
        ember("--vars", store, "--esp", esp, esp / "sb-verify-signed.efi", timeout=120))
    assert failed == 0 and passed >= 21, out
    assert "keys already enrolled" in out, out


def test_refusals_are_logged_with_their_reason(ember, tmp_path):
    esp = esp_with_images(tmp_path)
    store = tmp_path / "vars.fd"
    result = ember("--vars", store, "--esp", esp, esp / "sb-verify.efi", timeout=120)
    text = result.stdout.decode("utf-8", "replace") + result.stderr.decode("utf-8", "replace")
    for name, reason in (("unsigned", "no signature"), ("tampered", "bad signature"),
                         ("unknown", "unknown signer"), ("dbxhash", "hash in dbx"),
                         ("dbxcert", "signer's certificate in dbx")):
        assert re.search(rf"{name}\.efi refused by Secure Boot: {reason}", text), text
    varstore = app("sb-verify").parents[1] / "ember-varstore"
    listing = subprocess.run([str(varstore), str(store), "list"], capture_output=True,
                             timeout=60).stdout.decode()
    for name in ("PK", "KEK", "db", "dbx"):
        assert re.search(rf"NV,BS,RT,AT +\d+ {name}$", listing, re.M), listing
