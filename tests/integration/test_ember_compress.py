"""build/ember-compress, the host command for the UEFI compression algorithm: a PE file
and a text file compressed and decompressed (-d) come back the same and smaller; a
damaged or truncated stream is refused with a message and exit status 1, writing
nothing; a missing file or bad usage is an error. (OVMF decoding its output is checked by
tests/qemu/test_option_rom.py and tests/qemu/test_decompress.py.)"""
import subprocess

import pytest

from conftest import BUILD, ROOT

TOOL = BUILD / "ember-compress"


def compress(*args):
    return subprocess.run([str(TOOL), *map(str, args)], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("source", [BUILD / "apps" / "shell.efi", ROOT / "docs" / "design.md"])
def test_round_trip(tmp_path, source):
    packed, back = tmp_path / "packed", tmp_path / "back"
    assert compress(source, packed).returncode == 0
    data = packed.read_bytes()
    assert int.from_bytes(data[4:8], "little") == source.stat().st_size
    assert int.from_bytes(data[0:4], "little") == len(data) - 8
    assert len(data) < source.stat().st_size * 0.6
    assert compress("-d", packed, back).returncode == 0
    assert back.read_bytes() == source.read_bytes()


def test_bad_streams_are_refused(tmp_path):
    source = ROOT / "docs" / "design.md"
    packed, bad, back = tmp_path / "packed", tmp_path / "bad", tmp_path / "back"
    assert compress(source, packed).returncode == 0
    data = bytearray(packed.read_bytes())
    bad.write_bytes(data[: len(data) // 2])  # sizes larger than the file
    run = compress("-d", bad, back)
    assert run.returncode == 1 and "header shorter than its sizes" in run.stderr
    assert not back.exists()
    data[10] |= 0xF8  # the first block's Extra set: 31 code lengths of its 19 symbols
    bad.write_bytes(data)
    run = compress("-d", bad, back)
    assert run.returncode == 1 and "corrupt stream" in run.stderr, run.stderr
    assert not back.exists()


def test_usage_and_missing_file(tmp_path):
    assert compress().returncode == 2
    assert compress(tmp_path / "missing", tmp_path / "out").returncode == 1
