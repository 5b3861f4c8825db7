"""ember-run --net user: a SimpleNetwork NIC over libslirp's user network.

apps/snp-probe checks the SNP state machine and its bad-argument statuses, then does what a
network stack does first: ARP for 10.0.2.2 and a DHCPDISCOVER answered by an offer of
10.0.2.15 (slirp answers both), and a UDP datagram echoed by a server of this test on the
host's 127.0.0.1 (10.0.2.2 from the guest), whose reply only arrives if the network runs
while the probe waits on WaitForPacket. With loss= the same steps pass on retries, and the
share of ARP exchanges answered shows the loss is real and the same for the same seed."""
import re
import socket
import threading

import pytest

from conftest import app

PASS = re.compile(r"snp-probe: (\d+) passed, (\d+) failed")


def probe(ember, net, *steps):
    run = ember("--net", net, app("snp-probe"), *steps, timeout=120)
    out = run.stdout.decode(errors="replace") + run.stderr.decode(errors="replace")
    found = PASS.findall(out)
    assert found and found[-1][1] == "0" and int(found[-1][0]) > 0, out[-3000:]
    assert run.returncode == 0, out[-3000:]
    return out


@pytest.fixture
def udp_echo():
    """A UDP echo server on 127.0.0.1; yields its port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.2)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                data, peer = sock.recvfrom(2048)
            except socket.timeout:
                continue
            sock.sendto(data, peer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield sock.getsockname()[1]
    stop.set()
    thread.join()
    sock.close()


def test_snp_states_arp_and_dhcp(ember):
    out = probe(ember, "user", "states", "arp", "dhcp")
    assert "arp: 10.0.2.2 is at 52:55:0a:00:02:02 (try 1)" in out, out[-3000:]
    assert "dhcp: offer 10.0.2.15 from 10.0.2.2 (try 1)" in out, out[-3000:]
    # The state checks alone are over a hundred.
    assert int(PASS.findall(out)[-1][0]) >= 100, out[-3000:]


def test_queues_are_bounded_and_counted(ember):
    """64 transmitted buffers wait for GetStatus (in order), then EFI_NOT_READY; 1,024
    received frames wait for Receive, the rest are dropped and counted."""
    out = probe(ember, "user", "queues")
    assert "queues: 64 buffers in flight before EFI_NOT_READY" in out, out[-3000:]
    assert "queues: 1024 frames queued, 1976 dropped" in out, out[-3000:]


def test_snp_mac_option_is_the_nic_address(ember):
    out = probe(ember, "user,mac=52:54:00:ab:cd:ef", "arp")
    assert "arp: 10.0.2.2 is at" in out, out[-3000:]
    run = ember("--net", "user,mac=52:54:00:ab:cd:ef", "--debug", app("snp-probe"), "states")
    assert "NIC 52:54:00:ab:cd:ef" in run.stderr.decode(errors="replace")


def test_udp_through_the_host(ember, udp_echo):
    out = probe(ember, "user", f"udp-echo={udp_echo}")
    assert f"udp: echo from 10.0.2.2:{udp_echo}" in out, out[-3000:]


def test_network_runs_on_the_timer_tick(ember, udp_echo):
    """The echo arrives while the program only stalls (Statistics, which reads it, does
    not run the network): the 1 ms timer event pumps slirp."""
    out = probe(ember, "user", f"tick={udp_echo}")
    assert "tick: 1 frame(s) received while stalling" in out, out[-3000:]


@pytest.mark.parametrize("loss", [5, 30])
def test_steps_pass_with_loss(ember, udp_echo, loss):
    out = probe(ember, f"user,loss={loss},seed=3", "states", "arp", "dhcp",
                f"udp-echo={udp_echo}")
    assert "dhcp: offer 10.0.2.15 from 10.0.2.2" in out, out[-3000:]
    assert f"udp: echo from 10.0.2.2:{udp_echo}" in out, out[-3000:]


@pytest.fixture
def tftp_dir(tmp_path):
    root = tmp_path / "tftp"
    root.mkdir()
    (root / "hello.txt").write_text("ember tftp block")
    (tmp_path / "secret.txt").write_text("outside")
    return root


@pytest.mark.parametrize("loss", ["", ",loss=30"])
def test_tftp_and_bootfile(ember, tftp_dir, loss):
    out = probe(ember, f"user,tftp={tftp_dir},bootfile=hello.efi{loss}", "dhcp",
                "tftp=hello.txt")
    assert "dhcp: boot file hello.efi" in out, out[-3000:]
    assert "tftp: hello.txt: 16 bytes: ember tftp block" in out, out[-3000:]


def test_tftp_serves_nothing_outside_its_directory(ember, tftp_dir):
    run = ember("--net", f"user,tftp={tftp_dir}", app("snp-probe"), "tftp=../secret.txt",
                timeout=120)
    out = run.stdout.decode(errors="replace")
    assert "outside" not in out and "tftp: ../secret.txt" not in out, out[-3000:]
    assert run.returncode == 1, out[-3000:]


def answered(ember, net):
    out = probe(ember, net, "arp-count")
    found = re.findall(r"arp-count: 100 sent, (\d+) answered", out)
    assert found, out[-3000:]
    return int(found[-1])


def test_loss_drops_that_share_reproducibly(ember):
    assert answered(ember, "user") == 100
    # 30% each way: an exchange survives with probability 0.49.
    lossy = answered(ember, "user,loss=30,seed=7")
    assert 25 <= lossy <= 75, lossy
    assert answered(ember, "user,loss=30,seed=7") == lossy
    assert answered(ember, "user,loss=100") == 0


@pytest.mark.parametrize("net, message", [
    ("tap", "only the user network"),
    ("user,loss=101", "loss= wants a percentage"),
    ("user,loss=x", "loss= wants a percentage"),
    ("user,seed=-1", "seed= wants a decimal number"),
    ("user,mac=01:02:03:04:05:06", "mac= wants a unicast"),
    ("user,mac=52:54:00:12:34", "mac= wants a unicast"),
    ("user,tftp=/nonexistent/dir", "tftp= is not a directory"),
    ("user,bootfile=", "bootfile= wants a file name"),
    ("user,colour=blue", "--net: unknown option 'colour'"),
])
def test_bad_net_options_are_refused(ember, net, message):
    run = ember("--net", net, app("snp-probe"))
    assert run.returncode == 2
    assert message in run.stderr.decode(errors="replace")


def test_help_names_net(ember):
    run = ember("--help")
    assert "--net user[,OPTIONS]" in run.stdout.decode()


def test_bench_steps_move_every_frame(ember, udp_echo):
    """The bench's steps at volume: 20,000 ARP exchanges all answered (queues and buffer
    recycling over many frames), and full-size UDP frames through a host socket."""
    out = probe(ember, "user", "bench-arp", f"bench-udp={udp_echo}")
    assert re.search(r"bench-arp: 20000 exchanges", out), out[-3000:]
    assert re.search(r"bench-udp: 20000 sent, \d+ echoed", out), out[-3000:]
