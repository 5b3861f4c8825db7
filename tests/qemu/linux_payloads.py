"""Linux payloads for the QEMU tests and scripts/bench-linux, made from Debian's packages at
test time and never committed.

The packages are fetched with `apt-get download` into a cache in the build directory
(BUILD/linux-cache/debs) and unpacked with `dpkg-deb -x` (BUILD/linux-cache/root), once:
Debian's kernel (the image linux-image-amd64 depends on), busybox-static, efibootmgr and its
libraries, systemd-boot (systemd-boot-efi: the boot manager and linuxx64.efi.stub) and shim
(shim-unsigned). GRUB comes from the machine's grub-mkstandalone (scripts/deps installs
grub-efi-amd64-bin). From them:

- initramfs(): a gzip'd cpio (newc) with busybox, efibootmgr and its shared libraries, the
  kernel modules it needs (efivarfs, virtio-blk) and tests/qemu/linux/init.sh as /init;
- uki(cmdline): a unified kernel image (the stub with .osrel, .cmdline, .linux, .initrd);
- grub_standalone(cfg): GRUB as one EFI image with grub.cfg inside;
- esp_disk(path, files): a GPT disk whose EFI system partition holds the files.
Everything is made under BUILD/linux-cache and reused while its inputs are unchanged."""
import fcntl
import functools
import gzip
import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from disk_images import MIB, gpt_esp_disk

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("EMBER_BUILD", ROOT / "build"))
CACHE = BUILD / "linux-cache"
DEBS = CACHE / "debs"
UNPACKED = CACHE / "root"
INIT = Path(__file__).resolve().parent / "linux" / "init.sh"
RDTSC = Path(__file__).resolve().parent / "linux" / "rdtsc.c"

GUEST_PACKAGES = ["busybox-static", "efibootmgr", "libefivar1", "libefiboot1", "libpopt0",
                  "systemd-boot-efi", "shim-unsigned"]
# Loaded by /init in this order (dependencies first).
MODULES = ["fs/efivarfs/efivarfs.ko", "drivers/virtio/virtio_ring.ko",
           "drivers/virtio/virtio.ko", "drivers/virtio/virtio_pci_modern_dev.ko",
           "drivers/virtio/virtio_pci_legacy_dev.ko", "drivers/virtio/virtio_pci.ko",
           "drivers/block/virtio_blk.ko"]
SYSTEMD_BOOT = "usr/lib/systemd/boot/efi/systemd-bootx64.efi"
STUB = "usr/lib/systemd/boot/efi/linuxx64.efi.stub"
SHIM = "usr/lib/shim/shimx64.efi"
# The kernel command line every payload starts with: the serial console, kernel messages
# kept off it but for errors (the tests read them with dmesg; `quiet` would silence the EFI
# stub too), no wait after a panic, and no check of the timer interrupt at boot: under TCG
# on a busy host the kernel's few-tick test of the IO-APIC timer can miss and panic ("IO-APIC
# + timer doesn't work"), whatever the firmware did.
CMDLINE = "console=ttyS0 loglevel=3 panic=-1 no_timer_check"


class PayloadError(Exception):
    pass


def _run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode:
        raise PayloadError(f"{' '.join(map(str, cmd))} failed:\n{result.stderr}")
    return result.stdout


def _kernel_dependency(meta="linux-image-amd64"):
    result = subprocess.run(["apt-cache", "depends", "--no-recommends", "--no-suggests",
                             meta], capture_output=True, text=True)
    for line in result.stdout.splitlines():
        name = line.strip().removeprefix("Depends:").strip()
        if line.strip().startswith("Depends:") and name.startswith("linux-image-"):
            return name
    return None


@functools.cache
def kernel_package():
    """linux-image-6.1.0-N-amd64: the image package Debian's linux-image-amd64 names (the
    package lists are updated once when apt knows none)."""
    name = _kernel_dependency()
    if not name:
        _run(["apt-get", "update", "-qq"])
        name = _kernel_dependency()
    if not name:
        raise PayloadError("apt-cache names no kernel image for linux-image-amd64")
    return name


def _fetch(package, debs=DEBS):
    """The cached .deb of package (NAME or NAME:ARCH), downloaded into debs when missing."""
    found = sorted(debs.glob(f"{package.split(':')[0]}_*.deb"))
    if not found:
        _run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", package], cwd=debs)
        found = sorted(debs.glob(f"{package.split(':')[0]}_*.deb"))
    if not found:
        raise PayloadError(f"apt-get download {package} left no .deb")
    return found[-1]


class _Lock:
    """An exclusive lock on the cache (tests and the benchmark may run at once)."""

    def __enter__(self):
        CACHE.mkdir(parents=True, exist_ok=True)
        self.f = open(CACHE / ".lock", "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


@functools.cache
def unpacked():
    """The unpacked packages (BUILD/linux-cache/root), fetched and unpacked when needed."""
    with _Lock():
        DEBS.mkdir(parents=True, exist_ok=True)
        for package in [kernel_package()] + GUEST_PACKAGES:
            deb = _fetch(package)
            stamp = UNPACKED / ".unpacked" / deb.name
            if not stamp.exists():
                _run(["dpkg-deb", "-x", str(deb), str(UNPACKED)])
                stamp.parent.mkdir(parents=True, exist_ok=True)
                stamp.touch()
    return UNPACKED


def kernel():
    """Debian's kernel (a bzImage with the EFI stub)."""
    images = sorted((unpacked() / "boot").glob("vmlinuz-*"))
    if not images:
        raise PayloadError("the kernel package has no /boot/vmlinuz-*")
    return images[-1]


def _module_dir():
    return sorted((unpacked() / "lib" / "modules").iterdir())[-1] / "kernel"


def _shared_libraries(binary):
    """Host paths of the libraries binary needs, its interpreter included (ldd, with the
    unpacked packages' libraries first)."""
    root = unpacked()
    env = dict(os.environ, LD_LIBRARY_PATH=":".join(
        str(root / d) for d in ("lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu")))
    libs = []
    for line in _run(["ldd", str(binary)], env=env).splitlines():
        parts = line.split()
        if "=>" in parts and len(parts) > 2 and parts[2].startswith("/"):
            libs.append(Path(parts[2]))
        elif parts and parts[0].startswith("/"):
            libs.append(Path(parts[0]))
    return libs


def cpio_newc(entries):
    """A cpio archive in the "newc" format from (name, mode, bytes) entries; a symlink's
    bytes are its target."""
    out = bytearray()
    for ino, (name, mode, data) in enumerate(entries + [("TRAILER!!!", 0, b"")], 1):
        encoded = name.encode() + b"\0"
        fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(encoded), 0)
        out += b"070701" + "".join(f"{v:08X}" for v in fields).encode() + encoded
        out += b"\0" * (-len(out) % 4) + data
        out += b"\0" * (-len(out) % 4)
    return bytes(out)


def _initramfs_entries():
    root = unpacked()
    entries = [(d, 0o40755, b"") for d in ("bin", "usr", "usr/bin", "proc", "sys", "dev",
                                             "lib", "lib/modules", "lib/x86_64-linux-gnu",
                                             "lib64", "tmp")]
    entries.append(("init", 0o100755, INIT.read_bytes()))
    entries.append(("bin/busybox", 0o100755, (root / "bin/busybox").read_bytes()))
    entries.append(("bin/sh", 0o120777, b"busybox"))
    entries.append(("bin/rdtsc", 0o100755, rdtsc().read_bytes()))
    efibootmgr = root / "bin/efibootmgr"
    entries.append(("usr/bin/efibootmgr", 0o100755, efibootmgr.read_bytes()))
    for lib in _shared_libraries(efibootmgr):
        where = "lib64" if lib.name.startswith("ld-linux") else "lib/x86_64-linux-gnu"
        entries.append((f"{where}/{lib.name}", 0o100755, lib.resolve().read_bytes()))
    for module in MODULES:
        path = _module_dir() / module
        entries.append((f"lib/modules/{path.name}", 0o100644, path.read_bytes()))
    return entries


def _cached(name, key, make):
    """CACHE/name, made by make(path) unless a file made from the same key is there."""
    path = CACHE / name
    stamp = CACHE / f".{name}.key"
    digest = hashlib.sha256(key).hexdigest()
    if not (path.exists() and stamp.exists() and stamp.read_text() == digest):
        tmp = CACHE / f".{name}.tmp"
        make(tmp)
        tmp.replace(path)
        stamp.write_text(digest)
    return path


def rdtsc():
    """tests/qemu/linux/rdtsc.c as a static program (no libc)."""
    source = RDTSC.read_bytes()
    return _cached("rdtsc", source, lambda p: _run(
        ["gcc", "-static", "-nostdlib", "-O2", "-fno-stack-protector", "-o", str(p),
         str(RDTSC)]))


@functools.cache
def initramfs():
    """The test initramfs (gzip'd newc cpio)."""
    archive = cpio_newc(_initramfs_entries())
    return _cached("initrd.gz", archive,
                   lambda p: p.write_bytes(gzip.compress(archive, 6, mtime=0)))


def uki(cmdline, name="uki.efi"):
    """A unified kernel image: systemd's stub with the kernel, the initramfs, cmdline and an
    os-release, as sections placed after the stub's own."""
    stub = unpacked() / STUB
    linux, initrd = kernel(), initramfs()
    osrel = b'NAME="Ember test"\nID=ember-test\nPRETTY_NAME="Ember test Linux"\n'
    key = b"|".join([stub.read_bytes()[:4096], str(linux).encode(), initrd.read_bytes(),
                     cmdline.encode(), osrel])

    def make(path):
        (CACHE / "osrel").write_bytes(osrel)
        (CACHE / "cmdline").write_bytes(cmdline.encode() + b"\0")
        sections = [(".osrel", CACHE / "osrel"), (".cmdline", CACHE / "cmdline"),
                    (".linux", linux), (".initrd", initrd)]
        vma, cmd = 0x20000, ["objcopy"]
        for section, src in sections:
            cmd += ["--add-section", f"{section}={src}",
                    "--change-section-vma", f"{section}={vma:#x}"]
            vma += (src.stat().st_size + 0xFFFF) & ~0xFFFF
        _run(cmd + [str(stub), str(path)])
    return _cached(name, key, make)


def grub_standalone(cfg, name="grubx64.efi", extra_modules=""):
    """GRUB (grub-mkstandalone, x86_64-efi) with cfg as its embedded /boot/grub/grub.cfg,
    and extra_modules (names, space-separated) beside the usual ones."""
    if not shutil.which("grub-mkstandalone"):
        raise PayloadError("grub-mkstandalone is missing (scripts/deps: grub-efi-amd64-bin)")

    def make(path):
        (CACHE / "grub.cfg").write_text(cfg)
        modules = ("part_gpt part_msdos fat search search_fs_file linux normal echo test efi_gop "
                   "efi_uga video video_fb " + extra_modules).strip()
        _run(["grub-mkstandalone", "-O", "x86_64-efi", "-o", str(path),
              "--install-modules", modules, "--modules", "part_gpt fat efi_gop",
              "--locales=", "--fonts=", "--themes=",
              f"boot/grub/grub.cfg={CACHE / 'grub.cfg'}"])
    return _cached(name, (cfg + extra_modules).encode(), make)


def systemd_boot():
    return unpacked() / SYSTEMD_BOOT


def shim():
    return unpacked() / SHIM


def esp_disk(path, work, files, esp_size=48 * MIB):
    """A GPT disk with an EFI system partition holding files {"EFI/BOOT/X.EFI": host path or
    bytes}."""
    work = Path(work)
    Path(path).unlink(missing_ok=True)
    real = {}
    for i, (name, src) in enumerate(files.items()):
        if isinstance(src, (bytes, str)):
            data = src.encode() if isinstance(src, str) else src
            src = work / f"file{i}"
            src.write_bytes(data)
        real[name] = src
    return gpt_esp_disk(path, work, real, size=esp_size + 2 * MIB, esp_size=esp_size)


# ---- AArch64 (tests/qemu/test_aarch64_linux.py): Debian's arm64 kernel, busybox-static and
# systemd's arm64 stub, in a cache of their own (debs-arm64, root-arm64: the package names
# are the same as amd64's). apt needs `dpkg --add-architecture arm64` (scripts/deps). ----
ARM64_DEBS = CACHE / "debs-arm64"
ARM64_UNPACKED = CACHE / "root-arm64"
ARM64_PACKAGES = ["busybox-static:arm64", "systemd-boot-efi:arm64", "grub-efi-arm64-bin:arm64",
                  "shim-unsigned:arm64"]
ARM64_MODULES = ["fs/efivarfs/efivarfs.ko"]
# virtio and virtio_ring are built in; /init loads these in its order when they are there.
ARM64_VIRTIO_MODULES = ["drivers/virtio/virtio_pci_modern_dev.ko",
                        "drivers/virtio/virtio_pci_legacy_dev.ko", "drivers/virtio/virtio_pci.ko",
                        "drivers/block/virtio_blk.ko"]
ARM64_EFIBOOTMGR_PACKAGES = ["efibootmgr:arm64", "libefivar1:arm64", "libefiboot1:arm64",
                             "libpopt0:arm64", "libc6:arm64"]
ARM64_STUB = "usr/lib/systemd/boot/efi/linuxaa64.efi.stub"
ARM64_SYSTEMD_BOOT = "usr/lib/systemd/boot/efi/systemd-bootaa64.efi"
ARM64_SHIM = "usr/lib/shim/shimaa64.efi"
ARM64_GRUB_MODULES = "usr/lib/grub/arm64-efi"
# The PL011 is ttyAMA0 (with ACPI the SPCR names it too).
ARM64_CMDLINE = "console=ttyAMA0 loglevel=3 panic=-1"


@functools.cache
def arm64_unpacked():
    """The unpacked arm64 packages (BUILD/linux-cache/root-arm64)."""
    kernel = _kernel_dependency("linux-image-arm64:arm64")
    if not kernel:
        _run(["apt-get", "update", "-qq"])
        kernel = _kernel_dependency("linux-image-arm64:arm64")
    if not kernel:
        raise PayloadError("apt-cache names no arm64 kernel (dpkg --add-architecture arm64?)")
    with _Lock():
        ARM64_DEBS.mkdir(parents=True, exist_ok=True)
        for package in [kernel] + ARM64_PACKAGES:
            deb = _fetch(package if ":" in package else package + ":arm64", ARM64_DEBS)
            stamp = ARM64_UNPACKED / ".unpacked" / deb.name
            if not stamp.exists():
                _run(["dpkg-deb", "-x", str(deb), str(ARM64_UNPACKED)])
                stamp.parent.mkdir(parents=True, exist_ok=True)
                stamp.touch()
    return ARM64_UNPACKED


def arm64_kernel():
    """Debian's arm64 kernel: an uncompressed Image, which is a PE with the EFI stub."""
    images = sorted((arm64_unpacked() / "boot").glob("vmlinuz-*"))
    if not images:
        raise PayloadError("the arm64 kernel package has no /boot/vmlinuz-*")
    return images[-1]


@functools.cache
def arm64_initramfs(efibootmgr=False):
    """busybox, the efivarfs module and tests/qemu/linux/init.sh as /init; with efibootmgr,
    also efibootmgr with its libraries and the virtio-blk modules (/dev/vda), for
    tests/qemu/test_aarch64_boot_entries.py (the other tests keep the small one)."""
    root = arm64_unpacked()
    modules = sorted((root / "lib" / "modules").iterdir())[-1] / "kernel"
    entries = [(d, 0o40755, b"") for d in ("bin", "proc", "sys", "dev", "lib", "lib/modules",
                                             "tmp")]
    entries.append(("init", 0o100755, INIT.read_bytes()))
    entries.append(("bin/busybox", 0o100755, (root / "bin/busybox").read_bytes()))
    entries.append(("bin/sh", 0o120777, b"busybox"))
    for module in ARM64_MODULES + (ARM64_VIRTIO_MODULES if efibootmgr else []):
        path = modules / module
        entries.append((f"lib/modules/{path.name}", 0o100644, path.read_bytes()))
    if efibootmgr:
        entries += _arm64_efibootmgr_entries()
    archive = cpio_newc(entries)
    name = "initrd-arm64-efibootmgr.gz" if efibootmgr else "initrd-arm64.gz"
    return _cached(name, archive, lambda p: p.write_bytes(gzip.compress(archive, 6, mtime=0)))


def _arm64_needed(binary):
    """The DT_NEEDED names of an arm64 ELF file (readelf reads any machine's; ldd cannot
    run it here)."""
    return re.findall(r"\(NEEDED\).*\[(.+)\]", _run(["readelf", "-d", str(binary)]))


def _arm64_efibootmgr_entries():
    """efibootmgr for arm64 with the libraries it needs, found by walking DT_NEEDED through
    the unpacked packages (libc6 among them), and the dynamic loader."""
    root = arm64_unpacked()
    with _Lock():
        for package in ARM64_EFIBOOTMGR_PACKAGES:
            deb = _fetch(package, ARM64_DEBS)
            stamp = ARM64_UNPACKED / ".unpacked" / deb.name
            if not stamp.exists():
                _run(["dpkg-deb", "-x", str(deb), str(ARM64_UNPACKED)])
                stamp.touch()
    lib_dirs = [root / "lib/aarch64-linux-gnu", root / "usr/lib/aarch64-linux-gnu"]
    entries = [(d, 0o40755, b"") for d in ("usr", "usr/bin", "lib/aarch64-linux-gnu")]
    binary = root / "bin/efibootmgr"
    entries.append(("usr/bin/efibootmgr", 0o100755, binary.read_bytes()))
    todo, seen = _arm64_needed(binary) + ["ld-linux-aarch64.so.1"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        found = [d / name for d in lib_dirs if (d / name).exists()]
        if not found:
            raise PayloadError(f"{name} (needed by the arm64 efibootmgr) is in no package")
        entries.append((f"lib/aarch64-linux-gnu/{name}", 0o100755, found[0].read_bytes()))
        todo += _arm64_needed(found[0].resolve())
    # The loader is found at the path the binary names (PT_INTERP).
    entries.append(("lib/ld-linux-aarch64.so.1", 0o120777,
                    b"aarch64-linux-gnu/ld-linux-aarch64.so.1"))
    return entries


def pe_add_sections(image, sections):
    """image (PE32+ bytes) with sections [(name, bytes)] appended after its own, as
    initialized read-only data at the next section-aligned addresses (what objcopy does for
    x86's UKI; Debian's objcopy does not know arm64 PE files)."""
    out = bytearray(image)
    pe = int.from_bytes(out[0x3C:0x40], "little")
    count = int.from_bytes(out[pe + 6:pe + 8], "little")
    opt = pe + 24
    table = opt + int.from_bytes(out[pe + 20:pe + 22], "little")
    section_align = int.from_bytes(out[opt + 32:opt + 36], "little")
    file_align = int.from_bytes(out[opt + 36:opt + 40], "little")
    headers_size = int.from_bytes(out[opt + 60:opt + 64], "little")
    last = table + 40 * (count - 1)
    va = int.from_bytes(out[last + 12:last + 16], "little") + \
        int.from_bytes(out[last + 8:last + 12], "little")
    if table + 40 * (count + len(sections)) > headers_size:
        raise PayloadError("no room in the PE headers for more sections")
    for i, (name, data) in enumerate(sections):
        va = -(-va // section_align) * section_align
        out += b"\0" * (-len(out) % file_align)
        raw = len(out)
        out += data + b"\0" * (-len(data) % file_align)
        header = name.encode().ljust(8, b"\0") + b"".join(
            v.to_bytes(4, "little") for v in (len(data), va, -(-len(data) // file_align) *
                                              file_align, raw, 0, 0))
        header += (0).to_bytes(4, "little") + (0x40000040).to_bytes(4, "little")
        at = table + 40 * (count + i)
        out[at:at + 40] = header
        va += len(data)
    out[pe + 6:pe + 8] = (count + len(sections)).to_bytes(2, "little")
    out[opt + 56:opt + 60] = (-(-va // section_align) * section_align).to_bytes(4, "little")
    out[opt + 64:opt + 68] = b"\0" * 4  # no checksum
    return bytes(out)


def arm64_uki(cmdline, name="uki-arm64.efi", initrd=None):
    """A unified kernel image for arm64: systemd's arm64 stub with .osrel, .cmdline, the
    kernel as .linux and the initramfs (arm64_initramfs() unless given) as .initrd (the stub
    hands the initrd to the kernel's EFI stub through LoadFile2)."""
    stub, linux = arm64_unpacked() / ARM64_STUB, arm64_kernel()
    initrd = initrd or arm64_initramfs()
    osrel = b'NAME="Ember test"\nID=ember-test\nPRETTY_NAME="Ember test Linux"\n'
    key = b"|".join([stub.read_bytes()[:4096], str(linux).encode(), initrd.read_bytes(),
                     cmdline.encode(), osrel])
    sections = lambda: [(".osrel", osrel), (".cmdline", cmdline.encode() + b"\0"),
                        (".linux", linux.read_bytes()), (".initrd", initrd.read_bytes())]
    return _cached(name, key, lambda p: p.write_bytes(pe_add_sections(stub.read_bytes(),
                                                                      sections())))


def arm64_systemd_boot():
    return arm64_unpacked() / ARM64_SYSTEMD_BOOT


def arm64_shim():
    return arm64_unpacked() / ARM64_SHIM


def arm64_grub_standalone(cfg, name="grubaa64.efi"):
    """GRUB for arm64 as one EFI image with cfg inside: the machine's grub-mkstandalone
    over the modules of Debian's grub-efi-arm64-bin (arm64 package, unpacked)."""
    if not shutil.which("grub-mkstandalone"):
        raise PayloadError("grub-mkstandalone is missing (scripts/deps: grub-efi-amd64-bin)")
    modules_dir = arm64_unpacked() / ARM64_GRUB_MODULES

    def make(path):
        (CACHE / "grub-arm64.cfg").write_text(cfg)
        _run(["grub-mkstandalone", "-O", "arm64-efi", "-d", str(modules_dir), "-o", str(path),
              "--install-modules", "part_gpt part_msdos fat search search_fs_file linux normal "
              "echo test", "--modules", "part_gpt fat", "--locales=", "--fonts=", "--themes=",
              f"boot/grub/grub.cfg={CACHE / 'grub-arm64.cfg'}"])
    return _cached(name, cfg.encode(), make)
