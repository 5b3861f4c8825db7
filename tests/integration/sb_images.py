"""Keys, signed updates and signed images for apps/sb-verify (Secure Boot image
verification), made at test time the standard way: openssl makes the certificates,
efitools the signature lists and the .auth updates, sbsign the Authenticode signatures.
Nothing here is committed.

db trusts the "db" and "revoked" certificates; dbx lists the "revoked" certificate and
the digest of dbxhash.efi; "unknown" is in neither."""
import shutil
import subprocess
from pathlib import Path

OWNER = "7e57a11e-5ec0-4b00-8a1e-000000000002"


def run(*cmd, cwd):
    subprocess.run([str(c) for c in cmd], cwd=cwd, check=True, capture_output=True, timeout=120)


def sign(key, image, out, keys):
    run("sbsign", "--key", keys / f"{key}.key", "--cert", keys / f"{key}.crt", "--output", out,
        image, cwd=keys)


def tamper(signed, out):
    """A copy of a signed image with one byte of its first section changed."""
    data = bytearray(Path(signed).read_bytes())
    pe = int.from_bytes(data[0x3C:0x40], "little")
    optional = int.from_bytes(data[pe + 20:pe + 22], "little")
    raw = int.from_bytes(data[pe + 24 + optional + 20:pe + 24 + optional + 24], "little")
    data[raw + 16] ^= 0x40
    Path(out).write_bytes(bytes(data))


def make_images(out, hello, other_program):
    """Writes into out the .auth files (root) and the images (sbv/) sb-verify reads: hello
    (a gnu-efi program that prints "Hello World!") signed in the various ways, and
    other_program signed by db but listed by hash in dbx. Returns out."""
    out = Path(out)
    keys = out / "keys"
    images = out / "sbv"
    keys.mkdir(parents=True, exist_ok=True)
    images.mkdir(parents=True, exist_ok=True)
    for name in ("PK", "KEK", "db", "revoked", "unknown"):
        run("openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256",
            "-days", "3650", "-subj", f"/CN=Ember sb-verify {name}/", "-keyout", f"{name}.key",
            "-out", f"{name}.crt", cwd=keys)
        run("cert-to-efi-sig-list", "-g", OWNER, f"{name}.crt", f"{name}.esl", cwd=keys)
    shutil.copy(hello, images / "unsigned.efi")
    sign("db", hello, images / "signed.efi", keys)
    tamper(images / "signed.efi", images / "tampered.efi")
    sign("unknown", hello, images / "unknown.efi", keys)
    sign("db", other_program, images / "dbxhash.efi", keys)
    sign("revoked", hello, images / "dbxcert.efi", keys)
    sign("unknown", hello, keys / "two-first.efi", keys)
    sign("db", keys / "two-first.efi", images / "two.efi", keys)
    run("hash-to-efi-sig-list", images / "dbxhash.efi", "dbxhash.esl", cwd=keys)
    (keys / "db-all.esl").write_bytes((keys / "db.esl").read_bytes() +
                                      (keys / "revoked.esl").read_bytes())
    (keys / "dbx-all.esl").write_bytes((keys / "dbxhash.esl").read_bytes() +
                                       (keys / "revoked.esl").read_bytes())

    def auth(var, key, esl, second):
        run("sign-efi-sig-list", "-t", f"2024-01-01 00:00:{second:02d}", "-k", f"{key}.key",
            "-c", f"{key}.crt", var, esl, out / f"{var}.auth", cwd=keys)

    auth("PK", "PK", "PK.esl", 1)
    auth("KEK", "PK", "KEK.esl", 2)
    auth("db", "KEK", "db-all.esl", 3)
    auth("dbx", "KEK", "dbx-all.esl", 4)
    return out
