"""ember-varstore FILE enroll (issue 11): Secure Boot keys from DER and PEM certificates,
efitools' .esl lists, SHA-256 hashes and sign-efi-sig-list's .auth updates (applied
through the firmware's authenticated SetVariable path), all made at test time by openssl
and efitools (sb_keys.py); refusals carry the status the firmware gives."""
import hashlib
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, app
from sb_keys import OWNER, make_keys

VARSTORE = BUILD / "ember-varstore"
DB_GUID = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"


def tool(*args):
    return subprocess.run([str(VARSTORE), *map(str, args)], capture_output=True, text=True,
                          timeout=60)


def raw(store, name, guid="global"):
    out = subprocess.run([str(VARSTORE), str(store), "get", name, guid, "--raw"],
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    out = make_keys(tmp_path_factory.mktemp("keys"), app("sb-enroll"))
    subprocess.run(["openssl", "x509", "-in", "PK.crt", "-outform", "DER", "-out", "PK.der"],
                   cwd=out, check=True, timeout=60)
    return out


def test_enroll_certificates_lists_and_hashes(keys, tmp_path):
    store = tmp_path / "vars.fd"
    r = tool(store, "enroll", "PK", keys / "PK.der", "--owner", OWNER)
    assert r.returncode == 0 and "User Mode" in r.stdout, r.stderr
    # The list efitools makes of the same certificate and owner, byte for byte.
    assert raw(store, "PK") == (keys / "PK.esl").read_bytes()
    r = tool(store, "enroll", "KEK", keys / "KEK.crt", "--owner", OWNER)  # PEM
    assert r.returncode == 0, r.stderr
    assert raw(store, "KEK") == (keys / "KEK.esl").read_bytes()
    r = tool(store, "enroll", "db", keys / "db.esl", keys / "db2.crt", "--owner", OWNER)
    assert r.returncode == 0, r.stderr
    assert raw(store, "db", DB_GUID) == (keys / "db.esl").read_bytes() + \
        (keys / "db2.esl").read_bytes()
    digest = hashlib.sha256(b"revoked").hexdigest()
    r = tool(store, "enroll", "dbx", digest)
    assert r.returncode == 0, r.stderr
    dbx = raw(store, "dbx", DB_GUID)
    assert dbx.endswith(bytes.fromhex(digest)) and len(dbx) == 28 + 16 + 32
    listing = tool(store, "list").stdout
    for name in ("PK", "KEK", "db", "dbx"):
        assert re.search(rf"NV,BS,RT,AT +\d+ {name}$", listing, re.M), listing


def test_enroll_auth_updates_through_the_authenticated_path(keys, tmp_path):
    store = tmp_path / "vars.fd"
    assert tool(store, "enroll", "PK", keys / "PK.crt").returncode == 0
    # KEK.auth is signed by PK: accepted; KEK-bykek.auth is not.
    r = tool(store, "enroll", "KEK", keys / "KEK-bykek.auth")
    assert r.returncode == 1 and "EFI_SECURITY_VIOLATION" in r.stderr, r.stderr
    assert tool(store, "enroll", "KEK", keys / "KEK.auth").returncode == 0
    assert raw(store, "KEK") == (keys / "KEK.esl").read_bytes()
    r = tool(store, "enroll", "db", keys / "db-wrong.auth")
    assert r.returncode == 1 and "EFI_SECURITY_VIOLATION" in r.stderr, r.stderr
    assert tool(store, "enroll", "db", keys / "db.auth").returncode == 0
    # The same update again is a replay; the append (older timestamp) is allowed.
    r = tool(store, "enroll", "db", keys / "db.auth")
    assert r.returncode == 1 and "replay" in r.stderr, r.stderr
    assert tool(store, "enroll", "db", "--append", keys / "db-append.auth").returncode == 0
    assert raw(store, "db", DB_GUID) == (keys / "db.esl").read_bytes() + \
        (keys / "db2.esl").read_bytes()


def test_enroll_refusals_leave_the_file_unchanged(keys, tmp_path):
    store = tmp_path / "vars.fd"
    assert tool(store, "enroll", "PK", keys / "PK.crt").returncode == 0
    before = store.read_bytes()
    r = tool(store, "enroll", "PK", keys / "KEK.crt", keys / "db.crt")
    assert r.returncode == 1 and "EFI_INVALID_PARAMETER" in r.stderr, r.stderr
    assert "exactly one" in r.stderr
    r = tool(store, "enroll", "KEK", "00" * 32)
    assert r.returncode == 1 and "certificates only" in r.stderr, r.stderr
    (tmp_path / "junk.der").write_bytes(b"\x30\x03\x02\x01\x00")
    r = tool(store, "enroll", "db", tmp_path / "junk.der")
    assert r.returncode == 1 and "neither a certificate" in r.stderr, r.stderr
    r = tool(store, "enroll", "db", keys / "db.auth", keys / "db.crt")
    assert r.returncode == 1 and "alone" in r.stderr, r.stderr
    assert tool(store, "enroll", "MOK", keys / "db.crt").returncode == 2
    assert store.read_bytes() == before


def test_enrolled_keys_seen_by_the_firmware(keys, tmp_path, ember):
    """The store the tool wrote, under ember-run: Secure Boot is on, so sb-enroll unsigned is
    refused, and signed by the db key the tool enrolled it runs; its first checks expect
    Setup Mode, so they report what the firmware computed at its start: SetupMode 0 and
    SecureBoot 1."""
    store = tmp_path / "vars.fd"
    for var, cert in (("PK", "PK.crt"), ("KEK", "KEK.crt"), ("db", "db.crt")):
        assert tool(store, "enroll", var, keys / cert).returncode == 0
    esp = tmp_path / "esp"
    esp.mkdir()
    shutil.copy(app("sb-enroll"), esp / "unsigned.efi")
    subprocess.run(["sbsign", "--key", keys / "db.key", "--cert", keys / "db.crt", "--output",
                    esp / "sb-enroll.efi", app("sb-enroll")], check=True, capture_output=True,
                   timeout=60)
    result = ember("--vars", store, "--esp", esp, esp / "unsigned.efi", timeout=120)
    assert b"refused by Secure Boot" in result.stdout + result.stderr
    result = ember("--vars", store, "--esp", esp, esp / "sb-enroll.efi", timeout=120)
    out = result.stdout.decode("utf-8", "replace")
    assert re.search(r'mode\(u"SetupMode"\) == 1: expected 0x1 \(1\), got 0x0', out), out
    assert re.search(r'mode\(u"SecureBoot"\) == 0: expected 0x0 \(0\), got 0x1', out), out


def test_enrolled_lists_are_dated_now(keys, tmp_path):
    """A list the tool writes carries the current time: sign-efi-sig-list's update of db
    dated 2024 is then older, refused as a replay; an append of it is still merged."""
    store = tmp_path / "vars.fd"
    for var, cert in (("PK", "PK.crt"), ("KEK", "KEK.crt"), ("db", "db2.crt")):
        assert tool(store, "enroll", var, keys / cert, "--owner", OWNER).returncode == 0
    r = tool(store, "enroll", "db", keys / "db.auth")
    assert r.returncode == 1 and "EFI_SECURITY_VIOLATION" in r.stderr, r.stderr
    assert tool(store, "enroll", "db", "--append", keys / "db-append.auth").returncode == 0
    assert raw(store, "db", DB_GUID) == (keys / "db2.esl").read_bytes()
