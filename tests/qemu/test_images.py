"""The build's firmware images are what QEMU and libvirt expect: -bios needs a multiple of
64 KiB, the pflash pair fits QEMU's 8 MiB, the code flash ends with the reset vector, and
the firmware descriptor (the JSON libvirt reads) names files that exist and describes
Ember truthfully, and what the code flash holds stays within issue 11's goal of 320 KiB.
And `make run`'s demo boots."""
import json
import os
import struct
import subprocess
import time
import zlib

import linux_payloads as lp
from conftest import BUILD, FW, ROOT


def test_image_sizes_and_reset_vector():
    bios = (FW / "ember.fd").stat().st_size
    code = (FW / "ember-code.fd").read_bytes()
    vars_size = (FW / "ember-vars.fd").stat().st_size
    assert bios % 65536 == 0
    assert bios == len(code) + vars_size
    assert len(code) + vars_size <= 8 * 1024 * 1024
    assert len(code) % 4096 == 0 and vars_size % 4096 == 0
    # The last 16 bytes: a near jump (0xE9 rel16) into the reset code.
    assert code[-16] == 0xE9


def symbols(elf, *names):
    """The addresses of names in elf, in that order."""
    table = {}
    for line in subprocess.run(["llvm-nm", str(elf)], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return [table[name] for name in names]


def call_filter_decode(code, size):
    """lib/call_filter.c's decoding, written again: each E8's rel32 in [-2^24, 2^24) was made
    an offset from the start (modulo 2^25)."""
    span = 1 << 24
    i = code.find(0xE8, 0, size)
    while 0 <= i and i + 5 <= size:
        value, = struct.unpack_from("<I", code, i + 1)
        if (value + span) % (1 << 32) < 2 * span:
            value = (((value - i - 5) & (2 * span - 1)) ^ span) - span
            struct.pack_into("<I", code, i + 1, value % (1 << 32))
        i = code.find(0xE8, i + 5, size)


def test_code_flash_holds_the_packed_core():
    """The reset stage's descriptor points at a raw DEFLATE stream in the code flash that
    unpacks, once its code's calls are decoded, to the linked core without its cold part
    (docs/design.md, "The hot and cold split"): the bytes from CORE_MOVE_AT on are those
    that lie from CORE_MOVE_TO on in the link. The cold part's own stream lies right below
    the packed shell, where the core's qemu_cold_stream says, and unpacks (its calls decoded
    from its own start) to the link's bytes in between. Together they give the linked core
    exactly, but for the .pointer_slots bitmap and qemu_cold_stream, which scripts/mkfd
    fills in. The region the descriptor gives ends at the reset blob and holds after the
    hot stream erased flash, then the cold stream, then the packed shell."""
    code = (FW / "ember-code.fd").read_bytes()
    core = (FW / "ember-core.bin").read_bytes()
    at = code.rindex(b"EMBERCOR")
    flash, load, file_size, bss_end, entry, packed, calls = struct.unpack_from(
        "<7Q", code, at + 8)
    move_at, move_to = struct.unpack_from("<2Q", code, at + 72)
    cold_start, cold_end, cold_code_end, stream, slots_start, slots_end, file_end = symbols(
        FW / "ember-core.elf", "__core_cold_start", "__core_cold_end",
        "__core_cold_code_end", "qemu_cold_stream", "__core_slots_start",
        "__core_slots_end", "__core_file_end")
    assert (move_at, move_to) == (cold_start - load, cold_end - load) and move_at < move_to
    assert file_size == file_end - load - (move_to - move_at)
    assert load == 0x100000 and bss_end >= file_end and load <= entry < cold_start
    assert 0 < calls <= move_at
    start = flash - ((1 << 32) - len(code))
    region = code[start:start + packed]
    unpack = zlib.decompressobj(-15)
    hot = bytearray(unpack.decompress(region))
    assert unpack.eof and start + packed == len(code) - 8192 and len(hot) == file_size
    shell = (FW / "shell.efi.deflate").read_bytes() + (FW / "setup.efi.deflate").read_bytes()
    rest = unpack.unused_data
    assert rest.endswith(shell)
    assert hot[:calls] != core[:calls]
    call_filter_decode(hot, calls)
    image = hot[:move_at] + bytes(move_to - move_at) + hot[move_at:]
    cold_flash, cold_size = struct.unpack_from("<2Q", image, stream - load)
    assert cold_flash + cold_size + len(shell) == (1 << 32) - 8192
    cold_at = len(rest) - len(shell) - cold_size
    assert set(rest[:cold_at]) <= {0xFF}
    cold = bytearray(zlib.decompress(rest[cold_at:cold_at + cold_size], -15))
    assert len(cold) == move_to - move_at
    call_filter_decode(cold, cold_code_end - cold_start)
    image[move_at:move_to] = cold
    image[stream - load:stream - load + 16] = core[stream - load:stream - load + 16]
    first, end = slots_start - load, slots_end - load
    assert any(image[first:end])
    image[first:end] = bytes(end - first)
    assert image == core[:file_end - load].ljust(file_end - load, b"\0")


def test_embedded_shell_is_packed_on_its_own_and_runs(machine):
    """The shell rides in the code flash packed by scripts/deflate-blob (its size, then raw
    DEFLATE of it after the call filter), not as it is, and outside the core's image: at
    the end of the packed core's region, right below the reset blob, where the reset
    stage's check covers it but its unpacking of the core does not pass over it; with
    nothing to boot, the firmware unpacks it and it runs."""
    shell = (BUILD / "apps" / "shell.efi").read_bytes()
    core = (FW / "ember-core.bin").read_bytes()
    blob = (FW / "shell.efi.deflate").read_bytes()
    code = (FW / "ember-code.fd").read_bytes()
    middle = len(shell) // 2
    assert shell[middle:middle + 256] not in core
    assert blob[len(blob) // 2:len(blob) // 2 + 256] not in core
    setup = (FW / "setup.efi.deflate").read_bytes()
    end = len(code) - 8192 - len(setup)
    assert code[end:len(code) - 8192] == setup
    assert code[end - len(blob):end] == blob
    at = code.find(b"EMBERCOR", len(code) - 8192)
    flash, _, _, _, _, packed = struct.unpack_from("<6Q", code, at + 8)
    assert flash + packed == (1 << 32) - 8192
    size, = struct.unpack_from("<Q", blob)
    unpacked = bytearray(zlib.decompress(blob[8:], -15))
    assert size == len(shell) == len(unpacked)
    call_filter_decode(unpacked, len(unpacked))
    assert unpacked == shell
    m = machine(timeout=120)
    m.expect(r"Shell> ")
    m.expect_log(r"bds: starting Ember shell")
    # The boot manager's fallback to the shell is cold code: its first call unpacked the
    # core's cold part (docs/design.md, "The hot and cold split").
    m.expect_log(r"cold: the core's cold part unpacked on a touch at 0x")


def test_plain_boot_leaves_the_cold_part_packed(machine, tmp_path):
    """The machine of make bench (q35, the pflash pair, a GPT disk on virtio-blk whose ESP
    holds the boot program) reaches the program with the core's cold part still packed:
    the reset stage unpacked only the hot part and nothing on the way touched the rest
    (scripts/profile-hot keeps hot.list in step)."""
    payload = BUILD / "tests" / "programs" / "tsc_entry.efi"
    disk = lp.esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": payload},
                       esp_size=16 * lp.MIB)
    m = machine(firmware="pflash", vga="std",
                disks=[f"file={disk},format=raw,if=virtio,snapshot=on"])
    m.expect(r"tsc-entry: [0-9]+\r?\n")
    # Up to the boot program's start; when it returns, the boot manager goes on to the
    # shell, which is cold.
    log = m.debug_log
    assert "bds: starting " in log
    assert "cold:" not in log[:log.index("bds: starting ")]


def test_damaged_core_is_reported_not_run(tmp_path):
    """A -bios image whose packed core is corrupt stops at reset with a message on the
    serial port instead of running garbage."""
    image = bytearray((FW / "ember.fd").read_bytes())
    at = image.rindex(b"EMBERCOR")
    flash, _, _, _, _, packed = struct.unpack_from("<6Q", image, at + 8)
    start = flash - ((1 << 32) - len(image))
    for i in range(start + packed // 2, start + packed // 2 + 64):
        image[i] ^= 0x5A
    damaged = tmp_path / "damaged.fd"
    damaged.write_bytes(bytes(image))
    qemu = subprocess.Popen(["qemu-system-x86_64", "-machine", "q35,accel=tcg", "-m", "256",
                             "-display", "none", "-net", "none", "-no-reboot", "-serial",
                             "stdio", "-monitor", "none", "-bios", str(damaged)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)
    out = b""
    deadline = time.monotonic() + 60
    try:
        os.set_blocking(qemu.stdout.fileno(), False)
        while time.monotonic() < deadline and b"stopping" not in out:
            chunk = qemu.stdout.read(4096)
            out += chunk or b""
            if not chunk:
                time.sleep(0.05)
    finally:
        qemu.kill()
        qemu.wait()
    assert (b"Ember: the firmware image is damaged: the packed core's checksum is wrong; "
            b"stopping") in out, out


def test_firmware_descriptor():
    d = json.loads((FW / "ember-x86_64.json").read_text())
    assert d["interface-types"] == ["uefi"]
    mapping = d["mapping"]
    assert mapping["device"] == "flash"
    for key in ("executable", "nvram-template"):
        assert os.path.isabs(mapping[key]["filename"])
        assert os.path.exists(mapping[key]["filename"]), mapping[key]["filename"]
        assert mapping[key]["format"] == "raw"
    assert d["targets"] == [{"architecture": "x86_64",
                             "machines": ["pc-i440fx-*", "pc-q35-*"]}]
    # Ember claims no feature it does not have (no SMM, no Secure Boot, no S3).
    assert d["features"] == []


def test_make_run_demo_boots(tmp_path):
    env = dict(os.environ, EMBER_BUILD=str(FW.parent), DISPLAY="")
    demo = subprocess.Popen([str(ROOT / "scripts" / "run-demo")], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    out = b""
    deadline = time.monotonic() + 90
    try:
        os.set_blocking(demo.stdout.fileno(), False)
        while time.monotonic() < deadline and b"Hello World!" not in out:
            chunk = demo.stdout.read(4096)
            out += chunk or b""
            if not chunk:
                time.sleep(0.1)
    finally:
        demo.kill()
        demo.wait()
    assert b"Hello World!" in out, out[-2000:]
