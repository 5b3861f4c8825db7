"""Measured boot (issue 12, TCG PC Client Platform Firmware Profile): a boot application on a
GPT disk is booted with swtpm behind tpm-crb, on Ember and on OVMF (Debian's build measures
too). The application, apps/tcg2-test, replays the firmware's event log against every PCR of
every active bank it reads from the TPM, and must find them equal. Independently, the PCRs
are computed on the host from the TPM_PCR_Extend commands swtpm itself logs (level 20 prints
every command): the TPM's own view, not the firmware's.

Checks that hold on both firmwares: the replay of the log equals the PCRs; every PCR 0-7 got
the separator (SHA-256 of four zero bytes); PCR 4 got the boot application's Authenticode
SHA-256 as `pesign -h` computes it; booting the same disk twice gives the same PCRs 0-7 in
every bank; changing the boot application (the same disk with the file's bytes changed)
changes PCR 4 and no other PCR of 0-7. With Secure Boot on, PCR 7 holds the policy and the db
entry that verified the application."""
import hashlib
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import BUILD, FW, OVMF_CODE, OVMF_VARS
from disk_images import MIB, gpt_esp_disk
from test_tpm import Swtpm

# The boot application: tcg2-test (apps/tcg2-test) reads the event log through
# EFI_TCG2_PROTOCOL, replays it against every PCR of every active bank read from the TPM,
# prints a summary and powers the machine off, so the PCRs are final when QEMU ends.
APP = BUILD / "apps/tcg2-test.efi"
SUMMARY = re.compile(r"tcg2-test: (\d+) passed, (\d+) failed")
OVMF_SECBOOT = Path("/usr/share/OVMF/OVMF_CODE_4M.secboot.fd")
# Debian's OVMF ships a Secure Boot VARS whose PK, KEK and db hold a test ("snakeoil")
# certificate, with its key: images it signs boot on OVMF; Ember gets the same keys.
OVMF_SNAKEOIL_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd")
SNAKEOIL_KEY = Path("/usr/share/ovmf/PkKek-1-snakeoil.key")
SNAKEOIL_CERT = Path("/usr/share/ovmf/PkKek-1-snakeoil.pem")
EMBER_OWNER = "7e57a11e-5ec0-4b00-8a1e-0000000000f7"
GLOBAL_VARIABLE = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
IMAGE_SECURITY_DATABASE = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
TPM_CC_PCR_EXTEND = 0x182
DIGEST_SIZES = {0x0004: 20, 0x000B: 32, 0x000C: 48, 0x000D: 64}
HASHES = {0x0004: hashlib.sha1, 0x000B: hashlib.sha256, 0x000C: hashlib.sha384,
          0x000D: hashlib.sha512}
SHA256 = 0x000B
SEPARATOR_SHA256 = hashlib.sha256(b"\0\0\0\0").digest()
ESP_START = MIB

pytestmark = [
    pytest.mark.skipif(not shutil.which("swtpm"), reason="swtpm not installed (scripts/deps)"),
    pytest.mark.skipif(not shutil.which("pesign"), reason="pesign not installed (scripts/deps)"),
]


def extends(pairs):
    """(pcr, {alg: digest}) of each PCR_Extend the TPM accepted, in order."""
    out = []
    for cmd, rsp in pairs:
        if int.from_bytes(cmd[6:10], "big") != TPM_CC_PCR_EXTEND or \
                int.from_bytes(rsp[6:10], "big") != 0:
            continue
        pcr = int.from_bytes(cmd[10:14], "big")
        at = 18 + int.from_bytes(cmd[14:18], "big")
        count = int.from_bytes(cmd[at:at + 4], "big")
        at += 4
        digests = {}
        for _ in range(count):
            alg = int.from_bytes(cmd[at:at + 2], "big")
            size = DIGEST_SIZES[alg]
            digests[alg] = cmd[at + 2:at + 2 + size]
            at += 2 + size
        out.append((pcr, digests))
    return out


def replay(extended):
    """{(alg, pcr): value} of PCRs 0-7 after the extends (PCRs start at zero)."""
    pcrs = {}
    for pcr, digests in extended:
        for alg, digest in digests.items():
            old = pcrs.get((alg, pcr), bytes(DIGEST_SIZES[alg]))
            pcrs[(alg, pcr)] = HASHES[alg](old + digest).digest()
    return {k: v for k, v in pcrs.items() if k[1] < 8}


def authenticode_sha256(path):
    out = subprocess.run(["pesign", "-h", "-d", "sha256", "-i", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return bytes.fromhex(out.split("hash:")[1].split()[0])


def firmware_args(firmware, work):
    """QEMU's machine and flash arguments for "ember", "ovmf" or (Secure Boot, keys in
    their VARS: secure_boot_vars) "ember-sb" and "ovmf-sb"."""
    if firmware == "ember":
        return ["-machine", "q35,accel=tcg", "-bios", str(FW / "ember.fd")]
    if firmware == "ember-sb":
        return ["-machine", "q35,accel=tcg",
                "-drive", f"if=pflash,format=raw,readonly=on,file={FW / 'ember-code.fd'}",
                "-drive", f"if=pflash,format=raw,file={Path(work) / 'vars.fd'}"]
    if firmware == "ovmf-sb":
        return ["-machine", "q35,smm=on,accel=tcg",
                "-global", "driver=cfi.pflash01,property=secure,value=on",
                "-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_SECBOOT}",
                "-drive", f"if=pflash,format=raw,file={Path(work) / 'vars.fd'}"]
    vars_copy = Path(work) / "ovmf-vars.fd"
    shutil.copy(OVMF_VARS, vars_copy)
    return ["-machine", "q35,accel=tcg",
            "-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
            "-drive", f"if=pflash,format=raw,file={vars_copy}"]


def measured_boot(firmware, disk, work, device="tpm-crb", timeout=300, extra=()):
    """Boots disk (None: no disk) until the application powers off; the TPM's extends, and
    the console."""
    tpm = Swtpm()
    qemu = None
    try:
        qemu = subprocess.Popen(
            ["qemu-system-x86_64", "-m", "256", "-display", "none", "-serial", "stdio",
             "-monitor", "none", "-no-reboot"]
            + (["-drive", f"if=none,id=disk,format=raw,file={disk}",
                "-device", "virtio-blk-pci,drive=disk,bootindex=0"] if disk else [])
            + list(extra or ["-net", "none"]) + firmware_args(firmware, work)
            + tpm.qemu_args(device),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            console, _ = qemu.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            qemu.kill()
            console, _ = qemu.communicate()
        # swtpm logs a command once it answered it: give it a moment after QEMU ended.
        time.sleep(0.5)
        return extends(tpm.pairs()), console.decode(errors="replace")
    finally:
        if qemu and qemu.poll() is None:
            qemu.kill()
            qemu.wait()
        tpm.stop()


def expect_replayed(console):
    """tcg2-test ran and found the log's replay equal to the PCRs, in every bank."""
    found = SUMMARY.findall(console)
    assert found, console[-3000:]
    assert found[-1][1] == "0", console[-4000:]
    assert re.search(r"tcg2-test: replayed \d+ events", console), console[-3000:]


def firmware_blobs():
    """The two blobs Ember measures into PCR 0, as they are in its code flash: the reset
    stage (the last 8 KiB) and the packed core, found through the reset stage's core
    descriptor (platform/qemu-x86_64/reset/layout.h)."""
    code = (FW / "ember-code.fd").read_bytes()
    reset = code[-8192:]
    at = reset.find(b"EMBERCOR")
    assert at >= 0
    core_flash = int.from_bytes(reset[at + 8:at + 16], "little")
    packed_size = int.from_bytes(reset[at + 48:at + 56], "little")
    offset = core_flash - ((1 << 32) - len(code))
    return [reset, code[offset:offset + packed_size]]


def expect_firmware_digests(extended):
    """PCR 0's first two events are the digests of the flash's bytes in every bank (mkfd
    stores them at build time; they must be what hashing the flash gives)."""
    pcr0 = [d for p, d in extended if p == 0]
    for blob, digests in zip(firmware_blobs(), pcr0[:2]):
        assert set(digests) == set(HASHES)
        for alg, digest in digests.items():
            assert digest == HASHES[alg](blob).digest(), f"PCR 0: algorithm {alg:#x}"


def replace_app(disk, app):
    """Puts app as \\EFI\\BOOT\\BOOTX64.EFI in the disk's ESP, leaving its GPT as it was."""
    subprocess.run(["mcopy", "-o", "-i", f"{disk}@@{ESP_START}", str(app),
                    "::/EFI/BOOT/BOOTX64.EFI"], check=True)


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    """The boot application and a changed one (eight more bytes after its end, which its
    Authenticode digest covers)."""
    work = tmp_path_factory.mktemp("apps")
    changed = work / "changed.efi"
    changed.write_bytes(APP.read_bytes() + b"CHANGED!")
    assert authenticode_sha256(APP) != authenticode_sha256(changed)
    return APP, changed


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_measured_boot(firmware, apps, tmp_path):
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) not installed")
    app, changed = apps
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": app})

    first, console = measured_boot(firmware, disk, tmp_path)
    expect_replayed(console)
    if firmware == "ember":
        expect_firmware_digests(first)
    pcrs = replay(first)
    banks = {alg for alg, _ in pcrs}
    assert SHA256 in banks, banks
    for pcr in range(8):
        assert (pcr, SEPARATOR_SHA256) in [(p, d.get(SHA256)) for p, d in first], \
            f"no separator in PCR {pcr}"
    assert (4, authenticode_sha256(app)) in [(p, d.get(SHA256)) for p, d in first], \
        "the boot application's Authenticode digest is not in PCR 4"
    if firmware == "ember":
        # tcg2-test's ExitBootServices with a stale key: both actions in PCR 5 (PFP 10.4.4).
        # Debian's OVMF measures nothing for a refused ExitBootServices.
        pcr5 = [d[SHA256] for p, d in first if p == 5]
        invocation = hashlib.sha256(b"Exit Boot Services Invocation").digest()
        failure = hashlib.sha256(b"Exit Boot Services Returned with Failure").digest()
        assert invocation in pcr5 and pcr5[pcr5.index(invocation) + 1] == failure
    # Every event went into every bank the firmware uses.
    assert all(set(d) == banks for _, d in first)
    # No driver from outside the firmware: PCR 2 holds its separator alone.
    assert [d[SHA256] for p, d in first if p == 2] == [SEPARATOR_SHA256]

    again, _ = measured_boot(firmware, disk, tmp_path)
    assert replay(again) == pcrs, "the same disk booted twice gave other PCRs"

    replace_app(disk, changed)
    other, console = measured_boot(firmware, disk, tmp_path)
    expect_replayed(console)
    assert (4, authenticode_sha256(changed)) in [(p, d.get(SHA256)) for p, d in other]
    changed_pcrs = {pcr for (alg, pcr), value in replay(other).items() if pcrs[(alg, pcr)] != value}
    assert changed_pcrs == {4}


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_option_rom_driver_in_pcr2(firmware, tmp_path):
    """A virtio-net NIC whose ROM (QEMU's default, Debian's iPXE) holds an EFI driver: the
    firmware starts it, measured into PCR 2 before the separator; the log still replays."""
    if firmware == "ovmf" and not OVMF_CODE.exists():
        pytest.skip("OVMF (Debian package ovmf) not installed")
    if not Path("/usr/lib/ipxe/qemu/efi-virtio.rom").exists():
        pytest.skip("QEMU's iPXE ROMs (Debian package ipxe-qemu) not installed")
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": APP})
    extended, console = measured_boot(firmware, disk, tmp_path, extra=[
        "-netdev", "user,id=n0", "-device", "virtio-net-pci,netdev=n0"])
    expect_replayed(console)
    pcr2 = [d[SHA256] for p, d in extended if p == 2]
    assert SEPARATOR_SHA256 in pcr2
    assert pcr2.index(SEPARATOR_SHA256) >= 1, "no driver measured into PCR 2"


def test_ember_fw_cfg_app_is_a_boot_attempt(tmp_path):
    """Ember's own way to run a program (QEMU's fw_cfg opt/ember/app, no OVMF counterpart)
    is a boot attempt too: the separators of PCRs 0-7 precede the program's measurement."""
    extended, console = measured_boot("ember", None, tmp_path,
                                      extra=["-net", "none", "-fw_cfg",
                                             f"name=opt/ember/app,file={APP}"])
    expect_replayed(console)
    pcr4 = [d[SHA256] for p, d in extended if p == 4]
    separators = {p for p, d in extended if d[SHA256] == SEPARATOR_SHA256}
    assert separators == set(range(8))
    assert pcr4.index(SEPARATOR_SHA256) < pcr4.index(authenticode_sha256(APP))


def guid_bytes(text):
    import uuid
    return uuid.UUID(text).bytes_le


def variable_data(guid, name, data):
    """UEFI_VARIABLE_DATA (PFP 10.4.1): GUID, name length, data length, name, data."""
    name16 = name.encode("utf-16-le")
    return (guid + len(name).to_bytes(8, "little") + len(data).to_bytes(8, "little")
            + name16 + data)


def secure_boot_vars(firmware, work):
    """A VARS image with the snakeoil certificate as PK, KEK and db, and the EFI_SIGNATURE_DATA
    owners it has there (the 16 bytes before each copy of the certificate)."""
    vars_file = Path(work) / "vars.fd"
    if firmware == "ovmf-sb":
        shutil.copy(OVMF_SNAKEOIL_VARS, vars_file)
    else:
        shutil.copy(FW / "ember-vars.fd", vars_file)
        for var in ("PK", "KEK", "db"):
            subprocess.run([str(BUILD / "ember-varstore"), str(vars_file), "enroll", var,
                            "--owner", EMBER_OWNER, str(SNAKEOIL_CERT)], check=True,
                           capture_output=True)
    der = subprocess.run(["openssl", "x509", "-in", str(SNAKEOIL_CERT), "-outform", "der"],
                         check=True, capture_output=True).stdout
    content, owners, at = vars_file.read_bytes(), set(), 0
    while (at := content.find(der, at + 1)) > 0:
        owners.add(content[at - 16:at])
    return der, owners


EV_SEPARATOR = 0x4
EV_EFI_VARIABLE_DRIVER_CONFIG = 0x80000001
EV_EFI_VARIABLE_AUTHORITY = 0x800000E0


def log_events(log):
    """[(pcr, type, {alg: digest}, event bytes)] of a crypto-agile log (TCG PC Client PFP
    10.2): the Spec ID event in the SHA-1 format first, then TCG_PCR_EVENT2 records."""
    size = int.from_bytes(log[28:32], "little")
    at, events = 32 + size, []
    while at < len(log):
        pcr, kind, count = (int.from_bytes(log[at + i:at + i + 4], "little") for i in (0, 4, 8))
        at += 12
        digests = {}
        for _ in range(count):
            alg = int.from_bytes(log[at:at + 2], "little")
            digests[alg] = log[at + 2:at + 2 + DIGEST_SIZES[alg]]
            at += 2 + DIGEST_SIZES[alg]
        size = int.from_bytes(log[at:at + 4], "little")
        events.append((pcr, kind, digests, log[at + 4:at + 4 + size]))
        at += 4 + size
    return events


def variable_event(data):
    """(GUID bytes, name, variable data) of a UEFI_VARIABLE_DATA."""
    name_units = int.from_bytes(data[16:24], "little")
    data_size = int.from_bytes(data[24:32], "little")
    name = data[32:32 + 2 * name_units].decode("utf-16-le")
    return data[:16], name, data[32 + 2 * name_units:32 + 2 * name_units + data_size]


def eventlog_replay(log_file):
    """tpm2_eventlog's replayed SHA-256 PCRs 0-7 of the log file."""
    out = subprocess.run(["tpm2_eventlog", str(log_file)], check=True, capture_output=True,
                         text=True).stdout
    bank = re.search(r"^  sha256:\n((?:    \d+ *: 0x[0-9A-Fa-f]+\n)+)", out, re.M)
    assert bank, out[-3000:]
    return {int(p): bytes.fromhex(v) for p, v in re.findall(r"(\d+) *: 0x([0-9A-Fa-f]+)",
                                                             bank.group(1)) if int(p) < 8}


@pytest.mark.parametrize("firmware", ["ember-sb", "ovmf-sb"])
def test_secure_boot_policy_in_pcr7(firmware, tmp_path):
    """With Secure Boot on: PCR 7 holds the policy (SecureBoot = 1, then PK, KEK, db and dbx as
    EV_EFI_VARIABLE_DRIVER_CONFIG, each the digest of its UEFI_VARIABLE_DATA, db holding the
    certificate), its separator, and after it exactly one EV_EFI_VARIABLE_AUTHORITY: the db
    entry (owner and certificate) that verified the boot application, logged once though the
    application is verified twice (tcg2-test loads itself again). The log tcg2-test prints
    replays (tpm2_eventlog) to the PCRs the TPM's own extends give."""
    if firmware == "ovmf-sb" and not (OVMF_SECBOOT.exists() and OVMF_SNAKEOIL_VARS.exists()):
        pytest.skip("OVMF's Secure Boot build with test keys (Debian package ovmf) missing")
    if not SNAKEOIL_KEY.exists():
        pytest.skip("the snakeoil key of Debian's ovmf package is missing")
    if not shutil.which("tpm2_eventlog"):
        pytest.skip("tpm2_eventlog not installed (scripts/deps: tpm2-tools)")
    signed, key = tmp_path / "signed.efi", tmp_path / "snakeoil.key"
    # The key is stored encrypted; its passphrase is "snakeoil".
    subprocess.run(["openssl", "pkey", "-in", str(SNAKEOIL_KEY), "-passin", "pass:snakeoil",
                    "-out", str(key)], check=True, capture_output=True)
    subprocess.run(["sbsign", "--key", str(key), "--cert", str(SNAKEOIL_CERT),
                    "--output", str(signed), str(APP)], check=True, capture_output=True)
    der, owners = secure_boot_vars(firmware, tmp_path)
    assert owners, "the certificate is not in the VARS image"
    disk = gpt_esp_disk(tmp_path / "disk.img", tmp_path, {"EFI/BOOT/BOOTX64.EFI": signed})

    extended, console = measured_boot(firmware, disk, tmp_path)
    expect_replayed(console)
    assert "tcg2-test: loaded itself again" in console
    # The application's SHA-256 (on Ember the one Secure Boot computed) is its Authenticode's.
    assert (4, authenticode_sha256(signed)) in [(p, d.get(SHA256)) for p, d in extended]
    pcr7 = [d[SHA256] for p, d in extended if p == 7]
    secure_boot = variable_data(guid_bytes(GLOBAL_VARIABLE), "SecureBoot", b"\x01")
    assert pcr7 and pcr7[0] == hashlib.sha256(secure_boot).digest()
    assert SEPARATOR_SHA256 in pcr7
    authorities = {hashlib.sha256(variable_data(guid_bytes(IMAGE_SECURITY_DATABASE), "db",
                                                owner + der)).digest() for owner in owners}
    after = pcr7[pcr7.index(SEPARATOR_SHA256) + 1:]
    assert len([d for d in after if d in authorities]) == 1, [d.hex() for d in pcr7]

    log = bytes.fromhex("".join(re.findall(r"^tcg2-log: ([0-9a-f]+)\r?$", console, re.M)))
    assert log, "tcg2-test printed no log"
    (tmp_path / "log.bin").write_bytes(log)
    tpm_pcrs = {pcr: value for (alg, pcr), value in replay(extended).items() if alg == SHA256}
    assert eventlog_replay(tmp_path / "log.bin") == tpm_pcrs
    events = [e for e in log_events(log) if e[0] == 7]
    policy = [e for e in events if e[1] == EV_EFI_VARIABLE_DRIVER_CONFIG]
    names = [variable_event(data)[1] for _, _, _, data in policy]
    assert names[:5] == ["SecureBoot", "PK", "KEK", "db", "dbx"], names
    for _, _, digests, data in policy:
        assert digests[SHA256] == hashlib.sha256(data).digest()
        guid, name, value = variable_event(data)
        assert guid == guid_bytes(IMAGE_SECURITY_DATABASE if name in ("db", "dbx")
                                  else GLOBAL_VARIABLE), name
        if name in ("PK", "KEK", "db"):
            assert der in value, f"{name} does not hold the certificate"
    kinds = [kind for _, kind, _, _ in events]
    assert kinds.index(EV_SEPARATOR) > kinds.index(EV_EFI_VARIABLE_DRIVER_CONFIG)
    authority = [e for e in events if e[1] == EV_EFI_VARIABLE_AUTHORITY]
    assert len(authority) == 1, f"{len(authority)} authority events"
    _, _, digests, data = authority[0]
    assert digests[SHA256] == hashlib.sha256(data).digest()
    guid, name, value = variable_event(data)
    assert (guid, name) == (guid_bytes(IMAGE_SECURITY_DATABASE), "db")
    assert value[16:] == der and value[:16] in owners
    assert kinds.index(EV_SEPARATOR) < kinds.index(EV_EFI_VARIABLE_AUTHORITY)


EV_EFI_VARIABLE_BOOT = 0x80000002
EV_EFI_HANDOFF_TABLES2 = 0x8000000B
EV_PLATFORM_CONFIG_FLAGS = 0x0000000A
# QEMU's etc/tpm/log: the TPM log area its ACPI tables point at, 64 KiB of zeros as handed.
QEMU_TPM_LOG_SHA256 = hashlib.sha256(bytes(64 * 1024)).digest()


def shell_boot(firmware, work, extra=()):
    """Boots the EDK2 Shell, whose startup.nsh runs `tcg2-test print-log`, on Machine's
    firmware ("bios": Ember, "ovmf") with swtpm on tpm-crb; the TPM's extends and the log."""
    from conftest import Machine
    from test_tcg2 import printed_log, shell_disk
    tpm = Swtpm()
    try:
        with Machine(firmware=firmware, timeout=400, extra=tpm.qemu_args("tpm-crb") + list(extra),
                     disks=[shell_disk(work, "tcg2-test.efi print-log")]) as m:
            m.expect(SUMMARY.pattern)
            m.wait_exit(120)
            text = m.text
        time.sleep(0.5)
        expect_replayed(text)
        return extends(tpm.pairs()), log_events(printed_log(text))
    finally:
        tpm.stop()


def shell_firmware(firmware):
    import test_tcg2  # puts tests/, where edk2_shell.py is, on the path
    edk2_shell = test_tcg2.edk2_shell
    if edk2_shell.missing():
        pytest.skip(edk2_shell.missing())
    return {"ember": "bios", "ovmf": "ovmf"}[firmware]


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_pcr1_boot_variables(firmware, tmp_path):
    """PCR 1 (PFP 3.3.4.2) holds BootOrder, then each Boot#### it names in its order, as
    EV_EFI_VARIABLE_BOOT whose digest is that of the variable's data, all before PCR 1's
    separator; the log replays to the PCRs."""
    _, events = shell_boot(shell_firmware(firmware), tmp_path)
    pcr1 = [e for e in events if e[0] == 1]
    kinds = [kind for _, kind, _, _ in pcr1]
    assert EV_SEPARATOR in kinds and kinds.index(EV_SEPARATOR) == len(kinds) - 1, kinds
    boot = [variable_event(data) + (digests,) for _, kind, digests, data in pcr1
            if kind == EV_EFI_VARIABLE_BOOT]
    assert boot and boot[0][1] == "BootOrder", [b[1] for b in boot]
    order = boot[0][2]
    names = [f"Boot{int.from_bytes(order[i:i + 2], 'little'):04X}"
             for i in range(0, len(order), 2)]
    assert [b[1] for b in boot[1:]] == names
    for guid, name, value, digests in boot:
        assert guid == guid_bytes(GLOBAL_VARIABLE), name
        assert digests[SHA256] == hashlib.sha256(value).digest(), name


# Ember measures QEMU's ACPI tables when the machine asks (docs/design.md says why not always).
MEASURE_ACPI = ["-fw_cfg", "name=opt/ember/measure-acpi,string=1"]


def acpi_events(events):
    return [digests[SHA256] for pcr, kind, digests, data in events
            if pcr == 1 and kind == EV_PLATFORM_CONFIG_FLAGS and data == b"ACPI DATA"]


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_pcr1_acpi_tables(firmware, tmp_path):
    """QEMU's ACPI tables are platform configuration: PCR 1 holds each fw_cfg file of them as
    QEMU handed it (the loader script, then each blob, EV_PLATFORM_CONFIG_FLAGS "ACPI DATA",
    the form of OVMF's fw_cfg ACPI loader), among them etc/tpm/log's 64 KiB of zeros. One
    more table (-acpitable) changes PCR 1 and no other PCR of 0-7. On Ember when the machine
    asks (fw_cfg opt/ember/measure-acpi); on OVMF when its build measures them."""
    fw = shell_firmware(firmware)
    switch = MEASURE_ACPI if firmware == "ember" else []
    first, events = shell_boot(fw, tmp_path / "a", extra=switch)
    acpi = acpi_events(events)
    if firmware == "ovmf" and not acpi:
        pytest.skip("this OVMF build (Debian 12's edk2 2022.11) measures no ACPI tables; "
                    "OVMF's later fw_cfg ACPI loader does, in the form checked here")
    assert len(acpi) >= 3, [(p, hex(k)) for p, k, _, _ in events]
    assert QEMU_TPM_LOG_SHA256 in acpi
    table = tmp_path / "table.bin"
    table.write_bytes(b"Ember's measured boot test table")
    second, events2 = shell_boot(fw, tmp_path / "b", extra=switch + [
        "-acpitable", f"sig=ETST,oem_id=EMBER,oem_table_id=PCR1TEST,data={table}"])
    acpi2 = acpi_events(events2)
    assert len(acpi2) == len(acpi) and acpi2 != acpi
    before, after = replay(first), replay(second)
    changed = {pcr for (alg, pcr), value in after.items() if before[(alg, pcr)] != value}
    assert changed == {1}


def test_pcr1_no_acpi_tables_by_default(tmp_path):
    """Without the switch Ember measures no ACPI tables (as Debian's OVMF): PCR 1 holds the
    SMBIOS structures and the boot variables only."""
    _, events = shell_boot(shell_firmware("ember"), tmp_path)
    assert not acpi_events(events)
    kinds = {kind for pcr, kind, _, _ in events if pcr == 1}
    assert kinds == {EV_EFI_HANDOFF_TABLES2, EV_EFI_VARIABLE_BOOT, EV_SEPARATOR}, kinds


EV_EFI_HANDOFF_TABLES = 0x80000009


@pytest.mark.parametrize("firmware", ["ember", "ovmf"])
def test_pcr1_smbios_without_serials(firmware, tmp_path):
    """PCR 1's SMBIOS event leaves out what is unique to one machine (PFP 3.3.4.2: serial
    numbers, asset tags; the UUID): two machines that differ only in those give the same
    PCR 1, and a machine with another product name gives another."""
    fw = shell_firmware(firmware)

    def boot(name, *smbios):
        extends_, events = shell_boot(fw, tmp_path / name, extra=list(smbios))
        tables = [e for e in events if e[0] == 1 and e[1] in (EV_EFI_HANDOFF_TABLES,
                                                              EV_EFI_HANDOFF_TABLES2)]
        pcr1 = {alg: v for (alg, pcr), v in replay(extends_).items() if pcr == 1}
        return tables, pcr1

    tables, first = boot("a", "-uuid", "11111111-2222-3333-4444-555555555555",
                         "-smbios", "type=1,serial=SERIAL-A-0001",
                         "-smbios", "type=3,serial=CHASSIS-A,asset=ASSET-A")
    if firmware == "ovmf" and not tables:
        pytest.skip("this OVMF build (Debian 12's edk2 2022.11) measures no SMBIOS tables")
    assert len(tables) == 1, tables
    _, second = boot("b", "-uuid", "99999999-8888-7777-6666-555555555555",
                     "-smbios", "type=1,serial=SERIAL-B-0002",
                     "-smbios", "type=3,serial=CHASSIS-B,asset=ASSET-B")
    assert second == first, "serial numbers, asset tags or the UUID reached PCR 1"
    _, third = boot("c", "-smbios", "type=1,product=Another Machine")
    assert all(third[alg] != first[alg] for alg in first), "the SMBIOS tables are not in PCR 1"
