"""scripts/gdb/ember.py on a QEMU guest: gdb attached to Ember's firmware (QEMU's gdb stub,
started stopped as with -s -S) with the core's ELF, stops at the first StartImage, walks
EFI_DEBUG_IMAGE_INFO_TABLE (ember-load-images) and adds the symbols of the program booted
from the disk, so that `break efi_main` stops in hello.c; then, with no symbols at all,
finds the table again through EFI_SYSTEM_TABLE_POINTER."""
import re
import shutil
import socket
import subprocess

import pytest

from conftest import BUILD, FW, ROOT
from disk_images import gpt_esp_disk

PROGRAMS = BUILD / "tests" / "programs"

pytestmark = pytest.mark.skipif(shutil.which("gdb") is None,
                                reason="gdb is missing: run scripts/deps")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gdb_script_loads_symbols_of_loaded_images(machine, tmp_path):
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": PROGRAMS / "hello.efi"})
    symbols = tmp_path / "symbols"
    symbols.mkdir()
    shutil.copy(PROGRAMS / "hello.so", symbols / "BOOTX64.so")  # named as the image is
    port = free_port()
    m = machine(extra=["-drive", f"if=none,id=boot,file={disk},format=raw",
                       "-device", "virtio-blk-pci,drive=boot",
                       "-gdb", f"tcp:127.0.0.1:{port}", "-S"], timeout=300)
    commands = [f"file {FW / 'ember-core.elf'}", f"target remote 127.0.0.1:{port}",
                f"ember-symbol-dir {symbols}",
                # The core is unpacked to its place at start: a hardware breakpoint.
                "hbreak image_start", "continue", "ember-load-images",
                "break efi_main", "continue", "info line *$pc",
                # Without the core's symbols: found through EFI_SYSTEM_TABLE_POINTER.
                "symbol-file", "ember-load-images 0x10000000", "info line *$pc", "kill"]
    args = ["gdb", "-batch", "-nx", "-x", str(ROOT / "scripts" / "gdb" / "ember.py")]
    for c in commands:
        args += ["-ex", c]
    r = subprocess.run(args, capture_output=True, timeout=600)
    out = r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")
    loads = re.findall(r"BOOTX64\.EFI at 0x[0-9a-f]+: symbols from .*BOOTX64\.so", out)
    assert len(loads) == 2, out
    assert "efi_main (" in out, out
    assert len(re.findall(r'Line \d+ of "tests/programs/hello\.c"', out)) == 2, out
    assert "Hello World!" not in m.text


@pytest.mark.parametrize("firmware", ["bios", "ovmf"])
def test_gdb_script_finds_the_table_by_scanning(machine, firmware):
    """Attached to a running machine with no symbols at all, ember-load-images finds the
    system table through EFI_SYSTEM_TABLE_POINTER and reads EFI_DEBUG_IMAGE_INFO_TABLE: on
    Ember as on OVMF (which publishes both too: the oracle of the script)."""
    port = free_port()
    m = machine(firmware=firmware, extra=["-gdb", f"tcp:127.0.0.1:{port}"], timeout=300)
    m.expect(r"Shell>", timeout=300)
    args = ["gdb", "-batch", "-nx", "-x", str(ROOT / "scripts" / "gdb" / "ember.py"),
            "-ex", f"target remote 127.0.0.1:{port}", "-ex", "ember-load-images 0x10000000",
            "-ex", "detach"]
    r = subprocess.run(args, capture_output=True, timeout=600)
    out = r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")
    found = re.search(r"ember: (\d+) images in EFI_DEBUG_IMAGE_INFO_TABLE", out)
    assert found and int(found.group(1)) >= 1, out
