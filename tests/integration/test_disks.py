"""ember-run --disk IMAGE: block devices, Disk I/O and partitions, checked against the tools
that made the images.

Images are partitioned by sgdisk (GPT), sfdisk and parted (MBR with logical partitions) and
made into CDs by xorriso (El Torito with an EFI boot image). apps/disk-test lists what an EFI
program sees (BlockIo, PartitionInfo, device path nodes, the ESP tag) and writes through
DiskIo at odd offsets; the test compares that with what the tools report and with the image
file's bytes afterwards.
"""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import app

SUMMARY = re.compile(r"disk-test: (\d+) passed, (\d+) failed")
DISK_LINE = re.compile(r"^disk (\d+): (.*)$")
PART_LINE = re.compile(r"^  partition (.*)$")
ESP_TYPE = "C12A7328-F81F-11D2-BA4B-00A0C93EC93B"
SECTOR = 512


def need(*tools):
    for tool in tools:
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing (scripts/deps installs it)")


def sh(*args, input=None):
    return subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True,
                          input=input).stdout


def blank(path, mib):
    with open(path, "wb") as f:
        f.truncate(mib << 20)
    return path


def fields(text):
    return dict(item.split("=", 1) for item in text.split() if "=" in item)


def run_disk_test(ember, disks, *command, extra=()):
    """Runs disk-test with --disk for each image; returns (devices, stdout, stderr)."""
    args = [*extra]
    for d in disks:
        args += ["--disk", d]
    result = ember(*args, app("disk-test"), *command, timeout=120)
    out = result.stdout.decode("utf-8", "replace").replace("\r", "")
    err = result.stderr.decode("utf-8", "replace")
    summary = SUMMARY.search(out)
    assert summary, f"no summary\nstdout:\n{out}\nstderr:\n{err}"
    assert result.returncode == 0 and summary.group(2) == "0", \
        f"disk-test failed\nstdout:\n{out}\nstderr:\n{err}"
    devices = []
    for line in out.splitlines():
        m = DISK_LINE.match(line)
        if m:
            devices.append({"index": int(m.group(1)), **fields(m.group(2)), "partition": None})
        m = PART_LINE.match(line)
        if m:
            devices[-1]["partition"] = fields(m.group(1))
    return devices, out, err


def partitions_of(devices, disk_index):
    """The partition devices on --disk number disk_index, by their node's number."""
    prefix = devices[disk_index]["path"] + "/"
    found = {}
    for d in devices:
        if d["path"].startswith(prefix) and d["partition"]:
            p = d["partition"]
            found[int(p.get("number", p.get("entry", -1)))] = d
    return found


# ---- GPT (sgdisk) ----

def make_gpt(path):
    blank(path, 64)
    sh("sgdisk", "-n", "1:2048:+20M", "-t", "1:ef00", "-c", "1:EFI system",
       "-n", "2:0:+10M", "-t", "2:8300", "-n", "4:0:+5M", "-t", "4:0700", path)
    return path


def sgdisk_info(path, number):
    info = {}
    for line in sh("sgdisk", "-i", number, path).splitlines():
        key, _, value = line.partition(": ")
        info[key.strip()] = value.split(" ")[0]
    return info


def check_gpt_partitions(devices, path):
    parts = partitions_of(devices, 0)
    assert sorted(parts) == [1, 2, 4]
    for number, dev in parts.items():
        info = sgdisk_info(path, number)
        p = dev["partition"]
        first, last = int(info["First sector"]), int(info["Last sector"])
        assert p["type"] == "GPT"
        assert int(p["start"]) == first and int(p["size"]) == last - first + 1
        assert int(p["gpt-start"]) == first and int(p["gpt-end"]) == last
        assert int(dev["blocks"]) == last - first + 1 and dev["logical"] == "1"
        assert p["gpt-type"] == info["Partition GUID code"]
        assert info["Partition unique GUID"] in dev["path"]
        is_esp = info["Partition GUID code"] == ESP_TYPE
        assert p["esp"] == p["system"] == ("1" if is_esp else "0")
        assert dev["diskio"] == "1" and dev["diskio2"] == "1" and dev["bio2"] == "1"
        assert f"HD({number},GPT," in dev["path"]


def test_gpt_partitions_match_sgdisk(ember, tmp_path):
    need("sgdisk")
    disk = make_gpt(tmp_path / "gpt.img")
    devices, _, _ = run_disk_test(ember, [disk], "list")
    assert devices[0]["bs"] == "512" and int(devices[0]["blocks"]) == 64 << 11
    assert devices[0]["logical"] == "0" and devices[0]["partition"] is None
    check_gpt_partitions(devices, disk)


def test_gpt_zeroed_primary_header_uses_backup(ember, tmp_path):
    need("sgdisk")
    disk = make_gpt(tmp_path / "gpt.img")
    with open(disk, "r+b") as f:
        f.seek(SECTOR)
        f.write(bytes(SECTOR))
    damaged = disk.read_bytes()
    # Read-only: the partitions come from the backup, and the disk stays as it was.
    devices, _, err = run_disk_test(ember, [f"{disk}:ro"], "list", extra=["--debug"])
    check_gpt_partitions(devices, disk)
    assert "primary GPT is damaged" in err and "using the backup" in err
    assert "cannot restore" in err and disk.read_bytes() == damaged
    # Read-write: the backup also restores the primary (UEFI 2.10, 5.3.2).
    devices, _, err = run_disk_test(ember, [disk], "list", extra=["--debug"])
    check_gpt_partitions(devices, disk)
    assert "restored the primary GPT" in err
    assert "No problems found" in sh("sgdisk", "-v", disk)
    _, _, err = run_disk_test(ember, [disk], "list", extra=["--debug"])
    assert "damaged" not in err


def test_gpt_corrupt_entry_array_crc_shows_nothing(ember, tmp_path):
    need("sgdisk")
    disk = make_gpt(tmp_path / "gpt.img")
    size = disk.stat().st_size
    with open(disk, "r+b") as f:
        # A name byte of entry 1 in the primary array (LBA 2) and in the backup's
        # (the 32 blocks before the last), CRCs left as they were.
        for array in (2 * SECTOR, size - 33 * SECTOR):
            f.seek(array + 56)
            byte = f.read(1)[0]
            f.seek(array + 56)
            f.write(bytes([byte ^ 0x20]))
    devices, _, err = run_disk_test(ember, [disk], "list", extra=["--debug"])
    assert len(devices) == 1 and devices[0]["logical"] == "0"
    assert "no valid GPT" in err and "array CRC32 mismatch" in err


def test_writes_at_odd_offsets_reach_the_image(ember, tmp_path):
    need("sgdisk")
    disk = make_gpt(tmp_path / "gpt.img")
    before = disk.read_bytes()
    devices, _, _ = run_disk_test(ember, [disk], "list")
    part2 = partitions_of(devices, 0)[2]
    start = int(part2["partition"]["start"]) * SECTOR
    writes = [(part2["index"], 12345, 7001, start), (0, 3 * 1024 * 1024 + 1, 513, 0),
              (part2["index"], 511, 1, start)]
    expected = bytearray(before)
    for device, offset, length, base in writes:
        run_disk_test(ember, [disk], "io", device, offset, length)
        for i in range(length):
            expected[base + offset + i] = ((offset + i) * 31 + 7) & 0xff
    assert disk.read_bytes() == bytes(expected)
    # The partition table is intact afterwards.
    assert "No problems found" in sh("sgdisk", "-v", disk)


def test_read_only_disk(ember, tmp_path):
    need("sgdisk")
    disk = make_gpt(tmp_path / "gpt.img")
    before = disk.read_bytes()
    devices, _, _ = run_disk_test(ember, [f"{disk}:ro"], "list")
    assert all(d["ro"] == "1" for d in devices)
    run_disk_test(ember, [f"{disk}:ro"], "ro", 0)
    run_disk_test(ember, [f"{disk}:ro"], "ro", partitions_of(devices, 0)[1]["index"])
    assert disk.read_bytes() == before


# ---- MBR (sfdisk, parted) ----

def sfdisk_partitions(path):
    table = json.loads(sh("sfdisk", "-J", path))["partitiontable"]
    parts = {}
    for p in table["partitions"]:
        number = int(re.search(r"(\d+)$", p["node"]).group(1))
        parts[number] = (int(p["start"]), int(p["size"]), int(p["type"], 16))
    return parts, int(table["id"], 16)


def check_mbr_partitions(devices, path, disk_index=0):
    expected, disk_id = sfdisk_partitions(path)
    extended = {n for n, (_, _, t) in expected.items() if t in (0x05, 0x0f, 0x85)}
    parts = partitions_of(devices, disk_index)
    assert sorted(parts) == sorted(set(expected) - extended)
    for number, dev in parts.items():
        start, size, ostype = expected[number]
        p = dev["partition"]
        assert p["type"] == "MBR" and int(p["mbr-type"], 16) == ostype
        assert int(p["start"]) == start and int(p["size"]) == size
        assert int(dev["blocks"]) == size
        assert p["esp"] == p["system"] == ("1" if ostype == 0xef else "0")
        assert f"HD({number},MBR,0x{disk_id:08X}," in dev["path"]  # 8 digits, as EDK2 prints
    return parts


def test_mbr_logical_partitions_sfdisk(ember, tmp_path):
    need("sfdisk")
    disk = blank(tmp_path / "mbr.img", 64)
    sh("sfdisk", "-q", disk, input=(
        "label: dos\nlabel-id: 0x1234abcd\n"
        "start=2048, size=20480, type=ef, bootable\n"
        "start=22528, size=8192, type=83\n"
        "start=32768, type=5\n"
        "start=34816, size=4096, type=83\n"
        "start=40960, size=2048, type=7\n"
        "start=45056, size=10000, type=c\n"))
    devices, _, _ = run_disk_test(ember, [disk], "list")
    parts = check_mbr_partitions(devices, disk)
    assert sorted(parts) == [1, 2, 5, 6, 7]


def test_mbr_logical_partitions_parted(ember, tmp_path):
    need("parted", "sfdisk")
    disk = blank(tmp_path / "parted.img", 80)
    sh("parted", "-s", disk, "mklabel", "msdos",
       "mkpart", "primary", "fat32", "1MiB", "17MiB", "set", "1", "esp", "on",
       "mkpart", "extended", "17MiB", "79MiB",
       "mkpart", "logical", "ext4", "18MiB", "30MiB",
       "mkpart", "logical", "fat32", "31MiB", "50MiB",
       "mkpart", "logical", "ext4", "51MiB", "79MiB")
    devices, _, _ = run_disk_test(ember, [disk], "list")
    parts = check_mbr_partitions(devices, disk)
    assert sorted(parts) == [1, 5, 6, 7]
    # parted's own view agrees on the ESP flag (type 0xEF).
    printed = sh("parted", "-m", "-s", disk, "unit", "s", "print")
    assert re.search(r"^1:2048s:.*esp", printed, re.M)
    assert parts[1]["partition"]["esp"] == "1"


# ---- El Torito (xorriso) ----

def xorriso_boot_images(iso):
    """(number, platform, sectors of 512 bytes, LBA) per catalogue entry."""
    images = []
    for line in sh("xorriso", "-indev", iso, "-report_el_torito", "plain").splitlines():
        m = re.match(r"El Torito boot img :\s+(\d+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\d+)\s+(\d+)",
                     line)
        if m:
            images.append((int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))))
    return images


def make_iso(tmp_path, layout, fill=None):
    """An ISO whose EFI boot image is a FAT floppy image: "efi-only" (-e efi.img),
    "bios-and-efi" (a BIOS no-emulation image first, -eltorito-alt-boot -e efi.img) or
    "appended" (efi.img as an appended MBR partition that the El Torito entry points at).
    fill(directory) may put files into the FAT image's directory tree first."""
    root = tmp_path / "isoroot"
    root.mkdir()
    (root / "README.TXT").write_text("an ISO 9660 file\n")
    efi_img = (tmp_path if layout == "appended" else root) / "efi.img"
    sh("mkfs.vfat", "-C", efi_img, "2880")
    if fill:
        fill(efi_img)
    args = ["xorriso", "-as", "mkisofs", "-o", tmp_path / "cd.iso"]
    if layout == "bios-and-efi":
        (root / "boot.bin").write_bytes(bytes(range(256)) * 8)
        args += ["-b", "boot.bin", "-no-emul-boot", "-boot-load-size", "4",
                 "-eltorito-alt-boot"]
    if layout == "appended":
        args += ["-append_partition", "2", "0xef", efi_img,
                 "-e", "--interval:appended_partition_2:all::", "-no-emul-boot", root]
    else:
        args += ["-e", "efi.img", "-no-emul-boot", root]
    subprocess.run([str(a) for a in args], check=True, capture_output=True)
    return tmp_path / "cd.iso"


@pytest.mark.parametrize("layout", ["efi-only", "bios-and-efi", "appended"])
def test_eltorito_boot_image_from_xorriso(ember, tmp_path, layout):
    need("xorriso", "mkfs.vfat")
    iso = make_iso(tmp_path, layout)
    images = xorriso_boot_images(iso)
    efi = [img for img in images if img[1] == "UEFI"]
    assert len(efi) == 1 and len(images) == (2 if layout == "bios-and-efi" else 1)
    number, _, count, lba = efi[0]
    devices, _, _ = run_disk_test(ember, [iso], "list")
    cd = devices[0]
    assert cd["bs"] == "2048" and cd["ro"] == "1" and cd["removable"] == "1"
    assert int(cd["blocks"]) * 2048 == iso.stat().st_size
    parts = partitions_of(devices, 0)
    entry = number - 1  # CDROM() counts the default entry as 0
    assert list(parts) == [entry]
    child = parts[entry]
    p = child["partition"]
    assert p["node"] == "CDROM" and int(p["start"]) == lba
    assert int(p["size"]) == count * 512 // 2048
    assert p["type"] == "OTHER" and p["esp"] == "1" and p["system"] == "1"
    assert child["bs"] == "2048" and child["ro"] == "1"
    assert f"/CDROM(0x{entry:X},0x{lba:X},0x{count * 512 // 2048:X})" in child["path"]
    # The child's bytes are the boot image's bytes.
    run_disk_test(ember, [iso], "checks")


def test_checks_on_every_kind_of_disk(ember, tmp_path):
    """DiskIo/BlockIo statuses and PartitionInfo consistency on all devices at once."""
    need("sgdisk", "sfdisk", "xorriso", "mkfs.vfat")
    gpt = make_gpt(tmp_path / "gpt.img")
    mbr = blank(tmp_path / "mbr.img", 16)
    sh("sfdisk", "-q", mbr, input="label: dos\nstart=2048, size=4096, type=83\n"
                                  "start=8192, type=5\nstart=10240, size=2048, type=ef\n")
    iso = make_iso(tmp_path, "bios-and-efi")
    devices, out, _ = run_disk_test(ember, [gpt, mbr, f"{iso}:ro"], "checks")
    assert "checked 9 devices" in out  # 1+3 GPT, 1+2 MBR, 1+1 CD


def test_disks_are_numbered_in_command_line_order(ember, tmp_path):
    need("sfdisk")
    disks = []
    for i in range(3):
        disk = blank(tmp_path / f"d{i}.img", 4 + i)
        sh("sfdisk", "-q", disk, input="label: dos\nstart=2048, size=2048, type=83\n")
        disks.append(disk)
    devices, _, _ = run_disk_test(ember, disks, "list")
    whole = [d for d in devices if d["logical"] == "0"]
    assert [int(d["blocks"]) for d in whole] == [(4 + i) << 11 for i in range(3)]


def test_bad_disk_options(ember, tmp_path):
    result = ember("--disk", tmp_path / "missing.img", app("disk-test"), "list")
    assert result.returncode == 2 and b"missing.img" in result.stderr
    tiny = tmp_path / "tiny.img"
    tiny.write_bytes(b"x" * 100)
    result = ember("--disk", tiny, app("disk-test"), "list")
    assert result.returncode == 2 and b"too small" in result.stderr
    disk = blank(tmp_path / "empty.img", 1)
    result = ember("--disk", disk, "fs7:\\nothing.efi")
    assert result.returncode == 2 and b"no file system fs7:" in result.stderr


# ---- Programs run from inside disk images (needs drivers/fat) ----

SELF = re.compile(r"self: device=(\S+) file=(\S+) sfs=(\d) esp=(\d) partition=(\d)")


def run_self(ember, *args):
    """Runs disk-test's `self` command as named by args; returns (device, file, esp)."""
    result = ember(*args, "self", timeout=60)
    out = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace")
    m = SELF.search(out)
    assert result.returncode == 0 and m, f"stdout:\n{out}\nstderr:\n{err}"
    assert m.group(3) == "1"
    return m.group(1), m.group(2), m.group(4) == "1"


def put_app(image_spec, path="::/EFI/BOOT/BOOTX64.EFI"):
    """Copies disk-test into a FAT image (mtools image spec, e.g. "disk.img@@1M")."""
    sh("mmd", "-D", "s", "-i", image_spec, "::/EFI", "::/EFI/BOOT")
    sh("mcopy", "-o", "-i", image_spec, app("disk-test"), path)


def make_gpt_esp(path):
    blank(path, 64)
    sh("sgdisk", "-n", "1:2048:+40M", "-t", "1:ef00", "-n", "2:0:0", "-t", "2:0700", path)
    # FAT32 needs 65525 clusters at least: 40 MiB of 512-byte clusters.
    sh("mkfs.vfat", "-F", "32", "-s", "1", "--offset", "2048", path, str(40 * 1024))
    put_app(f"{path}@@1M")
    return path


def test_program_runs_from_gpt_esp(ember, tmp_path):
    need("sgdisk", "mkfs.vfat", "mcopy")
    disk = make_gpt_esp(tmp_path / "esp.img")
    device, file, esp = run_self(ember, "--disk", disk, "fs0:\\EFI\\BOOT\\BOOTX64.EFI")
    unique = sgdisk_info(disk, 1)["Partition unique GUID"]
    assert device.endswith(f"/HD(1,GPT,{unique},0x800,0x14000)")
    assert file == "\\EFI\\BOOT\\BOOTX64.EFI" and esp
    # Names are case-insensitive, '/' works as '\', and the volume prefix too.
    device2, _, _ = run_self(ember, "--disk", disk, "FS0:/efi/boot/bootx64.efi")
    assert device2 == device


def test_program_runs_from_eltorito_image(ember, tmp_path):
    need("xorriso", "mkfs.vfat", "mcopy")
    iso = make_iso(tmp_path, "efi-only", fill=lambda img: put_app(str(img)))
    device, file, esp = run_self(ember, "--disk", iso, "fs0:\\EFI\\BOOT\\BOOTX64.EFI")
    assert re.search(r"/CDROM\(0x0,0x[0-9A-F]+,0x5A0\)$", device), device
    assert esp


def test_file_systems_numbered_in_command_line_order(ember, tmp_path):
    need("sfdisk", "mkfs.vfat", "mcopy")
    # MBR disk: FAT in primary 1 and logical 5 and 6; an ESP directory in between.
    mbr = blank(tmp_path / "mbr.img", 40)
    sh("sfdisk", "-q", mbr, input="label: dos\nstart=2048, size=16384, type=c\n"
                                  "start=20480, type=5\nstart=22528, size=8192, type=c\n"
                                  "start=32768, size=8192, type=c\n")
    for start, size in ((2048, 16384), (22528, 8192), (32768, 8192)):
        sh("mkfs.vfat", "--offset", start, mbr, size // 2)
        put_app(f"{mbr}@@{start * 512}")
    esp = tmp_path / "espdir"
    (esp / "EFI" / "BOOT").mkdir(parents=True)
    shutil.copy(app("disk-test"), esp / "EFI" / "BOOT" / "BOOTX64.EFI")
    gpt = make_gpt_esp(tmp_path / "gpt.img")
    order = ["--disk", gpt, "--esp", esp, "--disk", mbr]
    expected = [r"/HD\(1,GPT,", r"^VenHw\(982609F9-3366-4777-ABC4-0CECE3AD9D72,",
                r"/HD\(1,MBR,", r"/HD\(5,MBR,", r"/HD\(6,MBR,"]
    for n, pattern in enumerate(expected):
        device, _, _ = run_self(ember, *order, f"fs{n}:\\EFI\\BOOT\\BOOTX64.EFI")
        assert re.search(pattern, device), (n, device)
    result = ember(*order, f"fs{len(expected)}:\\EFI\\BOOT\\BOOTX64.EFI")
    assert result.returncode == 2 and b"no file system" in result.stderr
