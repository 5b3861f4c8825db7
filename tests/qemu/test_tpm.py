"""TPM 2.0 on QEMU (issue 12): with swtpm behind `-device tpm-crb` or `tpm-tis`, the firmware
starts the TPM (TPM2_Startup(CLEAR) answered with success or TPM_RC_INITIALIZE) and finds its
PCR banks through TPM2_GetCapability(TPM_CAP_PCRS). What the TPM was sent and answered is read
from swtpm's own log (level 20 prints every command and response), so the same check runs on
OVMF, which proves it right. Each test starts its own swtpm and stops it."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import FW

OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
OVMF_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.fd")
TPM_CC_STARTUP = 0x144
TPM_CC_GET_CAPABILITY = 0x17A
TPM_RC_INITIALIZE = 0x100
TPM_CAP_PCRS = 5

pytestmark = pytest.mark.skipif(not shutil.which("swtpm"),
                                reason="swtpm not installed (scripts/deps)")


def hex_lines(lines, start):
    """The bytes of the hex dump that starts at lines[start] (16 bytes a line)."""
    data = b""
    for line in lines[start:]:
        try:
            data += bytes.fromhex(line.strip())
        except ValueError:
            break
    return data


def exchanges(log_text):
    """(command, response) byte pairs from swtpm's log."""
    pairs, command, lines = [], None, log_text.splitlines()
    for i, line in enumerate(lines):
        if "SWTPM_IO_Read" in line:
            command = hex_lines(lines, i + 1)
        elif "SWTPM_IO_Write" in line and command is not None:
            pairs.append((command, hex_lines(lines, i + 1)))
            command = None
    return pairs


def code_of(data):
    return int.from_bytes(data[6:10], "big")


def started_and_probed(pairs):
    """Startup(CLEAR) succeeded, then GetCapability(PCRS) was answered with a bank list."""
    startup = [r for c, r in pairs if code_of(c) == TPM_CC_STARTUP and c[10:12] == b"\0\0"]
    caps = [r for c, r in pairs if code_of(c) == TPM_CC_GET_CAPABILITY
            and int.from_bytes(c[10:14], "big") == TPM_CAP_PCRS]
    return (any(code_of(r) in (0, TPM_RC_INITIALIZE) for r in startup)
            and any(code_of(r) == 0 and len(r) > 19 for r in caps))


class Swtpm:
    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="ember-swtpm-"))
        self.sock = self.dir / "sock"
        self.log = self.dir / "swtpm.log"
        self.proc = subprocess.Popen(
            ["swtpm", "socket", "--tpm2", "--tpmstate", f"dir={self.dir}",
             "--ctrl", f"type=unixio,path={self.sock}",
             "--log", f"file={self.log},level=20"])
        for _ in range(100):
            if self.sock.exists():
                break
            time.sleep(0.05)

    def qemu_args(self, device):
        return ["-chardev", f"socket,id=chrtpm,path={self.sock}",
                "-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
                "-device", f"{device},tpmdev=tpm0"]

    def pairs(self):
        return exchanges(self.log.read_text()) if self.log.exists() else []

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def run_until_probed(firmware_args, device, timeout=120):
    tpm = Swtpm()
    qemu = None
    try:
        qemu = subprocess.Popen(
            ["qemu-system-x86_64", "-machine", "q35,accel=tcg", "-m", "256", "-display", "none",
             "-net", "none", "-serial", "null", "-monitor", "none", "-no-reboot"]
            + firmware_args + tpm.qemu_args(device),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and qemu.poll() is None:
            if started_and_probed(tpm.pairs()):
                return True, tpm.pairs()
            time.sleep(0.5)
        return started_and_probed(tpm.pairs()), tpm.pairs()
    finally:
        if qemu and qemu.poll() is None:
            qemu.kill()
            qemu.wait()
        tpm.stop()


def ember_args():
    return ["-bios", str(FW / "ember.fd")]


def ovmf_args(tmp_path):
    vars_copy = tmp_path / "vars.fd"
    shutil.copy(OVMF_VARS, vars_copy)
    return ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
            "-drive", f"if=pflash,format=raw,file={vars_copy}"]


@pytest.mark.parametrize("device", ["tpm-crb", "tpm-tis"])
def test_ember_starts_the_tpm(device):
    ok, pairs = run_until_probed(ember_args(), device)
    assert ok, [(c.hex(), r.hex()) for c, r in pairs]


@pytest.mark.skipif(not OVMF_CODE.exists(), reason="OVMF (Debian package ovmf) not installed")
@pytest.mark.parametrize("device", ["tpm-crb", "tpm-tis"])
def test_ovmf_starts_the_tpm(device, tmp_path):
    ok, pairs = run_until_probed(ovmf_args(tmp_path), device)
    assert ok, [(c.hex(), r.hex()) for c, r in pairs]
