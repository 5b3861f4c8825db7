"""NVMe (`-device nvme`, drivers/nvme) end to end, each test on Ember and on OVMF (the
oracle, which has an NVMe driver too):
- the article's two programs boot from a GPT disk on an NVMe namespace (q35, and hello on pc);
- FAT interop on NVMe: the shell (as \\EFI\\BOOT\\BOOTX64.EFI) runs startup.nsh, which
  shows the mappings (the namespace's device path, .../Pci(0x5,0x0)/NVMe(0x1,EUI-64)/HD(...)),
  reads a file from a second namespace of 4096-byte blocks (a FAT volume without
  partitions), runs `fat-test write` (apps/fat-test) and `fat-test dump`, and powers off;
  mtools must then read the same tree the firmware listed, and fsck.fat find it clean;
- Debian's kernel as a UKI boots from NVMe (one Linux boot per firmware).
The namespace has an EUI-64 (nvme-ns eui64=), so the NVMe() node shows it."""
import re
import subprocess
import zlib

import pytest

import linux_payloads as lp
from conftest import BUILD
from disk_images import MIB, gpt_esp_disk

FIRMWARES = ["bios", "ovmf"]
PROGRAMS = {"hello": r"Hello World!", "gop_mode": r"Mode \d+ is running at \d+x\d+"}
EUI64 = 0x0123456789ABCDEF
# The node keeps the EUI-64's bytes as Identify gives them (most significant first), and
# its text shows the node's last byte first.
NVME_PATH = r"PciRoot\(0x0\)/Pci\(0x5,0x0\)/NVMe\(0x1,EF-CD-AB-89-67-45-23-01\)/HD\(1,GPT,"
ENV = {"MTOOLS_SKIP_CHECK": "1", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"}
SHELL = BUILD / "apps" / "shell.efi"
FAT_TEST = BUILD / "apps" / "fat-test.efi"
ESP_START = MIB


def nvme_args(image, snapshot=False, second=None):
    """An NVMe controller at 00:05.0 with the image as namespace 1, and second (when given)
    as namespace 2 of 4096-byte blocks. cache=unsafe: the driver flushes after every
    write, which the test need not wait for on the host."""
    drive = f"if=none,id=nvm,file={image},format=raw,cache=unsafe"
    args = ["-drive", drive + (",snapshot=on" if snapshot else ""),
            "-device", "nvme,id=nvme0,serial=EMBERNVME,addr=0x5",
            "-device", f"nvme-ns,drive=nvm,bus=nvme0,nsid=1,eui64={EUI64}"]
    if second:
        args += ["-drive", f"if=none,id=nvm2,file={second},format=raw,cache=unsafe",
                 "-device", "nvme-ns,drive=nvm2,bus=nvme0,nsid=2,eui64=0x1122334455667788,"
                 "logical_block_size=4096,physical_block_size=4096"]
    return args


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("firmware", FIRMWARES)
def test_article_programs_boot_from_nvme(machine, tmp_path, firmware, program):
    image = BUILD / "tests" / "programs" / f"{program}.efi"
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": image})
    m = machine(firmware=firmware, timeout=120, extra=nvme_args(disk))
    m.expect(PROGRAMS[program])
    if firmware != "ovmf":  # the log may trail the console: wait for it
        m.expect_log(r"starting UEFI " + NVME_PATH)
        m.expect_log(r"BOOTX64.EFI exited: EFI_SUCCESS")


@pytest.mark.parametrize("firmware", FIRMWARES)
def test_hello_boots_from_nvme_on_pc(machine, tmp_path, firmware):
    """The i440FX machine places and sizes PCI memory otherwise than q35."""
    image = BUILD / "tests" / "programs" / "hello.efi"
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": image})
    m = machine(machine="pc", firmware=firmware, timeout=120, extra=nvme_args(disk))
    m.expect(PROGRAMS["hello"])


def tool(*args, **kwargs):
    return subprocess.run(list(map(str, args)), check=True, capture_output=True, env=ENV,
                          **kwargs)


def fat_lines(top):
    """What `fat-test dump` prints for the tree under top: "D path", "F path size crc32"."""
    lines = []
    for path in sorted(top.rglob("*")):
        rel = str(path.relative_to(top))
        if path.is_dir():
            lines.append(f"D {rel}")
        else:
            data = path.read_bytes()
            lines.append(f"F {rel} {len(data)} {zlib.crc32(data):08x}")
    return sorted(lines)


# startup.nsh runs in the volume the shell came from (the ESP), whatever its fsN: name;
# the 4K namespace is the other file system.
STARTUP = """@echo -off
map
type fs0:\\HELLO4K.TXT
type fs1:\\HELLO4K.TXT
fat-test.efi write
echo ==== dump
fat-test.efi dump
echo ==== end
reset -s
"""
FOUR_K_TEXT = "Hello from a namespace of 4096-byte blocks"



@pytest.mark.parametrize("firmware", FIRMWARES)
def test_fat_interop_on_nvme(machine, tmp_path, firmware):
    startup = tmp_path / "startup.nsh"
    startup.write_text(STARTUP)
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path,
                        {"EFI/BOOT/BOOTX64.EFI": SHELL, "fat-test.efi": FAT_TEST,
                         "startup.nsh": startup})
    # A second namespace of 4096-byte blocks holds a FAT volume without partitions.
    second = tmp_path / "ns2.img"
    tool("mkfs.vfat", "-S", "4096", "-C", second, 16384)
    (tmp_path / "hello4k.txt").write_text(FOUR_K_TEXT + "\n")
    tool("mcopy", "-i", second, tmp_path / "hello4k.txt", "::/HELLO4K.TXT")
    m = machine(firmware=firmware, timeout=600, extra=nvme_args(disk, second=second))
    m.expect(r"^==== end", timeout=600)
    assert m.wait_exit(60) == 0, "reset -s did not power off"
    out = m.text
    # The shell shows each namespace (the first's partition) by its device path, and reads
    # the 4K namespace's file.
    assert re.search(r"\bfs\d: " + NVME_PATH, out), out[:3000]
    assert re.search(r"\bfs\d: PciRoot\(0x0\)/Pci\(0x5,0x0\)/NVMe\(0x2,88-77-66-55-44-33-22-11\)$",
                     out, re.M), out[:3000]
    assert FOUR_K_TEXT in out, out[:3000]
    assert re.search(r"\bblk\d+: " + NVME_PATH[:-len(r"/HD\(1,GPT,")] + "$", out, re.M), out[:3000]
    summary = re.findall(r"fat-test: (\d+) passed, (\d+) failed", out)
    assert len(summary) == 2 and all(int(p) > 0 for p, _ in summary), out[-3000:]
    # `write` also checks the FAT driver's rules, where OVMF's differs from Ember's (a path
    # over 255 characters with "..", opening a read-only file for writing, the archive bit
    # of SetInfo): on OVMF only the dump must be clean. The disk is the oracle for both.
    checked = summary if firmware != "ovmf" else summary[1:]
    assert all(f == "0" for _, f in checked), out[-3000:]
    dumped = out.split("==== dump", 1)[1].split("==== end", 1)[0]
    got = sorted(l.strip() for l in dumped.splitlines() if l.startswith(("D ", "F ")))
    # What mtools reads from the disk QEMU wrote is what the firmware listed.
    volume = f"{disk}@@{ESP_START}"
    extracted = tmp_path / "extracted"
    extracted.mkdir()
    tool("mcopy", "-s", "-n", "-i", volume, "::/*", extracted)
    want = fat_lines(extracted)
    if firmware == "ovmf":  # OVMF's serial terminal shows characters past ASCII as "?"
        want = sorted(re.sub(r"[^\x00-\x7f]", "?", l) for l in want)
        got = sorted(got)
    assert got == want
    assert any(l.startswith("F FatTest/Big.bin 3145728 ") for l in got), got[:20]
    # fsck.fat on the volume: silent, exit 0.
    esp = tmp_path / "esp-after.img"
    with open(disk, "rb") as f:
        f.seek(ESP_START)
        esp.write_bytes(f.read(40 * MIB))
    result = subprocess.run(["fsck.fat", "-n", str(esp)], capture_output=True, text=True,
                            env=ENV)
    lines = [l for l in result.stdout.splitlines() if l.strip()]
    if firmware == "ovmf":
        # OVMF's SetInfo of the label writes the root directory's entry only, not the
        # boot sector's copy: the one complaint it may leave.
        label = ("Volume label", "  Auto-copying volume label", "Leaving filesystem unchanged")
        lines = [l for l in lines if not l.startswith(label)]
        assert result.returncode in (0, 1), result.stdout + result.stderr
    else:
        assert result.returncode == 0, result.stdout + result.stderr
    assert len(lines) <= 2, result.stdout + result.stderr


@pytest.fixture(scope="module")
def uki_disk(tmp_path_factory):
    work = tmp_path_factory.mktemp("nvme-linux")
    try:
        uki = lp.uki(f"{lp.CMDLINE} ember_stage=report")
    except lp.PayloadError as e:
        pytest.fail(f"cannot build the Linux payloads: {e}")
    return lp.esp_disk(work / "disk.img", work, {"EFI/BOOT/BOOTX64.EFI": uki})


@pytest.mark.parametrize("firmware", ["pflash", "ovmf"])
def test_linux_uki_boots_from_nvme(machine, uki_disk, firmware):
    m = machine(firmware=firmware, memory=512, timeout=240,
                extra=nvme_args(uki_disk, snapshot=True))
    m.expect(r"^EMBER-DONE: report")
    assert m.wait_exit(60) == 0, "poweroff -f did not end QEMU"
    assert "EMBER-STAGE: report" in m.text
    assert "EMBER-EFI: yes" in m.text
    if firmware != "ovmf":
        assert re.search(r"starting UEFI " + NVME_PATH, m.debug_log), m.debug_log[-2000:]
