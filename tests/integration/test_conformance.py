"""Runs Ember's boot-services conformance application (apps/conformance) on OVMF, the
reference firmware that proves the checks right, and on Ember's hosted core (ember-run).

The application prints "conformance: N passed, M failed" before ExitBootServices and
powers off with ResetSystem(EfiResetShutdown, status): EFI_SUCCESS only when every
check, including those after ExitBootServices, passed. On OVMF, scripts/run-ovmf reads
the post-ExitBootServices results from guest memory; ember-run turns the reset status
into its exit status and prints the ResetSystem reset data (the final summary)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import APPS, EMBER_RUN, ROOT

APP = APPS / "conformance.efi"
OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
SUMMARY = re.compile(r"^conformance: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$", re.M)
AFTER_EBS = re.compile(r"^after-exit-boot-services: (\d+) passed, (\d+) failed\s*$", re.M)
MIN_CHECKS = 300


@pytest.fixture(scope="module")
def app():
    assert APP.exists(), f"{APP} is missing: run make first"
    return APP


def tail(text, lines=60):
    return "\n".join(text.splitlines()[-lines:])


def failures(text):
    """The FAIL lines (with the explanation lines after them) and the end of the output."""
    lines = text.splitlines()
    keep = [line for i, line in enumerate(lines)
            if line.startswith("FAIL")
            or (i and lines[i - 1].startswith("FAIL") and line.startswith(" "))]
    return "\n".join(keep[:60]) + "\n...\n" + tail(text, 8)


def summary(text):
    found = SUMMARY.findall(text)
    assert found, "no conformance summary line in the output:\n" + tail(text)
    passed, failed, _ = found[-1]
    return int(passed), int(failed)


@pytest.mark.skipif(not OVMF_CODE.exists() or not shutil.which("qemu-system-x86_64"),
                    reason="OVMF (Debian package ovmf) or QEMU not installed")
def test_conformance_on_ovmf(app):
    run = subprocess.run([str(ROOT / "scripts" / "run-ovmf"), "--timeout", "150", str(app)],
                         capture_output=True, text=True, timeout=240)
    out = run.stdout
    passed, failed = summary(out)
    assert failed == 0, "conformance checks failed on OVMF:\n" + failures(out)
    assert passed >= MIN_CHECKS, f"only {passed} checks ran:\n" + tail(out)
    after = AFTER_EBS.findall(out)
    assert after, "no post-ExitBootServices results:\n" + tail(out) + "\n" + run.stderr
    assert int(after[-1][1]) == 0, "checks after ExitBootServices failed:\n" + failures(out)
    assert run.returncode == 0, f"run-ovmf exited {run.returncode}:\n{tail(out)}\n{run.stderr}"


def test_conformance_on_ember_run(app, tmp_path):
    # Started from a file system volume, so the LoadImage-from-file checks run too.
    esp = tmp_path / "esp"
    esp.mkdir()
    shutil.copy(app, esp / "conformance.efi")
    run = subprocess.run([str(EMBER_RUN), "--esp", str(esp), str(esp / "conformance.efi")],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    out = run.stdout
    passed, failed = summary(out)
    assert failed == 0, "conformance checks failed on Ember:\n" + failures(out)
    assert passed >= MIN_CHECKS, f"only {passed} checks ran:\n" + tail(out)
    # The checks after ExitBootServices report through ResetSystem: its status becomes
    # ember-run's exit status, its reset data (the final summary) goes to stderr.
    final = re.findall(r"ember-run: shutdown: conformance: (\d+) passed, (\d+) failed",
                       run.stderr)
    assert final and final[-1][1] == "0", "no clean final summary:\n" + tail(run.stderr)
    assert run.returncode == 0, (f"ember-run exited {run.returncode} (failures after "
                                 f"ExitBootServices?):\n{tail(out)}\n{tail(run.stderr)}")
