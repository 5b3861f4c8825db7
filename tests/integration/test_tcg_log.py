"""Ember's crypto-agile event log (drivers/tpm/tcg_log.c) as tpm2_eventlog (tpm2-tools) reads
it: the unit test tcg_log_for_replay writes a log of a boot's events (CRTM version, separators
in PCRs 0-7, the boot-option action), tpm2_eventlog parses and replays it, and each replayed
PCR equals the value computed here from the same events by the extend rule
PCR = H(PCR || H(data))."""
import hashlib
import re
import shutil
import subprocess

import pytest

from conftest import BUILD

ACTION = b"Calling EFI Application from Boot Option"
EVENTS = [(0, b"v1")] + [(pcr, b"\0\0\0\0") for pcr in range(8)] + [(4, ACTION)]


def expected(alg):
    size = hashlib.new(alg).digest_size
    pcrs = {pcr: bytes(size) for pcr in range(8)}
    for pcr, data in EVENTS:
        pcrs[pcr] = hashlib.new(alg, pcrs[pcr] + hashlib.new(alg, data).digest()).digest()
    return pcrs


def replayed(text, bank):
    section = re.search(rf"^  {bank}:\n((?:    .*\n)+)", text, re.M)
    assert section, text[-2000:]
    return {int(n): bytes.fromhex(v) for n, v in
            re.findall(r"^\s+(\d+)\s*: 0x([0-9a-fA-F]+)", section.group(1), re.M)}


@pytest.mark.skipif(not shutil.which("tpm2_eventlog"),
                    reason="tpm2_eventlog (Debian package tpm2-tools, scripts/deps) not installed")
def test_event_log_replays_with_tpm2_eventlog(tmp_path):
    out = tmp_path / "log.bin"
    run = subprocess.run([str(BUILD / "unit-tests"), "tcg_log_for_replay"],
                         env={"EMBER_TCG_LOG_OUT": str(out)}, capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout
    text = subprocess.run(["tpm2_eventlog", str(out)], capture_output=True, text=True,
                          check=True).stdout
    assert "Spec ID Event03" in text
    assert text.count("EventType: EV_SEPARATOR") == 8
    # The fake TPM's active banks: SHA-1, SHA-256 and SHA-512 (SHA-384 unallocated).
    for bank in ("sha1", "sha256", "sha512"):
        assert replayed(text, bank) == expected(bank), bank
    assert "sha384:" not in text
