"""QEMU test harness: boots Ember's firmware (build/qemu-x86_64) under TCG, or OVMF
(firmware="ovmf", the oracle for tests of what OVMF has too).

    with Machine(machine="q35", firmware="bios", app=path) as m:
        m.expect("Hello World!")

Serial console output is collected (and stripped of terminal control sequences);
the debug log (isa-debugcon on port 0x402) goes to a file kept for failures; a QMP
socket gives screendump and other monitor commands. EMBER_BUILD selects the build."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("EMBER_BUILD", ROOT / "build"))
FW = BUILD / "qemu-x86_64"
# OVMF, the oracle of tests of devices it has too (firmware="ovmf": its pflash pair).
OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
OVMF_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.fd")
ESCAPES = re.compile(rb"\x1b(\[[0-9;?=>]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78cDEHM])")


class Machine:
    def __init__(self, machine="q35", firmware="bios", app=None, args=None, disks=(),
                 memory=256, extra=(), vars_file=None, timeout=60, vga="std", no_reboot=True,
                 code_file=None):
        self.work = Path(tempfile.mkdtemp(prefix="ember-qemu-"))
        self.timeout = timeout
        cmd = ["qemu-system-x86_64", "-machine", f"{machine},accel=tcg", "-m", str(memory),
               "-display", "none", "-vga", vga, "-net", "none",
               "-serial", "stdio", "-monitor", "none",
               "-qmp", f"unix:{self.work}/qmp.sock,server=on,wait=off",
               "-debugcon", f"file:{self.work}/debug.log",
               "-global", "isa-debugcon.iobase=0x402"]
        if no_reboot:  # a reset ends QEMU (a guest that resets on purpose needs False)
            cmd.append("-no-reboot")
        if firmware == "bios":
            cmd += ["-bios", str(code_file or FW / "ember.fd")]
        elif firmware == "ovmf":  # the oracle: OVMF's pflash pair, a fresh copy of its VARS
            self.vars = Path(vars_file) if vars_file else self.work / "ovmf-vars.fd"
            if not self.vars.exists():
                shutil.copy(OVMF_VARS, self.vars)
            cmd += ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
                    "-drive", f"if=pflash,format=raw,file={self.vars}"]
            if app:  # OVMF has no fw_cfg hook for Ember's test apps: they go on a FAT disk
                cmd += ["-drive", f"format=raw,if=ide,file={boot_disk(app, self.work)}"]
                app = None
        else:
            self.vars = Path(vars_file) if vars_file else self.work / "vars.fd"
            if not self.vars.exists():
                shutil.copy(FW / "ember-vars.fd", self.vars)
            code = code_file or FW / "ember-code.fd"  # a modified copy (ember-fw's tests)
            cmd += ["-drive", f"if=pflash,format=raw,readonly=on,file={code}",
                    "-drive", f"if=pflash,format=raw,file={self.vars}"]
        if app:
            cmd += ["-fw_cfg", f"name=opt/ember/app,file={app}"]
        if args:
            (self.work / "args").write_text(args)
            cmd += ["-fw_cfg", f"name=opt/ember/args,file={self.work / 'args'}"]
        for d in disks:
            cmd += list(d) if isinstance(d, (list, tuple)) else ["-drive", d]
        cmd += list(extra)
        self.cmd = cmd
        self.output = b""
        self.lock = threading.Condition()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            chunk = self.proc.stdout.read1(65536)
            if not chunk:
                break
            with self.lock:
                self.output += chunk
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    @property
    def text(self):
        """Serial output so far, control sequences removed, CR LF as LF."""
        with self.lock:
            raw = self.output
        return ESCAPES.sub(b"", raw).replace(b"\r\n", b"\n").decode("utf-8", "replace")

    def expect(self, pattern, timeout=None):
        """Waits until the serial output matches pattern (a regex string); returns the match."""
        deadline = time.monotonic() + (timeout or self.timeout)
        regex = re.compile(pattern, re.M)
        while True:
            m = regex.search(self.text)
            if m:
                return m
            with self.lock:
                if self.proc.poll() is not None and not self.reader.is_alive():
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.lock.wait(min(left, 0.2))
        raise AssertionError(f"no {pattern!r} on the serial console within the time;"
                             f" got:\n{self.text[-3000:]}\n--- debug log ---\n"
                             f"{self.debug_log[-3000:]}")

    def send(self, data):
        self.proc.stdin.write(data if isinstance(data, bytes) else data.encode())
        self.proc.stdin.flush()

    def expect_log(self, pattern, timeout=None):
        """Waits until the debug log matches pattern (a regex string); returns the match."""
        deadline = time.monotonic() + (timeout or self.timeout)
        regex = re.compile(pattern, re.M)
        while time.monotonic() < deadline and self.proc.poll() is None:
            m = regex.search(self.debug_log)
            if m:
                return m
            time.sleep(0.05)
        m = regex.search(self.debug_log)
        assert m, f"no {pattern!r} in the debug log; got:\n{self.debug_log[-3000:]}"
        return m

    def send_keys(self, *keys):
        """Presses keys on the PS/2 keyboard through QMP send-key, one chord at a time: each
        argument is a QEMU key name ("a", "ret", "f1") or a list of them pressed together."""
        for chord in keys:
            names = [chord] if isinstance(chord, str) else list(chord)
            self.qmp("send-key", keys=[{"type": "qcode", "data": k} for k in names])

    def wait_exit(self, timeout=None):
        """Waits for QEMU to end (the guest powered off); returns its exit status."""
        return self.proc.wait(timeout or self.timeout)

    @property
    def debug_log(self):
        try:
            return (self.work / "debug.log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def qmp(self, command, **arguments):
        """Runs one QMP command and returns its result."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(self.work / "qmp.sock"))
        f = sock.makefile("rw")
        json.loads(f.readline())
        for cmd in ({"execute": "qmp_capabilities"},
                    {"execute": command, "arguments": arguments}):
            f.write(json.dumps(cmd) + "\n")
            f.flush()
            while True:
                reply = json.loads(f.readline())
                if "return" in reply or "error" in reply:
                    break
        sock.close()
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply["return"]

    def screendump(self, path):
        """The screen as a PPM file (QEMU monitor screendump)."""
        self.qmp("screendump", filename=str(path))
        return Path(path)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def boot_disk(app, work):
    """A FAT image holding app as \\EFI\\BOOT\\BOOTX64.EFI (removable media), for OVMF."""
    disk = Path(work) / "boot.img"
    with open(disk, "wb") as f:
        f.truncate(32 * 1024 * 1024)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    for cmd in (["mformat", "-i", disk, "-T", "65536", "::"],
                ["mmd", "-i", disk, "::/EFI", "::/EFI/BOOT"],
                ["mcopy", "-i", disk, app, "::/EFI/BOOT/BOOTX64.EFI"]):
        subprocess.run([str(c) for c in cmd], check=True, env=env, stdout=subprocess.DEVNULL)
    return disk


def read_ppm(path):
    """(width, height, bytes RGB) of a binary PPM (P6) file."""
    data = Path(path).read_bytes()
    # Exactly one whitespace byte ends the header: the pixels may begin with 0x20 or 0x0a.
    header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert header, "not a P6 PPM"
    width, height, maxval = (int(v) for v in header.groups())
    assert maxval == 255
    pixels = data[header.end():]
    return width, height, pixels[:width * height * 3]


@pytest.fixture
def machine():
    """Factory for Machine objects that are closed after the test."""
    made = []

    def make(**kwargs):
        if kwargs.get("firmware") == "ovmf":
            if not OVMF_CODE.exists():
                pytest.fail(f"{OVMF_CODE} is missing: scripts/deps installs ovmf")
        elif not (FW / "ember.fd").exists():
            pytest.fail(f"{FW}/ember.fd is missing: run make first")
        m = Machine(**kwargs)
        made.append(m)
        return m
    yield make
    for m in made:
        m.close()
