"""Shared fixtures for the integration tests: where the build is, and running ember-run."""
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("EMBER_BUILD", ROOT / "build"))
# EMBER_RUN may name another build of it (make coverage runs an instrumented one).
EMBER_RUN = Path(os.environ.get("EMBER_RUN", BUILD / "ember-run"))
PROGRAMS = BUILD / "tests" / "programs"
APPS = BUILD / "apps"


def run_ember(*args, input=None, timeout=60, cwd=None):
    """Runs build/ember-run with args; returns the CompletedProcess (text mode)."""
    return subprocess.run([str(EMBER_RUN), *map(str, args)], input=input,
                          capture_output=True, timeout=timeout, cwd=cwd)


@pytest.fixture
def ember():
    if not EMBER_RUN.exists():
        pytest.fail(f"{EMBER_RUN} is missing: run make first")
    return run_ember


def program(name):
    """Path of a gnu-efi test program from tests/programs."""
    path = PROGRAMS / f"{name}.efi"
    assert path.exists(), f"{path} is missing: run make first"
    return path


def app(name):
    """Path of one of Ember's own EFI applications from apps/."""
    path = APPS / f"{name}.efi"
    assert path.exists(), f"{path} is missing: run make first"
    return path
