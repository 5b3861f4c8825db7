"""The setup screen's Secure Boot and settings backends (apps/setup/sb_keys.c,
settings_*.c) under ember-run, driven by apps/setup-backends-test, and the rule that only
the firmware's own setup program writes keys without signatures
(EMBER_VARIABLE_OWNER_PROTOCOL, core/runtime/variable_owner.c; docs/setup-settings.md).

ember-run --firmware-ui starts the program as the firmware's own setup program, as the
boot manager starts the embedded setup screen; without it the program is an ordinary one.
Certificates are made at test time by openssl, lists by efitools' cert-to-efi-sig-list,
signed updates by sign-efi-sig-list."""
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, app

OWNER = "7e57a11e-5ec0-4b00-8a1e-000000000001"
DEFAULTS_GUID = "7ac825ca-088f-4608-90af-88adc86a8cdf"
STATE = re.compile(r"^state: EFI_SUCCESS secure_boot=(-?\d) setup_mode=(-?\d) audit=(-?\d) "
                   r"deployed=(-?\d) PK=(\d+) KEK=(\d+) db=(\d+) dbx=(\d+) defaults=(\d) "
                   r"owner=(\d)", re.M)


def run(*cmd, cwd):
    subprocess.run([str(c) for c in cmd], cwd=cwd, check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def esp(tmp_path_factory):
    """Keys PK, KEK, db, db2, wrong: .crt (PEM), .der, .esl; db2-bykek.auth (db2 signed by
    KEK for an APPEND_WRITE) and db2-wrong.auth (signed by a key nobody enrolled)."""
    out = tmp_path_factory.mktemp("setup-keys")
    for name in ("PK", "KEK", "db", "db2", "wrong"):
        run("openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256",
            "-days", "3650", "-subj", f"/CN=Ember setup {name}/", "-keyout", f"{name}.key",
            "-out", f"{name}.crt", cwd=out)
        run("openssl", "x509", "-in", f"{name}.crt", "-outform", "DER", "-out", f"{name}.der",
            cwd=out)
        run("cert-to-efi-sig-list", "-g", OWNER, f"{name}.crt", f"{name}.esl", cwd=out)
    for key, auth in (("KEK", "db2-bykek.auth"), ("wrong", "db2-wrong.auth")):
        run("sign-efi-sig-list", "-a", "-t", "2030-01-01 00:00:00", "-k", f"{key}.key", "-c",
            f"{key}.crt", "db", "db2.esl", auth, cwd=out)
    (out / "junk.bin").write_bytes(b"\x30\x82\x01\x00not a certificate at all")
    shutil.copy(app("setup-backends-test"), out / "setup-backends-test.efi")
    return out


def backends(ember, esp, store, *commands, firmware_ui=True):
    args = ["--vars", store, "--esp", esp]
    if firmware_ui:
        args.append("--firmware-ui")
    result = ember(*args, esp / "setup-backends-test.efi", *commands, timeout=120)
    out = result.stdout.decode("utf-8", "replace")
    assert "setup-backends-test: done" in out, out + result.stderr.decode("utf-8", "replace")
    return out


def states(out):
    return [tuple(int(v) for v in m) for m in STATE.findall(out)]


def test_enroll_from_files_and_secure_boot_turns_on_with_pk(ember, esp, tmp_path):
    """db from a DER certificate, KEK from an .esl, in Setup Mode; then PK: User Mode and
    SecureBoot 1; then db grows without a signature (the owner at the console), and dbx
    takes a PEM certificate."""
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "state", "enroll", "db", "db.der", "state", "enroll",
                   "KEK", "KEK.esl", "enroll", "PK", "PK.der", "state", "enroll", "db",
                   "db2.der", "enroll", "dbx", "wrong.crt", "state")
    s = states(out)
    assert s[0][:2] == (0, 1) and s[0][4:8] == (0, 0, 0, 0) and s[0][9] == 1, out
    assert s[1][:2] == (0, 1) and s[1][6] == 1, out        # db enrolled, still Setup Mode
    assert s[2][:2] == (1, 0) and s[2][4:7] == (1, 1, 1), out  # PK: Secure Boot on
    assert s[3][6] == 2 and s[3][:2] == (1, 0), out        # db appended in User Mode
    assert "enroll dbx wrong.crt: EFI_SUCCESS" in out and s[3][7] == 1, out  # PEM
    assert s[0][2:4] == (-1, -1), out                      # no Audit/Deployed Mode
    # The store file keeps them for the next process (and boot).
    listing = subprocess.run([BUILD / "ember-varstore", store, "list"], capture_output=True,
                             timeout=60).stdout.decode()
    for name in ("PK", "KEK", "db"):
        assert re.search(rf"NV,BS,RT,AT +\d+ {name}$", listing, re.M), listing


def test_signed_update_delete_entry_and_setup_mode(ember, esp, tmp_path):
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "enroll", "KEK", "KEK.der", "enroll", "db", "db.esl",
                   "enroll", "PK", "PK.esl", "enroll", "db", "db2-wrong.auth", "state",
                   "enroll", "db", "db2-bykek.auth", "state", "delete-entry", "db", "0",
                   "state", "enroll", "db", "junk.bin", "enroll", "PK", "KEK.esl",
                   "setup-mode", "state")
    s = states(out)
    assert "enroll db db2-wrong.auth: EFI_SECURITY_VIOLATION" in out, out
    assert s[0][6] == 1, out
    assert "enroll db db2-bykek.auth: EFI_SUCCESS" in out and s[1][6] == 2, out
    assert s[2][6] == 1, out                         # one signature deleted
    assert "enroll db junk.bin: EFI_UNSUPPORTED" in out, out
    # An .esl of another list as PK replaces it (the owner may change PK in User Mode).
    assert "enroll PK KEK.esl: EFI_SUCCESS" in out, out
    assert "setup-mode: EFI_SUCCESS" in out, out
    assert s[3][:2] == (0, 1) and s[3][4] == 0 and s[3][5] == 1, out  # PK gone, KEK stays


def test_certificate_files_append_or_replace_and_bad_ones_are_refused(ember, esp, tmp_path):
    """A PEM or DER certificate is added to db and KEK but replaces PK (one certificate);
    a PEM file with no readable certificate, a DER one too big for a key, and a list of two
    for PK are refused with their reasons and change nothing."""
    (esp / "two.esl").write_bytes((esp / "KEK.esl").read_bytes() + (esp / "db.esl").read_bytes())
    (esp / "broken.crt").write_bytes(b"-----BEGIN CERTIFICATE-----\n@@@@\n"
                                     b"-----END CERTIFICATE-----\n")
    size = 0x8ff0  # a file the setup screen reads, whose list would pass 0x9000 bytes
    (esp / "huge.der").write_bytes(b"\x30\x82" + (size - 4).to_bytes(2, "big") + b"\x30\x82"
                                   + (size - 8).to_bytes(2, "big") + bytes(size - 8))
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "enroll", "db", "db.crt", "enroll", "db", "db2.der",
                   "enroll", "KEK", "KEK.der", "enroll", "KEK", "wrong.crt", "enroll", "PK",
                   "KEK.crt", "state", "enroll", "PK", "PK.crt", "enroll", "db", "broken.crt",
                   "enroll", "dbx", "huge.der", "enroll", "PK", "two.esl", "state")
    s = states(out)
    assert s[0][4:8] == (1, 2, 2, 0), out          # PK one, KEK and db two each
    assert "enroll PK PK.crt: EFI_SUCCESS" in out and s[1][4:8] == (1, 2, 2, 0), out
    assert ("enroll db broken.crt: EFI_UNSUPPORTED the PEM file holds no readable "
            "certificate") in out, out
    assert "enroll dbx huge.der: EFI_BAD_BUFFER_SIZE the certificate is too big" in out, out
    assert ("enroll PK two.esl: EFI_INVALID_PARAMETER a PK list must hold one certificate"
            in out), out


def test_restore_default_keys(ember, esp, tmp_path):
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "defaults", "state")
    assert "defaults: EFI_NOT_FOUND this firmware has no default keys" in out, out
    for name, esl in (("PKDefault", "PK.esl"), ("KEKDefault", "KEK.esl"),
                      ("dbDefault", "db.esl")):
        subprocess.run([BUILD / "ember-varstore", store, "set", name, DEFAULTS_GUID,
                        "--file", esp / esl, "--attrs", "nv,bs"], check=True, timeout=60)
    out = backends(ember, esp, store, "enroll", "db", "db2.der", "enroll", "dbx", "wrong.der",
                   "defaults", "state")
    s = states(out)
    assert "defaults: EFI_SUCCESS" in out, out
    # db is the default's one certificate again, dbx (no default) is gone, PK on.
    assert s[0][:2] == (1, 0) and s[0][4:8] == (1, 1, 1, 0) and s[0][8] == 1, out


def test_ordinary_program_cannot_write_keys(ember, esp, tmp_path):
    """Without --firmware-ui there is no owner protocol; with it, a program the setup
    program starts finds the protocol but is refused, and so is the setup program itself
    once an outside program has run. Nothing was written."""
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "try-owner", "enroll", "db", "db.der", "state",
                   firmware_ui=False)
    assert "try-owner: locate EFI_NOT_FOUND" in out, out
    assert "enroll db db.der: EFI_ACCESS_DENIED" in out, out
    assert states(out)[0][6] == 0 and states(out)[0][9] == 0, out

    out = backends(ember, esp, store, "child", "setup-backends-test.efi", "enroll", "db",
                   "db.der", "state")
    assert "try-owner: SetKey EFI_ACCESS_DENIED" in out, out
    assert "child: EFI_SUCCESS" in out, out
    assert "enroll db db.der: EFI_ACCESS_DENIED" in out, out
    s = states(out)
    assert s[0][6] == 0 and s[0][9] == 0, out


def test_resolution_takes_effect_at_next_start(ember, esp, tmp_path):
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "gop", "resolution", "800x600")
    assert re.search(r"^gop: mode 0 1024x768", out, re.M), out
    assert "resolution 800x600: EFI_SUCCESS" in out, out
    out = backends(ember, esp, store, "gop", "resolution", "333x222", firmware_ui=False)
    assert re.search(r"^gop: mode [1-9]\d* 800x600$", out, re.M), out
    assert "gop: setting 800x600" in out, out
    # A size the display does not offer: the driver's own mode.
    out = backends(ember, esp, store, "gop", "resolution", "default")
    assert re.search(r"^gop: mode 0 1024x768$", out, re.M), out
    out = backends(ember, esp, store, "gop")
    assert re.search(r"^gop: mode 0 1024x768$", out, re.M) and "setting" not in out, out


def test_serial_time_and_system_information(ember, esp, tmp_path):
    store = tmp_path / "vars.fd"
    out = backends(ember, esp, store, "baud", "57600", "baud", "1234", "time", "2031", "2",
                   "3", "4", "5", "6", "gettime", "time", "2031", "2", "30", "0", "0", "0",
                   "sysinfo", firmware_ui=False)
    assert out.count("baud: EFI_SUCCESS") == 1 and "baud: EFI_INVALID_PARAMETER" in out, out
    assert "time: EFI_SUCCESS" in out and "gettime: EFI_SUCCESS 2031-02-03 04:05" in out, out
    assert "time: EFI_INVALID_PARAMETER" in out, out  # 30 February
    m = re.search(r"sysinfo: EFI_SUCCESS vendor=Ember revision=0x\w+ uefi=0x2\w+ "
                  r"memory_mib=(\d+) cpus=(\d+)/(\d+) pci=(\d+) paths=(\d+)", out)
    assert m, out
    assert 900 <= int(m.group(1)) <= 1024, out  # ember-run's 1 GiB default
    assert int(m.group(5)) > 0, out
    got = subprocess.run([BUILD / "ember-varstore", store, "get", "SerialConsole",
                          "8f1d2a64-5c3e-4b71-9e02-7a6bd41358e9", "--raw"],
                         capture_output=True, timeout=60)
    assert got.returncode == 0 and got.stdout == (57600).to_bytes(4, "little"), got
