"""The shell's network commands (apps/shell/cmd/ifconfig.c, ping.c, tftp.c, http.c) under
`ember-run --net user`: ifconfig over EFI_IP4_CONFIG2_PROTOCOL (list, DHCP, static), ping
over Ember's ICMP echo (slirp answers echo requests to 10.0.2.2 itself), tftp over the PXE
base code's Mtftp from slirp's TFTP server (tftp=DIR), http from a server of this test on
127.0.0.1 (10.0.2.2 from the guest). Downloads are checked byte for byte on the --esp
directory; every failure has its message and its %lasterror%.

Only addresses inside slirp's network are used: 10.0.2.2 (the host, mapped to 127.0.0.1)
and 10.0.2.77, which nobody has (slirp answers ARP for its own addresses only), as the
unreachable host. Nothing leaves the machine."""
import os
import re

import pytest

from conftest import app
from http_server import Server

NOT_FOUND = "0x800000000000000e"
INVALID = "0x8000000000000002"
NO_RESPONSE = "0x8000000000000010"
NO_MAPPING = "0x8000000000000011"
ACCESS_DENIED = "0x800000000000000f"


def clean(data):
    return data.decode("utf-8", "replace").replace("\r", "")


def session(ember, esp, lines, net="user", debug=False, timeout=120):
    """Types lines into shell.efi (each followed by `echo %lasterror%`); returns
    ([(line, output lines, lasterror)], stdout + stderr)."""
    typed = "".join(f"{line}\necho %lasterror%\n" for line in lines) + "exit\n"
    extra = (["--net", net] if net else []) + (["--debug"] if debug else [])
    run = ember(*extra, "--esp", esp, app("shell"), "-nostartup", "-noversion", "-nomap",
                input=typed.encode(), timeout=timeout)
    out, err = clean(run.stdout), clean(run.stderr)
    chunks = re.split(r"^fs0:\\> ", out, flags=re.M)[1:]
    results = []
    for i in range(0, len(chunks) - 1, 2):
        cmd, *body = chunks[i].split("\n")
        status = chunks[i + 1].split("\n")[1]
        results.append((cmd, [b for b in body if b], status))
    return results, out + err


@pytest.fixture
def esp(tmp_path):
    d = tmp_path / "esp"
    d.mkdir()
    return d


@pytest.fixture
def files(tmp_path):
    """A TFTP directory and an HTTP server's, with the same random files."""
    root = tmp_path / "srv"
    (root / "sub").mkdir(parents=True)
    (root / "blob.bin").write_bytes(os.urandom(300 * 1024 + 5))
    (root / "sub" / "small.txt").write_bytes(b"ember network shell\n")
    (root / "sub" / "query.txt").write_bytes(b"asked with a query\n")
    server = Server(root)
    yield server, root
    server.stop()


def test_ifconfig_lists_and_asks_dhcp(ember, esp):
    res, log = session(ember, esp, ["ifconfig -l", "ifconfig -s eth0 dhcp", "ifconfig -l eth0"])
    (_, before, s1), (_, dhcp, s2), (_, after, s3) = res
    assert s1 == s2 == s3 == "0x0", log[-3000:]
    assert "name            : eth0" in before and "policy          : dhcp" in before
    assert "mac addr        : 52:54:00:12:34:56" in before
    assert "ipv4 address    : 0.0.0.0" in before
    assert dhcp == ["eth0: 10.0.2.15 from DHCP"], log[-3000:]
    assert "ipv4 address    : 10.0.2.15" in after
    assert "subnet mask     : 255.255.255.0" in after
    assert "default gateway : 10.0.2.2" in after
    assert "dns server      : 10.0.2.3" in after


def test_ifconfig_static_and_its_refusals(ember, esp):
    res, log = session(ember, esp, [
        "ifconfig -s eth0 static 10.0.2.20 255.255.255.0 10.0.2.2",
        "ifconfig -l eth0",
        "ping -n 1 10.0.2.2",
        "ifconfig -s eth0 static 10.0.2.0 255.255.255.0 10.0.2.2",
        "ifconfig -s eth0 static 10.0.2.21 255.255.255.0 10.9.2.2",
        "ifconfig -s eth0 static 10.0.2 255.255.255.0 10.0.2.2",
        "ifconfig -s eth0 static 10.0.2.22",
        "ifconfig -s eth9 dhcp",
        "ifconfig -l eth9",
        "ifconfig",
        "ifconfig -x",
    ])
    got = {cmd: (body, status) for cmd, body, status in res}
    assert got["ifconfig -s eth0 static 10.0.2.20 255.255.255.0 10.0.2.2"] == ([], "0x0")
    body, _ = got["ifconfig -l eth0"]
    assert "policy          : static" in body and "ipv4 address    : 10.0.2.20" in body
    assert "default gateway : 10.0.2.2" in body
    assert "1 packets transmitted, 1 received, 0% packet loss" in \
        got["ping -n 1 10.0.2.2"][0], log[-3000:]
    assert "is not a host's address" in log
    assert "gateway 10.9.2.2 is not on the subnet" in log
    assert "'10.0.2' is not an IPv4 address" in log
    assert "-s wants NAME dhcp, or NAME static IP MASK GATEWAY" in log
    assert "no interface eth9 (ifconfig -l lists them)" in log
    assert "unknown option '-x'" in log
    for cmd in ["ifconfig -s eth0 static 10.0.2.0 255.255.255.0 10.0.2.2",
                "ifconfig -s eth0 static 10.0.2.21 255.255.255.0 10.9.2.2",
                "ifconfig -s eth0 static 10.0.2 255.255.255.0 10.0.2.2",
                "ifconfig -s eth0 static 10.0.2.22", "ifconfig", "ifconfig -x"]:
        assert got[cmd][1] == INVALID, (cmd, got[cmd], log[-3000:])
    assert got["ifconfig -s eth9 dhcp"][1] == NOT_FOUND
    assert got["ifconfig -l eth9"][1] == NOT_FOUND


def test_ping(ember, esp):
    """slirp answers ICMP echo to 10.0.2.2 itself; 10.0.2.77 does not answer ARP."""
    bad = ["ping 10.0.2", "ping", "ping 256.0.0.1", "ping 10.0.2.2.2", "ping 1234.0.0.1",
           "ping 10.0.2.2x", "ping -n 2 10.0.2.2 10.0.2.3"]
    res, log = session(ember, esp, ["ping -n 3 10.0.2.2", "ping -n 2 10.0.2.77",
                                    "ping -n 0 10.0.2.2", *bad])
    (_, ok, s1), (_, _, s2), (_, _, s3) = res[:3]
    assert s1 == "0x0", log[-3000:]
    assert ok[0] == "Ping 10.0.2.2 32 data bytes", ok
    for seq in (1, 2, 3):
        assert any(re.fullmatch(rf"32 bytes from 10\.0\.2\.2: icmp_seq={seq} time=\d+\.\d{{3}} ms",
                                line) for line in ok), ok
    assert "3 packets transmitted, 3 received, 0% packet loss" in ok
    assert s2 == NO_RESPONSE, log[-3000:]
    assert "ping: 10.0.2.77: the host does not answer (unreachable or refused)" in log
    assert s3 == INVALID and [r[2] for r in res[3:]] == [INVALID] * len(bad), res
    assert "ping: -n needs a count from 1 to 65535, not '0'" in log
    assert log.count("ping: give one IPv4 address") == len(bad)


def test_tftp_downloads_and_errors(ember, esp, files):
    _, root = files
    res, log = session(ember, esp, [
        "tftp 10.0.2.2 blob.bin",
        "tftp -s 512 10.0.2.2 sub/small.txt copy.txt",
        "tftp 10.0.2.2 missing.bin",
        "tftp 10.0.2.77 blob.bin",
        "tftp -s 4 10.0.2.2 blob.bin",
        "tftp 10.0.2.2",
        "tftp host.example blob.bin",
        "tftp -i eth7 10.0.2.2 blob.bin",
    ], net=f"user,tftp={root}", debug=True, timeout=180)
    got = {cmd: (body, status) for cmd, body, status in res}
    assert got["tftp 10.0.2.2 blob.bin"][1] == "0x0", log[-3000:]
    assert re.search(r"tftp: 307205 bytes in \d+ ms \(\d+ KiB/s\)", log), log[-3000:]
    assert (esp / "blob.bin").read_bytes() == (root / "blob.bin").read_bytes()
    assert got["tftp -s 512 10.0.2.2 sub/small.txt copy.txt"][1] == "0x0", log[-3000:]
    assert (esp / "copy.txt").read_bytes() == b"ember network shell\n"
    assert "TFTP options: blksize 512, tsize 20" in log, log[-3000:]
    assert got["tftp 10.0.2.2 missing.bin"][1] == NOT_FOUND
    assert "tftp: missing.bin: not found on the server" in log
    assert not (esp / "missing.bin").exists()
    assert got["tftp 10.0.2.77 blob.bin"][1] == NO_RESPONSE
    assert "tftp: blob.bin: the host does not answer" in log
    for cmd in ["tftp -s 4 10.0.2.2 blob.bin", "tftp 10.0.2.2", "tftp host.example blob.bin"]:
        assert got[cmd][1] == INVALID, (cmd, got[cmd])
    assert "tftp: -s needs a block size from 512 to 65464, not '4'" in log
    assert "tftp: 'host.example' is not an IPv4 address" in log
    assert got["tftp -i eth7 10.0.2.2 blob.bin"][1] == NOT_FOUND


def test_tftp_without_a_tftp_server(ember, esp):
    """slirp without tftp= refuses every read: a clear error, nothing written."""
    res, log = session(ember, esp, ["tftp 10.0.2.2 blob.bin"])
    assert res[0][2] == ACCESS_DENIED, log[-3000:]
    assert "tftp: blob.bin: access denied by the server" in log
    assert not (esp / "blob.bin").exists()


def test_http_survives_loss(ember, esp, files):
    """5% of the frames lost each way: TCP retransmits and every byte comes. (Not TFTP:
    slirp's TFTP server answers any ACK with its next block, whichever block the ACK names,
    so a DATA it lost is never sent again; docs/network.md.)"""
    server, root = files
    res, log = session(ember, esp, [f"http {server.url('blob.bin')} h.bin"],
                       net="user,loss=5,seed=3", timeout=240)
    assert [r[2] for r in res] == ["0x0"], log[-3000:]
    assert (esp / "h.bin").read_bytes() == (root / "blob.bin").read_bytes()


def test_http_downloads_and_errors(ember, esp, files):
    server, root = files
    port = server.port
    res, log = session(ember, esp, [
        f"http {server.url('blob.bin')}",
        f"http -i eth0 {server.url('chunked/sub/small.txt')} got.txt",
        f"http {server.url('redirect/sub/small.txt')}",
        f"http {server.url('sub/query.txt')}?x=1#top",
        f"http {server.url('missing.bin')}",
        "http http://10.0.2.2:1/x.bin",
        f"http http://10.0.2.77:{port}/blob.bin",
        "http https://10.0.2.2/x.bin",
        "http ftp://10.0.2.2/x.bin",
        "http",
    ], timeout=180)
    got = {cmd: (body, status) for cmd, body, status in res}
    assert got[f"http {server.url('blob.bin')}"][1] == "0x0", log[-3000:]
    assert re.search(r"http: 307205 bytes in \d+ ms \(\d+ KiB/s\)", log), log[-3000:]
    assert (esp / "blob.bin").read_bytes() == (root / "blob.bin").read_bytes()
    assert (esp / "got.txt").read_bytes() == b"ember network shell\n"
    assert (esp / "small.txt").read_bytes() == b"ember network shell\n"
    assert got[f"http {server.url('sub/query.txt')}?x=1#top"][1] == "0x0", log[-3000:]
    assert (esp / "query.txt").read_bytes() == b"asked with a query\n"
    assert got[f"http {server.url('missing.bin')}"][1] == NOT_FOUND
    assert f"http: {server.url('missing.bin')}: 404 Not Found" in log
    assert not (esp / "missing.bin").exists()
    assert got["http http://10.0.2.2:1/x.bin"][1] == NO_RESPONSE, log[-3000:]
    assert got[f"http http://10.0.2.77:{port}/blob.bin"][1] == NO_RESPONSE, log[-3000:]
    assert "the host does not answer (unreachable or refused)" in log
    for cmd in ["http https://10.0.2.2/x.bin", "http ftp://10.0.2.2/x.bin", "http"]:
        assert got[cmd][1] == INVALID, (cmd, got[cmd])
    assert "'https://10.0.2.2/x.bin' is not an http:// URL (there is no TLS for https)" in log


def test_no_interface_and_no_address(ember, esp):
    """Without --net there is no interface; with a static policy and no address the
    commands say so instead of asking DHCP."""
    res, log = session(ember, esp, ["ifconfig -l", "ping 10.0.2.2", "tftp 10.0.2.2 a",
                                    "http http://10.0.2.2/a"], net=None)
    assert [r[2] for r in res] == [NOT_FOUND] * 4, log[-3000:]
    assert log.count("no network interface") == 4
    res, log = session(ember, esp, [
        "ifconfig -s eth0 static 10.0.2.0 255.255.255.0 10.0.2.2",
        "ping -n 1 10.0.2.2", "http http://10.0.2.2/a"])
    assert [r[2] for r in res] == [INVALID, NO_MAPPING, NO_MAPPING], log[-3000:]
    assert "ping: eth0 has no IPv4 address (ifconfig -s eth0 dhcp, or static)" in log
