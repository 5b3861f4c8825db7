"""The hosted console and GOP (platform/hosted/console*.c, gop.c, screenshot.c), driven by
apps/console-test under ember-run: text output on pipes and on a terminal, keys from a
pipe and from a terminal, the GOP's modes and Blt, and the --screenshot PNG."""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time
import zlib

import pytest

from conftest import BUILD as BUILD_PATH, EMBER_RUN as EMBER_RUN_PATH

BUILD = str(BUILD_PATH)
EMBER_RUN = str(EMBER_RUN_PATH)
APP = os.path.join(BUILD, "apps", "console-test.efi")

STDIN_GUID = "e62dd268-d7a3-4380-be7a-7375fc30f117"
STDOUT_GUID = "90a73d64-f535-4bb3-9a3c-d36c2c5d45ca"
STDERR_GUID = "fd7bf17a-8202-409e-8e0d-4d142b60deb1"
GOP_GUID = "77c0c1df-3b2c-469e-a087-93b61b7d39e4"


@pytest.fixture(autouse=True)
def built():
    for path in (EMBER_RUN, APP):
        if not os.path.exists(path):
            pytest.fail(f"{path} is missing: build it first (make)")


def run(*args, stdin=b"", timeout=30):
    return subprocess.run([EMBER_RUN, *args], input=stdin, capture_output=True,
                          timeout=timeout)


def passed(out):
    """The app's own checks: the summary line must say nothing failed."""
    m = re.search(r"console-test: (\d+) passed, (\d+) failed", out)
    assert m, out
    assert int(m.group(2)) == 0, out
    assert int(m.group(1)) > 0
    return int(m.group(1))


def piece(text, name):
    m = re.search(r"\[%s\](.*?)\[/%s\]" % (re.escape(name), re.escape(name)), text, re.S)
    assert m, f"[{name}] missing from {text!r}"
    return m.group(1)


def key_lines(out):
    return re.findall(r"^key (\w{4}) (\w{4})$", out, re.M)


# ---- Text output on pipes ----

def test_text_output_is_plain_text_on_a_pipe():
    r = run(APP, "text")
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 0, out + err
    passed(out)
    assert "\x1b" not in out and "\x1b" not in err
    assert "text modes: 2, current 0" in out
    assert piece(out, "attr") == "yellow on blue"
    # Box drawing, arrows, blocks and shapes come out as the same Unicode characters.
    assert piece(out, "box") == "\n┌──┐\n│ok│\n└──┘\n↑↓█░▲►▼◄═╬\ncafé €\n"
    # Unknown glyphs (ESC, DEL, C1 controls) are skipped, and so are the width markers.
    assert piece(out, "glyph") == "abcd"


def test_line_ends_are_normalised_across_calls():
    r = run(APP, "text")
    out = r.stdout.decode()
    # CR LF and LF CR are one "\n" even when split between OutputString calls; a lone CR
    # stays, a CR at the end of one call is held until the next shows what it was.
    assert piece(out, "lines") == "L1\nL2\nL3\nL4\rX\nL5\n\nP\rQ\n"
    assert out.count("\r") == 2
    assert "\n\n\n" not in out


def test_std_err_is_its_own_device():
    r = run(APP, "text")
    err = r.stderr.decode()
    assert "[err]to stderr │\nE1\nE2\n[/err]\n" in err
    assert "[err]" not in r.stdout.decode()


def test_console_device_paths():
    out = run(APP, "text").stdout.decode()
    for label, guid in (("conin", STDIN_GUID), ("conout", STDOUT_GUID),
                        ("stderr", STDERR_GUID)):
        # VenHw(guid)/VenUtf8()/End
        assert re.search(r"^%s path: 1/4/20\(%s\) 3/a/20 7f/ff/4$" % (label, guid), out,
                         re.M | re.I), out
        assert re.search(r"^%s path text: VenHw\(%s\)/VenUtf8\(\)$" % (label, guid), out,
                         re.M | re.I), out


# ---- Keys from a pipe ----

KEY_INPUT = (b"ab\r\nc\n"
             b"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA"
             b"\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF\x1b[7~\x1b[8~"
             b"\x1b[2~\x1b[3~\x1b[5~\x1b[6~"
             b"\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~"
             b"\x1b[23~\x1b[24~"
             b"\x1b[11~\x1b[12~\x1b[13~\x1b[14~\x1b[[A\x1b[[E"
             b"\x1bx" + "é€─".encode() + b"\x7f\x08\t\x1b")

KEY_EXPECTED = (
    [("0000", "0061"), ("0000", "0062"), ("0000", "000d"), ("0000", "0063"),
     ("0000", "000d")]
    + [("0001", "0000"), ("0002", "0000"), ("0003", "0000"), ("0004", "0000"),
       ("0001", "0000")]
    + [("0005", "0000"), ("0006", "0000")] * 4
    + [("0007", "0000"), ("0008", "0000"), ("0009", "0000"), ("000a", "0000")]
    + [("%04x" % (0x0b + i), "0000") for i in range(12)]
    + [("000b", "0000"), ("000c", "0000"), ("000d", "0000"), ("000e", "0000"),
       ("000b", "0000"), ("000f", "0000")]
    + [("0017", "0000"), ("0000", "0078")]
    + [("0000", "00e9"), ("0000", "20ac"), ("0000", "2500")]
    + [("0000", "0008"), ("0000", "0008"), ("0000", "0009"), ("0017", "0000")])


def test_keys_from_a_pipe():
    r = run(APP, "keys", stdin=KEY_INPUT)
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    passed(out)
    assert key_lines(out) == KEY_EXPECTED
    assert out.rstrip().splitlines()[-2] == "keys done"


def feed_slowly(args, chunks, pause):
    """Runs ember-run with stdin a pipe written chunk by chunk, pause seconds apart."""
    proc = subprocess.Popen([EMBER_RUN, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for i, chunk in enumerate(chunks):
        if i:
            time.sleep(pause)
        proc.stdin.write(chunk)
        proc.stdin.flush()
    out, err = proc.communicate(timeout=30)  # closes stdin: the end of input
    return proc.returncode, out.decode(), err.decode()


def test_escape_alone_is_the_esc_key_after_a_pause():
    # ESC then nothing for 300 ms is Esc; an unfinished "ESC [" likewise falls apart; the
    # same bytes together are one key.
    rc, out, err = feed_slowly([APP, "keys"], [b"\x1b", b"q\x1b[", b"A\x1b[B"], 0.3)
    assert rc == 0, out + err
    assert key_lines(out) == [("0017", "0000"), ("0000", "0071"), ("0017", "0000"),
                              ("0000", "005b"), ("0000", "0041"), ("0002", "0000")]


def test_sequence_split_across_writes_is_one_key():
    # Well within the 50 ms an unfinished sequence may wait for its next byte.
    rc, out, err = feed_slowly([APP, "keys"], [b"\x1b[2", b"4~", b"\r", b"\n"], 0.005)
    assert rc == 0, out + err
    assert key_lines(out) == [("0016", "0000"), ("0000", "000d")]


def test_keys_ex_states_and_notifications():
    r = run(APP, "keys-ex", stdin=b"xnx\x1b[15~\x03\x1b[1;5A")
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    passed(out)
    # The notification timer sees the keys before the application reads any; Ctrl-C was
    # registered by its letter with the Ctrl state and arrives as 0x03.
    assert "before reading: x=2 f5=1 n=1 ctrl-c=1" in out
    assert re.findall(r"^keyex (.*)$", out, re.M) == [
        "0000 0078 shift=00000000 toggle=82",
        "0000 006e shift=00000000 toggle=82",
        "0000 0078 shift=00000000 toggle=82",
        "000f 0000 shift=00000000 toggle=82",
        "0000 0003 shift=80000008 toggle=82",
        "0001 0000 shift=80000008 toggle=82",
    ]
    assert "notified: x=2 f5=1 n=1 ctrl-c=1" in out


def read_until(fd, marker, timeout=15):
    """Reads fd until marker shows up; returns everything read."""
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in {data!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            assert chunk, f"output ended before {marker!r}: {data!r}"
            data += chunk
    return data


def test_no_key_until_one_comes_and_none_at_the_end():
    proc = subprocess.Popen([EMBER_RUN, APP, "no-input"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = read_until(proc.stdout.fileno(), b"waiting\n")
        proc.stdin.write(b"k")
        proc.stdin.flush()
        out += read_until(proc.stdout.fileno(), b"waiting for the end\n")
        rest, err = proc.communicate(timeout=30)  # closes stdin
    finally:
        proc.kill()
    out = (out + rest).decode()
    assert proc.returncode == 0, out + err.decode()
    passed(out)
    assert "got 0000 006b" in out
    assert "no keys after the end" in out


# ---- A terminal ----

def spawn_on_pty(args, columns=100, rows=30):
    """ember-run on a new pseudo-terminal of that size; also the terminal's mode before."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    before = termios.tcgetattr(slave)

    def controlling_tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([EMBER_RUN, *args], stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=controlling_tty, close_fds=True)
    return proc, master, slave, before


def drain(fd):
    data = b""
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


def test_terminal_modes_colours_raw_keys_and_restore():
    proc, master, slave, before = spawn_on_pty([APP, "terminal"])
    try:
        out = read_until(master, b"ready")
        raw = termios.tcgetattr(slave)
        os.write(master, b"ab\x1b[A\r")
        out += read_until(master, b"keys done")
        proc.wait(timeout=30)
        out += drain(master)
        after = termios.tcgetattr(slave)
    finally:
        proc.kill()
        for fd in (master, slave):
            os.close(fd)
    text = out.decode(errors="replace")
    assert proc.returncode == 0, text
    passed(text)
    lflag = raw[3]
    assert not lflag & termios.ICANON and not lflag & termios.ECHO and lflag & termios.ISIG
    assert before[3] & termios.ICANON and before[3] & termios.ECHO
    assert after == before  # the terminal is back as it was
    # Mode 0 80x25; 80x50 does not fit a 30-row terminal; mode 2 is its real size.
    assert "text modes: 3, current 2" in text
    assert "mode 0: 80x25" in text and "mode 1: EFI_UNSUPPORTED" in text
    assert "mode 2: 100x30" in text
    assert "\x1b[0;91;44m[red]\x1b[0m[/red]" in text  # light red on blue, then default
    assert "\x1b[2;3H[at 2,1]" in text
    assert "\x1b[?25l" in text
    assert re.findall(r"key (\w{4}) (\w{4})", text) == [
        ("0000", "0061"), ("0000", "0062"), ("0001", "0000"), ("0000", "000d")]
    assert "ab" not in text.split("ready", 1)[1].split("key", 1)[0]  # no echo
    # At exit the colours and the cursor come back.
    tail = text.split("keys done", 1)[1]
    assert "\x1b[0m" in tail and "\x1b[?25h" in tail


def test_ctrl_c_ends_ember_run_and_restores_the_terminal():
    proc, master, slave, before = spawn_on_pty([APP, "terminal"])
    try:
        read_until(master, b"ready")
        os.write(master, b"\x03")
        proc.wait(timeout=15)
        out = drain(master)
        after = termios.tcgetattr(slave)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    assert proc.returncode == -signal.SIGINT
    assert after == before
    assert b"\x1b[?25h" in out


def test_ctrl_z_gives_the_terminal_back_until_continued():
    proc, master, slave, before = spawn_on_pty([APP, "terminal"])
    try:
        read_until(master, b"ready")
        os.write(master, b"\x1a")
        _, status = os.waitpid(proc.pid, os.WUNTRACED)
        stopped = termios.tcgetattr(slave)
        os.kill(proc.pid, signal.SIGCONT)
        deadline = time.monotonic() + 10
        while termios.tcgetattr(slave)[3] & termios.ICANON and time.monotonic() < deadline:
            time.sleep(0.01)
        resumed = termios.tcgetattr(slave)
        os.write(master, b"z")
        out = read_until(master, b"keys done")
        proc.wait(timeout=30)
        after = termios.tcgetattr(slave)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    assert os.WIFSTOPPED(status)
    assert stopped == before  # the shell would get its own terminal back
    assert not resumed[3] & termios.ICANON and not resumed[3] & termios.ECHO
    assert re.findall(rb"key (\w{4}) (\w{4})", out) == [(b"0000", b"007a")]
    assert proc.returncode == 0
    assert after == before


def test_terminal_restored_when_the_program_cannot_load():
    proc, master, slave, before = spawn_on_pty([os.path.abspath(__file__)])
    try:
        proc.wait(timeout=30)
        out = drain(master)
        after = termios.tcgetattr(slave)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 2, out
    assert after == before


# ---- Graphics ----

def read_png(path):
    """Decodes an 8-bit RGB PNG: (width, height, rows of bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, color, _, _, interlace = header
    assert (depth, color, interlace) == (8, 2, 0)
    raw = zlib.decompress(idat)
    stride = width * 3
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        unfilter(kind, line, prev)
        rows.append(line)
        prev = line
    return width, height, rows


def unfilter(kind, line, prev):
    n = len(line)
    if kind == 1:
        for i in range(3, n):
            line[i] = (line[i] + line[i - 3]) & 0xff
    elif kind == 2:
        for i in range(n):
            line[i] = (line[i] + prev[i]) & 0xff
    elif kind == 3:
        for i in range(n):
            left = line[i - 3] if i >= 3 else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xff
    elif kind == 4:
        for i in range(n):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[i] = (line[i] + pred) & 0xff
    else:
        assert kind == 0


def pixel(rows, x, y):
    return tuple(rows[y][3 * x:3 * x + 3])


def gop_modes(out):
    return re.findall(r"^gop mode (\d+): (\d+)x(\d+)$", out, re.M)


def test_gop_modes_and_blt():
    r = run(APP, "gop")
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    passed(out)
    modes = [(int(w), int(h)) for _, w, h in gop_modes(out)]
    # The default size is mode 0 and is not listed twice, though 1024x768 is common.
    assert modes[0] == (1024, 768)
    assert len(modes) == len(set(modes)) >= 6
    for common in ((640, 480), (800, 600), (1280, 720), (1920, 1080)):
        assert common in modes
    assert re.search(r"^gop path: 1/4/20\(%s\) 2/3/8 7f/ff/4$" % GOP_GUID, out, re.M | re.I)
    assert re.search(r"^gop path text: VenHw\(%s\)/AcpiAdr\(0x80010100\)$" % GOP_GUID, out,
                     re.M | re.I)


def test_screenshot_shows_the_picture(tmp_path):
    png = tmp_path / "out.png"
    r = run("--gop", "656x496", "--screenshot", str(png), APP, "gop")
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    passed(out)
    modes = gop_modes(out)
    assert modes[0] == ("0", "656", "496") and ("1", "640", "480") in modes
    assert "picture 656x496" in out
    width, height, rows = read_png(png)
    assert (width, height) == (656, 496)
    expect = {
        (5, 5): (255, 0, 0), (40, 20): (0, 255, 0), (70, 5): (0, 0, 255),
        (127, 31): (255, 255, 255), (128, 0): (0x10, 0x20, 0x40),
        (0, 64): (0, 255, 0x80), (200, 70): (200, 55, 0x80), (255, 79): (255, 0, 0x80),
        (255, 80): (0x10, 0x20, 0x40), (310, 310): (255, 0, 0), (331, 331): (255, 0, 0),
        (332, 332): (0x10, 0x20, 0x40), (403, 13): (1, 2, 3), (655, 495): (255, 255, 0),
        (600, 400): (0x10, 0x20, 0x40),
    }
    for (x, y), rgb in expect.items():
        assert pixel(rows, x, y) == rgb, (x, y)


def test_screenshot_failure_is_reported(tmp_path):
    r = run("--screenshot", str(tmp_path / "no" / "such" / "dir.png"), APP, "gop")
    assert r.returncode == 1
    assert b"cannot write" in r.stderr
