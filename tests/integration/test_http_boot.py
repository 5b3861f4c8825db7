"""HTTP boot under `ember-run --net user` (net/tcp_*, net/http_*, net/pxe/pxe_http*.c):
apps/net-load calls the NIC's LoadFile with IPv4()/Uri(URL), as a URL boot option does, and
checks what came by its CRC-32; it boots a gnu-efi program from a URL and from the DHCP boot
file through the HTTP boot child; downloads survive 5% loss each way; chunked bodies and
redirects work; a missing file, a refused port and an https:// URL fail with a clear error."""
import os
import re
import zlib

import pytest

from conftest import app, program
from http_server import Server


@pytest.fixture
def served(tmp_path):
    (tmp_path / "blob.bin").write_bytes(os.urandom(3 * 1024 * 1024 + 17))
    (tmp_path / "small.bin").write_bytes(os.urandom(300 * 1024))
    (tmp_path / "hello.efi").write_bytes(program("hello").read_bytes())
    server = Server(tmp_path)
    yield server, tmp_path
    server.stop()


def load(ember, net, *args, timeout=120):
    run = ember("--debug", "--net", net, app("net-load"), *args, timeout=timeout)
    return run, run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")


def crc(path):
    return "%08x" % zlib.crc32(path.read_bytes())


@pytest.mark.parametrize("prefix", ["", "chunked/", "redirect/"])
def test_get_by_uri_path(ember, served, prefix):
    server, root = served
    run, out = load(ember, "user", "get", server.url(prefix + "blob.bin"))
    size = (root / "blob.bin").stat().st_size
    assert f"net-load: {size} bytes, crc32 {crc(root / 'blob.bin')}, EFI_SUCCESS" in out, out[-3000:]
    assert run.returncode == 0


def test_get_survives_loss(ember, served):
    """5% of the frames lost each way (the same ones each run): every byte still comes,
    through retransmissions and out-of-order segments kept."""
    server, root = served
    run, out = load(ember, "user,loss=5,seed=7", "get", server.url("small.bin"), timeout=240)
    size = (root / "small.bin").stat().st_size
    assert f"net-load: {size} bytes, crc32 {crc(root / 'small.bin')}, EFI_SUCCESS" in out, out[-3000:]
    done = re.search(r"connection done: (\d+) out of order, (\d+) dropped", out)
    assert done and int(done.group(1)) > 0, out[-3000:]  # the loss was real


def test_boot_a_program_from_a_url(ember, served):
    server, _ = served
    run, out = load(ember, "user", "boot", server.url("hello.efi"))
    assert "Hello World!" in out, out[-3000:]
    assert "net-load: the image returned EFI_SUCCESS" in out, out[-3000:]


def test_boot_the_dhcp_boot_file_url(ember, served):
    """The DHCP server's boot file is a URL: the NIC's HTTP boot child (MAC/IPv4/Uri())
    asks DHCP as the HTTPClient and boots it."""
    server, _ = served
    run, out = load(ember, f"user,bootfile={server.url('hello.efi')}", "boot")
    assert ">>Start HTTP Boot over IPv4" in out, out[-3000:]
    assert f"URI: {server.url('hello.efi')}" in out, out[-3000:]
    assert "Hello World!" in out, out[-3000:]


@pytest.mark.parametrize("path,message", [
    ("missing.efi", "EFI_NOT_FOUND"),
    ("https", "HTTPS is not supported"),
    ("refused", "EFI_NO_RESPONSE"),
])
def test_failures_are_clear(ember, served, path, message):
    server, _ = served
    url = {"https": "https://10.0.2.2/x.efi", "refused": "http://10.0.2.2:1/x.efi"}.get(
        path, server.url(path))
    run, out = load(ember, "user", "get", url)
    assert message in out, out[-3000:]
    assert "net-load: failed" in out, out[-3000:]
