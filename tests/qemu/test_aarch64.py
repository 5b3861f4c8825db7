"""Ember on QEMU's AArch64 virt machine (platform/qemu-aarch64, issue 17): the article's two
programs built for AArch64 (hello through ConOut on the PL011, gop_mode on ramfb); a key
typed on the PL011 reaches ConIn; a timer event fires (the generic timer's tick through the
GIC), GetTime reads the PL031 and ResetSystem powers off through PSCI; an exception is
reported on the serial port and ends the program only; variables on the pflash bank survive
resets and new QEMUs (var_reset, var-test); the conformance app and the shell's script suite
pass. Programs are handed in through fw_cfg as opt/ember/app (disks as opt/ember/disk), as on
x86-64. AAVMF (Debian's qemu-efi-aarch64) runs the same programs from disks, when it is
installed, as the oracle."""
import re
import shutil
import tempfile
import subprocess
import threading
from pathlib import Path

import pytest

from conftest import BUILD, Machine
from disk_images import MIB, gpt_esp_disk
from test_shell import SCRIPTS, suite_disk

QEMU = "qemu-system-aarch64"
A64 = BUILD / "qemu-aarch64"
A64_TEST_PROGRAMS = A64 / "programs"  # tests/programs over tests/aarch64/gnu-efi
AAVMF_CODE = Path("/usr/share/AAVMF/AAVMF_CODE.fd")
AAVMF_VARS = Path("/usr/share/AAVMF/AAVMF_VARS.fd")

pytestmark = pytest.mark.skipif(shutil.which(QEMU) is None,
                                reason=f"{QEMU} is missing (Debian package qemu-system-arm)")


class Arm64Machine(Machine):
    """Machine's serial console helpers (expect, text, wait_exit) over qemu-system-aarch64
    -machine virt with a pflash pair: Ember's (firmware="ember") or AAVMF's ("aavmf")."""

    def __init__(self, app, firmware="ember", cpu="cortex-a57", timeout=120, extra=(),
                 machine="virt", no_reboot=True, vars_file=None, args=None, disk=None):
        self.work = Path(tempfile.mkdtemp(prefix="ember-a64-"))
        self.timeout = timeout
        code, vars_template = ((A64 / "ember-code.fd", A64 / "ember-vars.fd")
                               if firmware == "ember" else (AAVMF_CODE, AAVMF_VARS))
        self.vars = vars_file or self.work / "vars.fd"
        if not vars_file:
            shutil.copy(vars_template, self.vars)
        cmd = [QEMU, "-machine", f"{machine},accel=tcg", "-cpu", cpu, "-m", "1G",
               "-display", "none", "-net", "none", "-serial", "stdio", "-monitor", "none",
               "-drive", f"if=pflash,format=raw,readonly=on,file={code}",
               "-drive", f"if=pflash,format=raw,file={self.vars}"]
        if no_reboot:  # a reset ends QEMU (a test of power-off must not have it)
            cmd.append("-no-reboot")
        if firmware == "ember":
            cmd += ["-fw_cfg", f"name=opt/ember/app,file={app}"] if app else []
            cmd += ["-fw_cfg", f"name=opt/ember/args,string={args}"] if args else []
            # A disk becomes a RAM disk (platform/qemu-aarch64/ram_disk.c); tests that want
            # a PCIe disk give it in extra.
            cmd += ["-fw_cfg", f"name=opt/ember/disk,file={disk}"] if disk else []
        elif disk or app:  # AAVMF boots the removable-media file of a FAT disk
            cmd += ["-drive", f"if=virtio,format=raw,file={disk or self._disk(app)}"]
        self.cmd = cmd + list(extra)
        self.output = b""
        self.lock = threading.Condition()
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _disk(self, app):
        disk = self.work / "boot.img"
        with open(disk, "wb") as f:
            f.truncate(32 * 1024 * 1024)
        for cmd in (["mformat", "-i", disk, "-T", "65536", "::"],
                    ["mmd", "-i", disk, "::/EFI", "::/EFI/BOOT"],
                    ["mcopy", "-i", disk, app, "::/EFI/BOOT/BOOTAA64.EFI"]):
            subprocess.run([str(c) for c in cmd], check=True, stdout=subprocess.DEVNULL,
                           env={"MTOOLS_SKIP_CHECK": "1", "PATH": "/usr/bin:/bin"})
        return disk


def program(name):
    """tests/aarch64/NAME.c, or tests/programs/NAME.c (gnu-efi) built for AArch64."""
    path = A64 / f"{name}.efi"
    if not path.exists():
        path = A64_TEST_PROGRAMS / f"{name}.efi"
    assert path.exists(), f"{path} is missing: run make {A64}/{name}.efi"
    return path


def test_pe_machine_is_arm64():
    data = program("hello").read_bytes()
    pe = int.from_bytes(data[0x3c:0x40], "little")
    assert data[pe:pe + 4] == b"PE\0\0"
    assert int.from_bytes(data[pe + 4:pe + 6], "little") == 0xaa64


def test_code_flash_is_64_mib():
    assert (A64 / "ember-code.fd").stat().st_size == 64 << 20
    assert (A64 / "ember-vars.fd").stat().st_size == 64 << 20


@pytest.mark.parametrize("cpu", ["cortex-a57", "max"])
def test_hello(cpu):
    with Arm64Machine(program("hello"), cpu=cpu) as m:
        m.expect(r"Hello World!")
        m.expect(r"opt/ember/app returned EFI_SUCCESS")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_gop_mode_on_ramfb(firmware):
    """The article's second program, as written: the running mode of the Graphics Output
    Protocol, on QEMU's ramfb (virt has no other display without PCIe)."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    with Arm64Machine(program("gop_mode"), firmware=firmware, extra=["-device", "ramfb"],
                      timeout=120 if firmware == "ember" else 300) as m:
        width, height = m.expect(r"Mode \d+ is running at (\d+)x(\d+)\n").groups()
        if firmware == "ember":  # mode 0 is 1024x768, as on x86-64
            assert (width, height) == ("1024", "768")


# The tick is the virtual timer's interrupt through the GICv2 or the GICv3 (gic.c): a timer
# notification runs while the program spins without calling the firmware.
# virtualization=on: reset at EL2 (entry.S drops to EL1, opening the GICv3's system
# registers to it), PSCI through smc (the tree says).
@pytest.mark.parametrize("machine", ["virt,gic-version=2", "virt,gic-version=3",
                                     "virt,virtualization=on",
                                     "virt,virtualization=on,gic-version=3"])
def test_timer_time_and_shutdown(machine):
    # Without -no-reboot: a reset instead of the power-off would start the program again.
    with Arm64Machine(program("timer_reset"), machine=machine, no_reboot=False,
                      timeout=60) as m:
        m.expect(r"timer: fired")
        m.expect(r"tick: interrupt")
        year = int(m.expect(r"time: year (\d+)\n").group(1))
        assert year >= 2024, m.text
        m.expect(r"reset: shutdown")
        m.expect(r"reset: notified of the shutdown")  # EFI_RESET_NOTIFICATION_PROTOCOL
        assert m.wait_exit() == 0  # PSCI SYSTEM_OFF ended QEMU
        assert m.text.count("timer: fired") == 1 and "reset: returned" not in m.text


def var_reset_run(firmware, vars_file=None):
    """var_reset sets a counter and resets twice, then finds 2 and powers off: a variable
    that did not survive a reset makes it start again at 0 (until the timeout)."""
    with Arm64Machine(program("var_reset"), firmware=firmware, no_reboot=False,
                      timeout=120 if firmware == "ember" else 400, vars_file=vars_file) as m:
        m.expect(r"variable: survived the resets")
        assert m.wait_exit() == 0
        assert [int(n) for n in re.findall(r"boot (\d)", m.text)] == [0, 1, 2], m.text


def test_variable_survives_a_reset():
    vars_file = Path(tempfile.mkdtemp(prefix="ember-a64-")) / "vars.fd"
    shutil.copy(A64 / "ember-vars.fd", vars_file)
    var_reset_run("ember", vars_file)
    # The store is at the start of the bank: a formatted area where the template was erased.
    assert vars_file.read_bytes()[:4] != b"\xff" * 4
    # It was deleted before the power-off: a new QEMU (a cold start) counts from 0 again.
    var_reset_run("ember", vars_file)


def test_var_test_rules_and_persistence(tmp_path):
    """apps/var-test built for AArch64, as tests/integration/test_variables.py runs it under
    ember-run: the variable rules (then the runtime checks after ExitBootServices, reported
    through ResetSystem's data), and what "write" stores "read" finds in the next QEMU."""
    vars_file = tmp_path / "vars.fd"
    shutil.copy(A64 / "ember-vars.fd", vars_file)
    app = A64 / "apps" / "var-test.efi"
    with Arm64Machine(app, args="var-test.efi rules", vars_file=vars_file, timeout=300) as m:
        summary = m.expect(r"^var-test: (\d+) passed, (\d+) failed")
        assert summary.group(2) == "0" and int(summary.group(1)) >= 150, m.text[-3000:]
        m.expect(r"shutdown: EFI_SUCCESS: var-test: \d+ passed, 0 failed")
    for mode in ("write", "read"):
        with Arm64Machine(app, args=f"var-test.efi {mode}", vars_file=vars_file) as m:
            m.expect(r"opt/ember/app returned (EFI_\w+)\n")
            assert "opt/ember/app returned EFI_SUCCESS" in m.text, m.text[-3000:]
            assert re.search(r"^var-test: \d+ passed, 0 failed", m.text, re.M), m.text


def test_key_from_the_serial_line():
    with Arm64Machine(program("read_key"), timeout=60) as m:
        m.expect(r"press a key")
        m.send("q")
        m.expect(r"key: q\n")


def test_exception_report():
    with Arm64Machine(program("bad_instruction")) as m:
        m.expect(r"about to fault")
        m.expect(r"synchronous exception from EL1: unknown reason")
        m.expect(r"in app\.efi\+0x[0-9a-f]+\n")
        pc = int(m.expect(r"PC  ([0-9a-f]{16})").group(1), 16)
        m.expect(r"X30 [0-9a-f]{16}")
        assert pc >= 0x40000000  # in RAM, where the program was loaded
        # The program is ended, the firmware goes on.
        m.expect(r"app\.efi ends as if it had called Exit\(EFI_ABORTED\); the boot goes on")
        m.expect(r"opt/ember/app returned EFI_ABORTED")


@pytest.mark.skipif(not AAVMF_CODE.exists(), reason="AAVMF (qemu-efi-aarch64) is not installed")
def test_hello_on_aavmf():
    """The oracle: the same programs print the same lines on AAVMF."""
    with Arm64Machine(program("hello"), firmware="aavmf", timeout=300) as m:
        m.expect(r"Hello World!")
    with Arm64Machine(program("timer_reset"), firmware="aavmf", timeout=300,
                      no_reboot=False) as m:
        m.expect(r"timer: fired")
        m.expect(r"tick: interrupt")
        assert int(m.expect(r"time: year (\d+)\n").group(1)) >= 2024
        m.expect(r"reset: shutdown")
        m.expect(r"reset: notified of the shutdown")
        assert m.wait_exit() == 0
    var_reset_run("aavmf")


@pytest.mark.parametrize("firmware", ["ember", "aavmf"])
def test_shell_script_suite(firmware, tmp_path):
    """The shell's script suite (tests/integration/shell_scripts, as test_shell.py runs it
    on x86-64) gives the expected output on AArch64: the shell built for AArch64, the suite
    on a FAT disk; Ember gets the disk as a RAM disk and the shell with -nodelay through
    fw_cfg, AAVMF boots the shell as the disk's removable-media file, which runs startup.nsh
    after its countdown (as test_shell_ovmf.py on OVMF)."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    shell = A64 / "apps" / "shell.efi"
    disk = suite_disk(tmp_path / "suite.img", tmp_path, programs=A64_TEST_PROGRAMS)
    if firmware == "aavmf":
        for cmd in (["mmd", "-i", disk, "::/EFI", "::/EFI/BOOT"],
                    ["mcopy", "-i", disk, shell, "::/EFI/BOOT/BOOTAA64.EFI"]):
            subprocess.run([str(c) for c in cmd], check=True)
    with Arm64Machine(shell if firmware == "ember" else None, firmware=firmware,
                      args="shell.efi -nodelay -noversion", disk=disk, timeout=300) as m:
        m.expect(r"^==== end$")
        assert m.wait_exit() == 0
        text = m.text
    parts = re.split(r"^==== (.*)$", text, flags=re.M)
    got = {parts[i].split("\\")[-1]: parts[i + 1].lstrip("\n") for i in range(1, len(parts), 2)}
    for expected in sorted((SCRIPTS / "expected").glob("*.out")):
        name = expected.name.replace(".out", ".nsh")
        assert name in got, f"{name} did not run:\n{text[-3000:]}"
        assert got[name] == expected.read_text(), name


@pytest.mark.parametrize("firmware,cpu", [("ember", "cortex-a57"), ("ember", "max"),
                                          ("aavmf", "cortex-a57")])
def test_conformance(firmware, cpu, tmp_path):
    """The conformance app built for AArch64, booted by the boot manager as removable media
    from a GPT disk (a RAM disk on Ember, virtio on AAVMF), as test_conformance.py does on
    x86-64; the checks after ExitBootServices report through ResetSystem's data, which
    Ember logs on the serial line."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    disk = gpt_esp_disk(tmp_path / "esp-disk.img", tmp_path,
                        {"EFI/BOOT/BOOTAA64.EFI": A64 / "apps" / "conformance.efi"},
                        size=8 * MIB, esp_size=6 * MIB)
    with Arm64Machine(None, firmware=firmware, cpu=cpu, disk=disk, timeout=600) as m:
        summary = m.expect(r"conformance: (\d+) passed, (\d+) failed")
        failures = [line for line in m.text.splitlines() if line.startswith("FAIL")]
        assert summary.group(2) == "0", "\n".join(failures[:40])
        assert int(summary.group(1)) > 1000
        assert "SKIP 65_image_file" not in m.text  # the file-system checks ran
        assert m.wait_exit() == 0
        if firmware == "ember":
            after = re.findall(r"shutdown: (EFI_\w+): conformance: (\d+) passed, (\d+) failed",
                               m.text)
            assert after and after[-1][0] == "EFI_SUCCESS" and after[-1][2] == "0", m.text[-2000:]


@pytest.mark.parametrize("firmware,machine", [("ember", "virt"), ("ember", "virt,acpi=off"),
                                              ("aavmf", "virt"), ("aavmf", "virt,acpi=off")])
def test_os_handoff_tables(firmware, machine):
    """What an OS finds (tests/aarch64/os_handoff.c): QEMU's ACPI tables (from its table
    loader) as the ACPI 2.0 table, or with acpi=off the device tree as the DTB table, never
    both; the memory attributes table; runtime ranges 64 KiB aligned and sized, the variables'
    flash among the runtime MMIO."""
    if firmware == "aavmf" and not AAVMF_CODE.exists():
        pytest.skip("AAVMF (qemu-efi-aarch64) is not installed")
    with Arm64Machine(program("os_handoff"), firmware=firmware, machine=machine,
                      timeout=60 if firmware == "ember" else 300) as m:
        m.expect(r"handoff: done")
        text = m.text
    if "acpi=off" in machine:
        assert "acpi: none" in text, text
        # QEMU's tree, in ACPI reclaim memory (9) on Ember (AAVMF keeps it in boot data)
        dtb = re.search(r"dtb: magic d00dfeed type ([0-9a-f]+)", text)
        assert dtb, text
        if firmware == "ember":
            assert dtb.group(1) == "9"
    else:
        acpi = re.search(r"acpi: rev 2 xsdt XSDT entries ([0-9a-f]+) sums ok", text)
        assert acpi and int(acpi.group(1), 16) >= 4, text
        assert "dtb: none" in text, text
    runtime = re.search(r"runtime: mmio([ 0-9a-f]*); ranges ([0-9a-f]+), not 64 KiB (\d+)",
                        text)
    assert runtime and runtime.group(3) == "0", text
    assert "4000000" in runtime.group(1).split(), text  # the variables' pflash bank
    assert int(re.search(r"mat: entries ([0-9a-f]+)", text).group(1), 16) > 0, text
