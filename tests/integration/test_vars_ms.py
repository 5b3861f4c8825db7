"""build/qemu-x86_64/ember-vars.ms.fd (issue 11): the Secure Boot VARS template made by
scripts/mkvars-ms from Debian's OVMF_VARS_4M.ms.fd. Its KEK and db hold Microsoft's KEK
CA 2011, Windows Production PCA 2011 and UEFI CA 2011 (checked by subject with openssl),
its dbx is OVMF's, PK is a key made at build time, the *Default copies are there, and the
firmware starts from it with Secure Boot on. The libvirt descriptors of both
image pairs are checked here too."""
import json
import re
import shutil
import struct
import subprocess
import uuid

from conftest import BUILD, ROOT, app

FW = BUILD / "qemu-x86_64"
MS_VARS = FW / "ember-vars.ms.fd"
OVMF_MS_VARS = "/usr/share/OVMF/OVMF_VARS_4M.ms.fd"
X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
DB_GUID = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
DEFAULTS = "7ac825ca-088f-4608-90af-88adc86a8cdf"


def get(name, guid="global"):
    out = subprocess.run([str(BUILD / "ember-varstore"), str(MS_VARS), "get", name, guid,
                          "--raw"], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def certificates(esl):
    """The DER certificates of a signature list chain."""
    found, offset = [], 0
    while offset < len(esl):
        kind = uuid.UUID(bytes_le=esl[offset:offset + 16])
        list_size, header_size, sig_size = struct.unpack_from("<III", esl, offset + 16)
        assert list_size >= 28 and offset + list_size <= len(esl)
        if kind == X509:
            body = offset + 28 + header_size
            for entry in range(body, offset + list_size, sig_size):
                found.append(esl[entry + 16:entry + sig_size])
        offset += list_size
    return found


def subjects(esl):
    names = []
    for der in certificates(esl):
        out = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-subject"],
                             input=der, capture_output=True, timeout=60, check=True)
        names.append(out.stdout.decode())
    return names


def test_microsoft_certificates_enrolled():
    kek, db = subjects(get("KEK")), subjects(get("db", DB_GUID))
    assert any("CN = Microsoft Corporation KEK CA 2011" in s for s in kek), kek
    assert any("CN = Microsoft Windows Production PCA 2011" in s for s in db), db
    assert any("CN = Microsoft Corporation UEFI CA 2011" in s for s in db), db
    pk = subjects(get("PK"))
    assert len(pk) == 1 and "Ember throwaway platform key" in pk[0], pk


def test_lists_taken_from_ovmf_and_defaults_kept():
    ovmf = open(OVMF_MS_VARS, "rb").read()
    for name, guid in (("KEK", "global"), ("db", DB_GUID), ("dbx", DB_GUID)):
        value = get(name, guid)
        assert value in ovmf, f"{name} is not OVMF's"
        assert get(f"{name}Default", DEFAULTS) == value
    assert get("PKDefault", DEFAULTS) == get("PK")


def test_reader_refuses_what_is_not_an_edk2_store(tmp_path):
    bad = tmp_path / "bad.fd"
    data = bytearray(open(OVMF_MS_VARS, "rb").read())
    data[40:44] = b"XXXX"
    bad.write_bytes(bytes(data))
    out = subprocess.run([str(ROOT / "scripts" / "mkvars-ms"), "--dump", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "not a firmware volume" in out.stderr
    data[40:44] = b"_FVH"
    data[0x48:0x58] = bytes(16)  # the store's GUID
    bad.write_bytes(bytes(data))
    out = subprocess.run([str(ROOT / "scripts" / "mkvars-ms"), "--dump", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "not an EDK2 authenticated" in out.stderr


def test_firmware_starts_with_secure_boot_on_from_it(ember, tmp_path):
    """The firmware starts from the template with Secure Boot on: an unsigned program is
    refused (tests/qemu/test_secure_boot_debian.py boots Debian's signed chain from it)."""
    store = tmp_path / "vars.fd"
    shutil.copy(MS_VARS, store)
    esp = tmp_path / "esp"
    esp.mkdir()
    shutil.copy(app("sb-enroll"), esp / "sb-enroll.efi")
    result = ember("--vars", store, "--esp", esp, esp / "sb-enroll.efi", timeout=120)
    out = (result.stdout + result.stderr).decode("utf-8", "replace")
    assert "refused by Secure Boot: no signature" in out, out


def test_descriptors():
    plain = json.loads((FW / "ember-x86_64.json").read_text())
    secure = json.loads((FW / "ember-x86_64-secboot.json").read_text())
    assert plain["features"] == []
    assert plain["mapping"]["nvram-template"]["filename"].endswith("/ember-vars.fd")
    assert sorted(secure["features"]) == ["enrolled-keys", "secure-boot"]
    assert "requires-smm" not in secure["features"]
    assert secure["mapping"]["nvram-template"]["filename"].endswith("/ember-vars.ms.fd")
    assert secure["mapping"]["executable"] == plain["mapping"]["executable"]
