"""Ember under Debian's libvirt (libvirt-daemon 9.0), the way README.md tells a new user:
`make install`, then the README's domain XML, defined and started with virsh.

The XML is taken from README.md's libvirt section, so the two cannot drift; only the
paths a test cannot use (the installed images, the disk, the serial log) and the domain
type (TCG here: type='qemu') are replaced, each checked to be in the README first.

The test runs its own libvirtd as a qemu:///session daemon in a private directory
(XDG_CONFIG_HOME, XDG_RUNTIME_DIR, XDG_CACHE_HOME, HOME), so nothing of the machine's
libvirt configuration is read or changed. A session daemon cannot run as root (root's
libvirtd is the system one, with fixed paths under /etc, /run and /var), so as root the
daemon and virsh run as the user nobody. The session daemon reads firmware descriptors
from /usr/share/qemu/firmware, /etc/qemu/firmware and XDG_CONFIG_HOME/qemu/firmware, the
last being where `make install FIRMWARE_JSON_DIR=...` puts Ember's here."""
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import BUILD, ESCAPES, ROOT
from disk_images import gpt_esp_disk

HELLO = BUILD / "tests" / "programs" / "hello.efi"
GREETING = "Hello World!"
DESCRIPTOR = "70-ember-x86_64.json"
SECURE_DESCRIPTOR = "71-ember-x86_64-secboot.json"
SYSTEM_FIRMWARE_DIRS = (Path("/usr/share/qemu/firmware"), Path("/etc/qemu/firmware"))
# Generous: libvirt probes QEMU's capabilities on first use, and TCG on a loaded machine.
DAEMON_TIMEOUT = 120
VIRSH_TIMEOUT = 240
BOOT_TIMEOUT = 300


# ---- The README's XML ----

def readme_libvirt_blocks():
    """The indented code blocks of README.md's libvirt paragraph, dedented."""
    text = (ROOT / "README.md").read_text()
    start = text.index("**libvirt**")
    end = text.find("\n## ", start)
    section = text[start:end if end >= 0 else len(text)]
    blocks, current = [], []
    for line in section.splitlines() + [""]:
        if line.startswith("    "):
            current.append(line[4:])
        elif current and line.strip() == "":
            blocks.append("\n".join(current) + "\n")
            current = []
    return blocks


def readme_block(first_line):
    found = [b for b in readme_libvirt_blocks() if b.startswith(first_line)]
    assert len(found) == 1, f"README.md's libvirt section needs one block starting {first_line!r}"
    return found[0]


def replace_once(xml, old, new):
    assert xml.count(old) == 1, f"README.md's domain XML no longer has {old!r} once:\n{xml}"
    return xml.replace(old, new)


def readme_domain(prefix, disk, serial_log, os_element=None):
    """The README's domain, with the test's paths (and another <os> element if given)."""
    xml = readme_block("<domain ")
    xml = replace_once(xml, "<domain type='kvm'>", "<domain type='qemu'>")
    xml = replace_once(xml, "/usr/local/share/ember/ember-code.fd",
                       f"{prefix}/share/ember/ember-code.fd")
    xml = replace_once(xml, "/usr/local/share/ember/ember-vars.fd",
                       f"{prefix}/share/ember/ember-vars.fd")
    xml = replace_once(xml, "/var/lib/libvirt/images/ember-disk.img", str(disk))
    xml = replace_once(xml, "/var/log/libvirt/qemu/ember-serial.log", str(serial_log))
    if os_element:
        old = re.search(r"^( *)<os>.*?</os>\n", xml, re.S | re.M)
        indent = old.group(1)
        new = "".join(indent + line + "\n" for line in os_element.splitlines())
        xml = xml[:old.start()] + new + xml[old.end():]
    return xml


def domain_name(xml):
    return re.search(r"<name>([^<]+)</name>", xml).group(1)


# ---- make install ----

def make_install(**variables):
    """Runs `make install` with the given variables for this build."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    args = ["make", "-s", "--no-print-directory", f"BUILD={BUILD}", "install"]
    args += [f"{k}={v}" for k, v in variables.items()]
    run = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"


@pytest.mark.parametrize("prefix, json_dir", [("/usr/local", "etc/qemu/firmware"),
                                              ("/usr", "usr/share/qemu/firmware")])
def test_make_install_puts_the_descriptor_where_libvirt_reads(tmp_path, prefix, json_dir):
    """libvirt reads /usr/share/qemu/firmware, /etc/qemu/firmware and the user's
    ~/.config/qemu/firmware, never PREFIX/share/qemu/firmware."""
    make_install(DESTDIR=tmp_path, PREFIX=prefix)
    descriptor = tmp_path / json_dir / DESCRIPTOR
    installed = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert descriptor.is_file(), f"no {json_dir}/{DESCRIPTOR}; installed: {installed}"
    assert oct(descriptor.stat().st_mode & 0o777) == "0o644"
    mapping = json.loads(descriptor.read_text())["mapping"]
    for key, name in (("executable", "ember-code.fd"), ("nvram-template", "ember-vars.fd")):
        path = mapping[key]["filename"]
        assert path == f"{prefix}/share/ember/{name}"
        assert (tmp_path / path.lstrip("/")).is_file(), f"{path} not installed: {installed}"
    # The Secure Boot pair: the same code, Microsoft's keys in the template; no SMM.
    secure = json.loads((tmp_path / json_dir / SECURE_DESCRIPTOR).read_text())
    assert sorted(secure["features"]) == ["enrolled-keys", "secure-boot"]
    for key, name in (("executable", "ember-code.fd"), ("nvram-template", "ember-vars.ms.fd")):
        path = secure["mapping"][key]["filename"]
        assert path == f"{prefix}/share/ember/{name}"
        assert (tmp_path / path.lstrip("/")).is_file(), f"{path} not installed: {installed}"
    if prefix != "/usr":
        assert not (tmp_path / prefix.lstrip("/") / "share" / "qemu").exists(), (
            f"nothing reads {prefix}/share/qemu: {installed}")


# ---- A private libvirtd ----

class Libvirt:
    """A qemu:///session libvirtd in a private directory, and virsh to talk to it."""

    def __init__(self):
        self.base = Path(tempfile.mkdtemp(prefix="ember-libvirt-"))
        self.base.chmod(0o755)  # the daemon's user must reach the images and the disk
        if os.geteuid() == 0:
            user = pwd.getpwnam("nobody")
            self.uid, self.gid = user.pw_uid, user.pw_gid
            self.drop = ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}",
                         "--clear-groups"]
        else:
            self.uid, self.gid, self.drop = os.geteuid(), os.getegid(), []
        self.home, self.config = self.base / "home", self.base / "config"
        self.runtime, self.cache = self.base / "run", self.base / "cache"
        self.firmware_dir = self.config / "qemu" / "firmware"
        for d in (self.home, self.config / "libvirt", self.firmware_dir, self.runtime,
                  self.cache, self.base / "log"):
            d.mkdir(parents=True)
        self.runtime.chmod(0o700)
        # QEMU's output to plain files: no virtlogd to start (and leave behind).
        (self.config / "libvirt" / "qemu.conf").write_text('stdio_handler = "file"\n')
        self.give(self.base)
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin",
                    "LANG": "C", "HOME": str(self.home), "XDG_CONFIG_HOME": str(self.config),
                    "XDG_RUNTIME_DIR": str(self.runtime), "XDG_CACHE_HOME": str(self.cache),
                    "XDG_DATA_HOME": str(self.home), "LIBVIRT_DEFAULT_URI": "qemu:///session",
                    # virsh must not start a daemon of its own when ours is not up
                    "LIBVIRT_AUTOSTART": "0"}
        self.daemon_log = self.base / "libvirtd.log"
        self.daemon = None

    def give(self, path):
        """Hands path (recursively) to the daemon's user."""
        for p in [Path(path), *Path(path).rglob("*")] if Path(path).is_dir() else [Path(path)]:
            os.chown(p, self.uid, self.gid)

    def start(self):
        for tool in ("libvirtd", "virsh"):
            assert shutil.which(tool, path=self.env["PATH"]), (
                f"{tool} is missing: scripts/deps installs libvirt-daemon and libvirt-clients")
        with open(self.daemon_log, "wb") as log:
            self.daemon = subprocess.Popen([*self.drop, "libvirtd"], env=self.env,
                                           stdin=subprocess.DEVNULL, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True)
        socket = self.runtime / "libvirt" / "libvirt-sock"
        deadline = time.monotonic() + DAEMON_TIMEOUT
        while time.monotonic() < deadline:
            assert self.daemon.poll() is None, f"libvirtd ended:\n{self.log_tail()}"
            if socket.exists() and self.virsh("version", check=False).returncode == 0:
                return
            time.sleep(0.5)
        raise AssertionError(f"libvirtd did not answer in {DAEMON_TIMEOUT} s:\n{self.log_tail()}")

    def log_tail(self):
        try:
            return self.daemon_log.read_text(errors="replace")[-3000:]
        except FileNotFoundError:
            return ""

    def virsh(self, *args, check=True):
        run = subprocess.run([*self.drop, "virsh", *args], env=self.env, capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, timeout=VIRSH_TIMEOUT)
        if check:
            assert run.returncode == 0, (f"virsh {' '.join(args)}: {run.stderr.strip()}\n"
                                         f"--- libvirtd ---\n{self.log_tail()}")
        return run

    def remove_domains(self):
        """Destroys and undefines every domain, NVRAM included."""
        listed = self.virsh("list", "--all", "--name", check=False)
        for name in listed.stdout.split():
            self.virsh("destroy", name, check=False)
            self.virsh("undefine", "--nvram", name, check=False)

    def stop(self):
        if self.daemon and self.daemon.poll() is None:
            self.remove_domains()
            self.daemon.send_signal(signal.SIGTERM)
            try:
                self.daemon.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
        # A QEMU the daemon could not destroy: its pid file is in our runtime directory.
        for pid_file in (self.runtime / "libvirt" / "qemu" / "run").glob("*.pid"):
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGKILL)
            except (ValueError, ProcessLookupError, PermissionError):
                pass
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="module")
def libvirt():
    lv = Libvirt()
    try:
        # The README's installation, into the private prefix, with the descriptor where
        # this session daemon reads the user's firmware.
        lv.prefix = lv.base / "prefix"
        make_install(PREFIX=lv.prefix, FIRMWARE_JSON_DIR=lv.firmware_dir)
        disk_work = lv.base / "disk-work"
        disk_work.mkdir()
        assert HELLO.exists(), f"{HELLO} is missing: run make first"
        lv.disk = gpt_esp_disk(lv.base / "disk.img", disk_work,
                               {"EFI/BOOT/BOOTX64.EFI": HELLO})
        shutil.rmtree(disk_work)
        lv.give(lv.disk)
        lv.start()
        yield lv
    finally:
        lv.stop()


def wait_for_serial(lv, log, pattern, name):
    deadline = time.monotonic() + BOOT_TIMEOUT
    text = ""
    while time.monotonic() < deadline:
        if log.exists():
            raw = log.read_bytes()
            text = ESCAPES.sub(b"", raw).replace(b"\r\n", b"\n").decode("utf-8", "replace")
            m = re.search(pattern, text, re.M)
            if m:
                return text
        state = lv.virsh("domstate", name, check=False).stdout.strip()
        assert state in ("running", "paused"), f"{name} is {state!r}; serial:\n{text[-3000:]}"
        time.sleep(1)
    qemu_log = lv.cache / "libvirt" / "qemu" / "log" / f"{name}.log"
    qemu_text = qemu_log.read_text(errors="replace")[-2000:] if qemu_log.exists() else ""
    raise AssertionError(f"no {pattern!r} on {name}'s serial log in {BOOT_TIMEOUT} s:\n"
                         f"{text[-3000:]}\n--- QEMU log ---\n{qemu_text}")


def live_loader(lv, name):
    xml = lv.virsh("dumpxml", name).stdout
    m = re.search(r"<loader[^>]*>([^<]+)</loader>", xml)
    assert m, f"no loader in {name}'s live XML:\n{xml}"
    return m.group(1)


def boot(lv, xml, tag):
    """Defines and starts the domain from xml; returns its name."""
    path = lv.base / f"{tag}.xml"
    path.write_text(xml)
    lv.give(path)
    name = domain_name(xml)
    lv.virsh("define", str(path))
    lv.virsh("start", name)
    return name


def test_readme_domain_boots_ember(libvirt):
    lv = libvirt
    log = lv.base / "log" / "readme-serial.log"
    xml = readme_domain(lv.prefix, lv.disk, log)
    name = domain_name(xml)
    try:
        boot(lv, xml, "readme")
        assert live_loader(lv, name) == f"{lv.prefix}/share/ember/ember-code.fd"
        wait_for_serial(lv, log, re.escape(GREETING), name)
        # After the program returns, the shell lists the disk: behind the PCIe root port
        # libvirt put it on (a bridge, then the virtio device).
        behind_bridge = r"fs0: PciRoot\(0x0\)/Pci\([^)]*\)/Pci\(0x0,0x0\)/HD\(1,GPT"
        text = wait_for_serial(lv, log, behind_bridge, name)
        assert "Ember" in text
        assert "pcie-root-port" in lv.virsh("dumpxml", name).stdout
        # libvirt made the domain's own NVRAM from Ember's template.
        nvram = lv.config / "libvirt" / "qemu" / "nvram" / f"{name}_VARS.fd"
        assert nvram.stat().st_size == (lv.prefix / "share/ember/ember-vars.fd").stat().st_size
        assert lv.virsh("domstate", name).stdout.strip() == "running"
    finally:
        lv.virsh("destroy", name, check=False)
        lv.virsh("undefine", "--nvram", name, check=False)
    assert name not in lv.virsh("list", "--all", "--name").stdout.split()


def test_readme_autoselection_form(libvirt):
    """What the README says of <os firmware='efi'>: with OVMF's descriptors present libvirt
    picks OVMF; with them masked by empty files of the same names, Ember, and it boots."""
    lv = libvirt
    auto_os = readme_block("<os firmware='efi'>")
    log = lv.base / "log" / "auto-serial.log"
    xml = readme_domain(lv.prefix, lv.disk, log, os_element=auto_os)
    ovmf = sorted({p.name for d in SYSTEM_FIRMWARE_DIRS if d.is_dir()
                   for p in d.glob("*.json") if p.name != DESCRIPTOR})
    assert ovmf, "no OVMF descriptor in /usr/share/qemu/firmware: scripts/deps installs ovmf"
    masks = []
    name = domain_name(xml)
    try:
        ember_code = f"{lv.prefix}/share/ember/ember-code.fd"
        boot(lv, xml, "auto-ovmf")
        assert live_loader(lv, name) != ember_code, "libvirt chose Ember over OVMF"
        lv.virsh("destroy", name)
        lv.virsh("undefine", "--nvram", name)
        for file_name in ovmf:
            mask = lv.firmware_dir / file_name
            mask.write_bytes(b"")
            lv.give(mask)
            masks.append(mask)
        boot(lv, xml, "auto-ember")
        assert live_loader(lv, name) == ember_code
        wait_for_serial(lv, log, re.escape(GREETING), name)
    finally:
        lv.virsh("destroy", name, check=False)
        lv.virsh("undefine", "--nvram", name, check=False)
        for mask in masks:
            mask.unlink()


def test_libvirt_refuses_a_loader_with_autoselection(libvirt):
    """Why the README names the pair without firmware='efi': libvirt 9.0 refuses both."""
    lv = libvirt
    os_element = readme_block("<domain ")
    os_element = re.search(r"^ *(<os>.*?</os>)", os_element, re.S | re.M).group(1)
    os_element = re.sub(r"^ *", "", os_element.replace("<os>", "<os firmware='efi'>"),
                        flags=re.M)
    xml = readme_domain(lv.prefix, lv.disk, lv.base / "log" / "refused.log",
                        os_element=os_element)
    path = lv.base / "refused.xml"
    path.write_text(xml)
    lv.give(path)
    run = lv.virsh("define", str(path), check=False)
    assert run.returncode != 0
    assert "cannot be specified when firmware autoselection is enabled" in run.stderr, run.stderr
