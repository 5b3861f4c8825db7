"""Secure Boot keys and signed updates for apps/sb-enroll, made at test time the standard
way: openssl makes the certificates, efitools' cert-to-efi-sig-list and
hash-to-efi-sig-list the signature lists, sign-efi-sig-list the .auth updates (UEFI 2.10
EFI_VARIABLE_AUTHENTICATION_2). Nothing here is committed."""
import subprocess
from pathlib import Path

OWNER = "7e57a11e-5ec0-4b00-8a1e-000000000001"


def run(*cmd, cwd):
    subprocess.run([str(c) for c in cmd], cwd=cwd, check=True, capture_output=True, timeout=120)


def make_keys(out, hashed_file):
    """Writes into out the files sb-enroll reads (its header lists them); hashed_file (a PE
    image) gives the dbx entry its SHA-256."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("PK", "KEK", "db", "db2", "wrong"):
        run("openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256",
            "-days", "3650", "-subj", f"/CN=Ember test {name}/", "-keyout", f"{name}.key",
            "-out", f"{name}.crt", cwd=out)
        run("cert-to-efi-sig-list", "-g", OWNER, f"{name}.crt", f"{name}.esl", cwd=out)
    run("hash-to-efi-sig-list", hashed_file, "dbx.esl", cwd=out)

    def sign(var, key, esl, auth, second, *extra):
        run("sign-efi-sig-list", *extra, "-t", f"2024-01-01 00:00:{second:02d}", "-k",
            f"{key}.key", "-c", f"{key}.crt", var, esl, auth, cwd=out)

    sign("PK", "PK", "PK.esl", "PK.auth", 1)
    sign("KEK", "KEK", "KEK.esl", "KEK-bykek.auth", 2)
    sign("KEK", "PK", "KEK.esl", "KEK.auth", 3)
    sign("db", "KEK", "db.esl", "db.auth", 10)
    sign("db", "KEK", "db2.esl", "db-append.auth", 5, "-a")
    sign("db", "wrong", "db2.esl", "db-wrong.auth", 20)
    sign("dbx", "KEK", "dbx.esl", "dbx.auth", 10)
    (out / "empty").write_bytes(b"")
    sign("PK", "PK", "empty", "noPK.auth", 30)
    # A private authenticated variable (the vendor GUID is OWNER): its first signer (db2)
    # owns it.
    (out / "one").write_bytes(b"one")
    (out / "two").write_bytes(b"two")
    sign("SbPrivate", "db2", "one", "priv1.auth", 1, "-g", OWNER)
    sign("SbPrivate", "wrong", "two", "priv-other.auth", 2, "-g", OWNER)
    sign("SbPrivate", "db2", "two", "priv2.auth", 3, "-g", OWNER)
    sign("SbPrivate", "db2", "empty", "priv-del.auth", 4, "-g", OWNER)
    return out
