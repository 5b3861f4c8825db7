"""The firmware volume of drivers and the verified start (issue 16), on Ember's pflash pair.

ember-fw (build/ember-fw) adds rEFInd's ext4 driver (Debian's package refind, fetched with
`apt-get download` into the Linux tests' cache) to a copy of ember-code.fd; the DXE core
then dispatches it after its built-in drivers and the boot manager boots the Linux tests'
UKI from an ext4 partition (mkfs.ext4, made here) through a Boot#### option. Removing it
restores the image byte for byte and the option fails again. A file with a bad data
checksum and one that runs past the volume's end are reported and never run, while the
good driver beside them runs. An APPLICATION file boots from an Fv()/FvFile() option. And
an image with a byte changed in the packed core or in the volume's header stops at reset
with a message; the unmodified one boots. OVMF has no place for ember-fw's files (its
volumes are EDK II's, of their own layout), so these run on Ember only."""
import shutil
import struct
import subprocess
import uuid

import pytest

import linux_payloads as lp
from conftest import BUILD, FW
from test_linux import BOOT_TIMEOUT, efi_dmesg, report

EMBER_FW = BUILD / "ember-fw"
VARSTORE = BUILD / "ember-varstore"
MIB = 1 << 20
VOLUME_NAME = "3F1E0C2A-7A4B-4E0D-9B65-E3B1A7C0F501"  # scripts/mkfd's
PART_GUID = uuid.UUID("6a1f7c52-0d2e-4b9a-8e33-5c7d9f0a1b24")
PART_START, PART_SIZE = MIB, 96 * MIB
EXT4_GUID = "E4E4E4E4-0000-4000-8000-000000000004"
EXT2_GUID = "E2E2E2E2-0000-4000-8000-000000000002"
DRIVERS = "usr/share/refind/refind/drivers_x64"


def ember_fw(*args, check=True):
    return subprocess.run([str(EMBER_FW), *map(str, args)], capture_output=True, text=True,
                          check=check)


def varstore(vars_file, *args):
    subprocess.run([str(VARSTORE), str(vars_file), *args], check=True, capture_output=True)


def refind_drivers():
    """rEFInd's drivers directory, from Debian's package refind (cached)."""
    with lp._Lock():
        lp.DEBS.mkdir(parents=True, exist_ok=True)
        try:
            deb = lp._fetch("refind")
        except lp.PayloadError:  # apt's lists may be missing or old: update them once
            lp._run(["apt-get", "update", "-qq"])
            deb = lp._fetch("refind")
        root = lp.CACHE / "refind"
        if not (root / DRIVERS / "ext4_x64.efi").exists():
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root / DRIVERS


def ucs2(text):
    return (text + "\0").encode("utf-16-le")


def load_option(description, path_nodes):
    path = b"".join(path_nodes) + bytes.fromhex("7fff0400")
    return struct.pack("<IH", 1, len(path)) + ucs2(description) + path


def hd_node():
    """HD(1,GPT,PART_GUID,start,size): a short-form path the boot manager expands."""
    return struct.pack("<BBHIQQ16sBB", 4, 1, 42, 1, PART_START // 512, PART_SIZE // 512,
                       PART_GUID.bytes_le, 2, 2)


def file_node(path):
    data = ucs2(path)
    return struct.pack("<BBH", 4, 4, 4 + len(data)) + data


def guid_node(subtype, guid):
    return struct.pack("<BBH", 4, subtype, 20) + uuid.UUID(guid).bytes_le


def vars_with_option(path, option):
    shutil.copy(FW / "ember-vars.fd", path)
    varstore(path, "set", "Boot0001", "--hex", option.hex())
    varstore(path, "set", "BootOrder", "--hex", "0100")
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    if not EMBER_FW.exists():
        pytest.fail(f"{EMBER_FW} is missing: run make first")
    return tmp_path_factory.mktemp("fv")


@pytest.fixture(scope="module")
def drivers():
    try:
        return refind_drivers()
    except lp.PayloadError as e:
        pytest.fail(f"cannot fetch rEFInd: {e}")


@pytest.fixture(scope="module")
def ext4_disk(work):
    """A GPT disk whose one partition (Linux file system) is an ext4 file system made by
    mkfs.ext4 holding the Linux tests' report UKI as \\EFI\\ember\\uki.efi."""
    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the UKI: {e}")
    staging = work / "ext4-root"
    (staging / "EFI" / "ember").mkdir(parents=True)
    shutil.copy(uki, staging / "EFI" / "ember" / "uki.efi")
    part = work / "ext4.img"
    subprocess.run(["truncate", "-s", str(PART_SIZE), str(part)], check=True)
    # Block-mapped files: mkfs.ext4 -d writes the UKI's zero blocks as holes, and rEFInd
    # 0.13.2's ext4 driver fails reading an extent-mapped file with holes
    # (EFI_VOLUME_CORRUPTED from its Read); without extents (which 64bit needs) it reads
    # the same file. metadata_csum, flex_bg and the journal stay as mkfs.ext4 makes them.
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "EMBER", "-O", "^64bit,^extent", "-d",
                    str(staging), str(part)], check=True, capture_output=True)
    disk = work / "disk.img"
    subprocess.run(["truncate", "-s", str(PART_START + PART_SIZE + MIB), str(disk)], check=True)
    first, last = PART_START // 512, (PART_START + PART_SIZE) // 512 - 1
    subprocess.run(["sgdisk", "-n", f"1:{first}:{last}", "-t", "1:8300",
                    "-u", f"1:{PART_GUID}", str(disk)], check=True, capture_output=True)
    with open(disk, "r+b") as f:
        f.seek(PART_START)
        f.write(part.read_bytes())
    return disk


def code_with(work, name, *adds):
    """A copy of ember-code.fd with files added: (path, options...) each."""
    code = work / name
    shutil.copy(FW / "ember-code.fd", code)
    for path, *options in adds:
        ember_fw(code, "add", path, *options)
    return code


def pflash(machine, code, vars_file, **kwargs):
    """Ember's pflash pair with code as the code flash."""
    return machine(firmware="pflash", code_file=code, vars_file=vars_file, **kwargs)


def uefi_extract_reads(image, work):
    """Debian's UEFIExtract (uefitool-cli, scripts/deps) sees the volume, the driver and
    its sections, the PE32 image inside the compressed one."""
    if not shutil.which("UEFIExtract"):
        pytest.fail("UEFIExtract is missing: scripts/deps installs uefitool-cli")
    copy = work / "uefiextract.fd"
    shutil.copy(image, copy)
    subprocess.run(["UEFIExtract", str(copy), "report"], capture_output=True, cwd=work)
    text = (work / "uefiextract.fd.report.txt").read_text()
    assert "FFSv2" in text and VOLUME_NAME in text, text
    line = next(line for line in text.splitlines() if EXT4_GUID in line)
    assert "DXE driver" in line and "ext4_x64" in line, text
    assert "Compressed section" in text and "PE32 image section" in text, text
    assert "UI section" in text and "Version section" in text, text


def test_ember_fw_lists_adds_and_removes_in_both_images(work, drivers):
    for image in ("ember-code.fd", "ember.fd"):
        original = (FW / image).read_bytes()
        copy = work / f"edit-{image}"
        copy.write_bytes(original)
        assert "DRIVER" not in ember_fw(copy, "list").stdout
        added = ember_fw(copy, "add", drivers / "ext4_x64.efi", "--compress",
                         "--guid", EXT4_GUID)
        assert f"added {EXT4_GUID} DRIVER ext4_x64" in added.stdout
        listing = ember_fw(copy, "list").stdout
        assert f"volume {VOLUME_NAME}, 1048576 bytes" in listing
        assert f"{EXT4_GUID} DRIVER" in listing and "ext4_x64" in listing
        # Compressed: smaller than the driver itself.
        size = int(listing.split(f"{EXT4_GUID} DRIVER")[1].split()[0])
        assert size < (drivers / "ext4_x64.efi").stat().st_size
        # Only the volume changed, and removing the file restores the image exactly.
        changed = copy.read_bytes()
        start = len(changed) - (2 * MIB)
        assert changed[:start + MIB] != original[:start + MIB]
        assert changed[start + MIB:] == original[start + MIB:]
        assert ember_fw(copy, "add", drivers / "ext4_x64.efi", "--guid", EXT4_GUID,
                        check=False).returncode == 1
        if image == "ember-code.fd":
            uefi_extract_reads(copy, work)
        ember_fw(copy, "remove", "ext4_x64")
        assert copy.read_bytes() == original
        assert ember_fw(copy, "remove", "ext4_x64", check=False).returncode == 1


def test_ext4_driver_from_the_volume_boots_the_uki(machine, work, drivers, ext4_disk):
    """One Linux boot: Boot0001 names the UKI on the ext4 partition; only the driver in
    the volume can read it."""
    code = code_with(work, "ext4-code.fd",
                     (drivers / "ext4_x64.efi", "--compress", "--guid", EXT4_GUID))
    vars_file = vars_with_option(work / "vars-ext4.fd", load_option(
        "ext4 UKI", [hd_node(), file_node("\\EFI\\ember\\uki.efi")]))
    m = pflash(machine, code, vars_file, memory=512, timeout=BOOT_TIMEOUT,
               disks=[["-drive", f"file={ext4_disk},format=raw,if=virtio,snapshot=on"]])
    m.expect(r"^EMBER-DONE: report")
    r = report(m.text)
    # Linux on Ember from the option that names the UKI on ext4 (no ESP, so no option of
    # Ember's own: test_linux's checks of Boot0000 do not apply).
    assert r["STAGE"] == ["report"] and r["EFI"] == ["yes"] and r["EFIVARFS"] == ["mounted"]
    assert "efi: EFI v2.100 by Ember" in efi_dmesg(r)
    assert r["BOOTCURRENT"] == ["0001"]
    assert any(line.startswith("Boot0001* ext4 UKI") for line in r["EFIBOOTMGR"])
    log = m.debug_log
    assert f"fv: starting driver {EXT4_GUID} (ext4_x64) from the firmware volume" in log
    assert "skipping" not in log


def test_without_the_driver_the_option_fails(machine, work, ext4_disk):
    """The unmodified image (what `ember-fw remove` gives back) cannot read ext4."""
    vars_file = vars_with_option(work / "vars-plain.fd", load_option(
        "ext4 UKI", [hd_node(), file_node("\\EFI\\ember\\uki.efi")]))
    m = pflash(machine, FW / "ember-code.fd", vars_file, memory=512,
               disks=[["-drive", f"file={ext4_disk},format=raw,if=virtio,snapshot=on"]])
    m.expect(r"Shell> ")
    assert "EMBER-" not in m.text
    assert "starting driver" not in m.debug_log


def file_offset(image, guid):
    """Where a file's header lies in an image (its name GUID's bytes)."""
    at = image.find(uuid.UUID(guid).bytes_le)
    assert at > 0
    return at


def test_damaged_and_truncated_files_are_skipped(machine, work, drivers):
    """ext4's data changed by one byte (its data checksum no longer holds), then ext4's
    size run past the volume's end (its header checksum made right again): each is reported
    and never started; ext2, the good driver before or after it, is."""
    ext2 = (drivers / "ext2_x64.efi", "--guid", EXT2_GUID)
    damaged = code_with(work, "damaged.fd", (drivers / "ext4_x64.efi", "--guid", EXT4_GUID),
                        ext2)
    image = bytearray(damaged.read_bytes())
    at = file_offset(image, EXT4_GUID)
    image[at + 24 + 4 + 0x2000] ^= 0x10  # inside the PE32 section, past the PE headers
    damaged.write_bytes(bytes(image))
    assert "DAMAGED: the file's data checksum is wrong" in ember_fw(damaged, "list").stdout

    truncated = code_with(work, "truncated.fd", ext2,
                          (drivers / "ext4_x64.efi", "--guid", EXT4_GUID))
    image = bytearray(truncated.read_bytes())
    at = file_offset(image, EXT4_GUID)
    size = MIB - at + 8  # the volume is the image's first MiB
    image[at + 20:at + 23] = size.to_bytes(3, "little")
    image[at + 16] = 0
    header = image[at:at + 24]
    header[17] = header[23] = 0
    image[at + 16] = (0x100 - sum(header)) & 0xFF
    truncated.write_bytes(bytes(image))

    for code, why in ((damaged, f"skipping damaged file {EXT4_GUID}: the file's data "
                                "checksum is wrong"),
                      (truncated, "a file is truncated (it ends past the volume)")):
        vars_file = work / f"vars-{code.name}"
        shutil.copy(FW / "ember-vars.fd", vars_file)
        m = pflash(machine, code, vars_file)
        m.expect(r"Shell> ")
        log = m.debug_log
        assert why in log, log[-3000:]
        assert f"starting driver {EXT2_GUID} (ext2_x64)" in log
        assert f"starting driver {EXT4_GUID}" not in log


def test_application_boots_from_the_volume(machine, work):
    """Boot0001 = Fv(Ember's volume)/FvFile(the application's file)."""
    guid = "A0A0A0A0-1111-4222-8333-444444444444"
    code = code_with(work, "app.fd", (BUILD / "tests" / "programs" / "hello.efi", "--guid",
                                      guid, "--compress"))
    assert f"{guid} APPLICATION" in ember_fw(code, "list").stdout
    vars_file = vars_with_option(work / "vars-app.fd", load_option(
        "Hello from the volume", [guid_node(7, VOLUME_NAME), guid_node(6, guid)]))
    m = pflash(machine, code, vars_file)
    m.expect(r"Hello World!")


def stops_at_reset(machine, code, work, message):
    vars_file = work / f"vars-{code.name}"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    m = pflash(machine, code, vars_file)
    m.expect(message, timeout=30)
    assert message in m.debug_log
    assert "Ember" not in m.text.replace(message, ""), "something ran after the check"


def test_verified_start(machine, work):
    """One byte changed in the packed core, one in the volume's header: each stops at
    reset with its message on the serial port and the debug console; the unmodified image
    boots."""
    original = (FW / "ember-code.fd").read_bytes()
    at = original.rindex(b"EMBERCOR")
    flash, _, _, _, _, packed = struct.unpack_from("<6Q", original, at + 8)
    start = flash - ((1 << 32) - len(original))
    core = bytearray(original)
    core[start + packed // 3] ^= 0x01
    (work / "core-byte.fd").write_bytes(bytes(core))
    stops_at_reset(machine, work / "core-byte.fd", work,
                   "Ember: the firmware image is damaged: the packed core's checksum is wrong")
    header = bytearray(original)
    header[44] ^= 0x02  # the volume's Attributes
    (work / "fv-header-byte.fd").write_bytes(bytes(header))
    stops_at_reset(machine, work / "fv-header-byte.fd", work,
                   "Ember: the firmware image is damaged: the firmware volume's header is wrong")
    vars_file = work / "vars-good.fd"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    m = pflash(machine, FW / "ember-code.fd", vars_file)
    m.expect(r"Shell> ")


def test_volume_drivers_are_platform_code_under_secure_boot(machine, work, drivers):
    """With Secure Boot on (ember-vars.ms.fd: Microsoft's db), rEFInd's unsigned ext2
    driver in the volume still runs: it is part of the firmware, not judged against db."""
    code = code_with(work, "secure.fd", (drivers / "ext2_x64.efi", "--guid", EXT2_GUID))
    vars_file = work / "vars-ms.fd"
    shutil.copy(FW / "ember-vars.ms.fd", vars_file)
    m = pflash(machine, code, vars_file)
    m.expect(r"Shell> ")
    log = m.debug_log
    assert f"starting driver {EXT2_GUID} (ext2_x64)" in log, log[-3000:]
    assert "refused by Secure Boot" not in log


def test_driver_in_the_bios_image(machine, work, drivers):
    """ember.fd for -bios carries the same volume at the same address: a driver added to it
    runs there too."""
    bios = work / "bios.fd"
    shutil.copy(FW / "ember.fd", bios)
    ember_fw(bios, "add", drivers / "ext2_x64.efi", "--guid", EXT2_GUID, "--compress")
    m = machine(firmware="bios", code_file=bios)
    m.expect(r"Shell> ")
    assert f"starting driver {EXT2_GUID} (ext2_x64)" in m.debug_log
