#!/usr/bin/python3
"""Real signatures for the crypto unit tests (tests/crypto/mkartefacts): Debian's
Microsoft-signed shim and Debian-signed GRUB (apt-get download of shim-signed,
grub-efi-amd64-signed and shim-unsigned, cached in CACHE), with the certificates that
trust them: Microsoft's UEFI CA 2011 from the db of OVMF_VARS_4M.ms.fd (package ovmf) and
Debian's Secure Boot CA from unsigned shim's .vendor_cert section.
Usage: debian_signed.py CACHE OUTDIR"""
import struct
import subprocess
import sys
import uuid
from pathlib import Path

PACKAGES = ["shim-signed", "grub-efi-amd64-signed", "shim-unsigned"]
MS_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.ms.fd")
X509_GUID = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072").bytes_le


def fetch(cache):
    """The packages unpacked under cache/root (downloaded once)."""
    root = cache / "root"
    if (root / "usr/lib/shim/shimx64.efi.signed").exists():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    for package in PACKAGES:
        if not list(cache.glob(f"{package}_*.deb")):
            subprocess.run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root",
                            package], cwd=cache, check=True, stdout=subprocess.DEVNULL)
    for deb in cache.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def cert_subject(der):
    return subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-subject"],
                          input=der, capture_output=True, check=True).stdout.decode()


def ms_uefi_ca():
    """The certificate of the X509 signature list naming Microsoft's UEFI CA 2011."""
    data = MS_VARS.read_bytes()
    at = data.find(X509_GUID)
    while at >= 0:
        _, header_size, sig_size = struct.unpack_from("<III", data, at + 16)
        der = data[at + 28 + header_size + 16:at + 28 + header_size + sig_size]
        if "Microsoft Corporation UEFI CA 2011" in cert_subject(der):
            return der
        at = data.find(X509_GUID, at + 16)
    raise SystemExit(f"debian_signed.py: no UEFI CA 2011 in {MS_VARS}")


def vendor_cert(shim):
    """shim's .vendor_cert: {authorized size, deauthorized size, their offsets}, then data."""
    section = shim.with_suffix(".vendor_cert")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.vendor_cert", str(shim),
                    str(section)], check=True)
    data = section.read_bytes()
    size, _, offset, _ = struct.unpack_from("<IIII", data, 0)
    return data[offset:offset + size]


def main():
    cache, out = Path(sys.argv[1]), Path(sys.argv[2])
    root = fetch(cache)
    (out / "shimx64.signed.efi").write_bytes(
        (root / "usr/lib/shim/shimx64.efi.signed").read_bytes())
    (out / "grubx64.signed.efi").write_bytes(
        (root / "usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed").read_bytes())
    (out / "ms-uefi-ca.der").write_bytes(ms_uefi_ca())
    (out / "debian-ca.der").write_bytes(vendor_cert(root / "usr/lib/shim/shimx64.efi"))


if __name__ == "__main__":
    main()
