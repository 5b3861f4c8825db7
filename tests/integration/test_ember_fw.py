"""build/ember-fw, the host editor of the firmware volume in Ember's images, on its refusals:
each is a message and exit status 1 (2 for bad usage) and leaves the image as it was. A file
that is no PE image, a volume whose header or a file's header is damaged, no room left, a
name that is not there, bad usage. (Adding, listing and removing drivers, and the firmware
running them, are tests/qemu/test_firmware_volume.py.)"""
import subprocess

from conftest import BUILD

TOOL = BUILD / "ember-fw"
FW = BUILD / "qemu-x86_64"
APP = BUILD / "tests" / "programs" / "hello.efi"


def fw(*args):
    return subprocess.run([str(TOOL), *map(str, args)], capture_output=True, text=True,
                          timeout=60)


def refused(result, message):
    assert result.returncode == 1, result
    assert message in result.stderr, result.stderr


def test_refusals_leave_the_image_alone(tmp_path):
    image = tmp_path / "code.fd"
    image.write_bytes((FW / "ember-code.fd").read_bytes())
    before = image.read_bytes()
    refused(fw(image, "add", FW / "ember-vars.fd"), "is no PE image")
    refused(fw(image, "add", tmp_path / "missing.efi"), "cannot read")
    refused(fw(image, "remove", "nothing"), "no file nothing")
    assert image.read_bytes() == before
    # A changed byte in the volume's header: refused, with the reason.
    damaged = bytearray(before)
    damaged[44] ^= 1
    image.write_bytes(bytes(damaged))
    refused(fw(image, "list"), "the volume is refused: the header checksum is wrong")
    refused(fw(image, "add", APP), "the header checksum is wrong")
    assert image.read_bytes() == bytes(damaged)


def test_full_volume_and_damaged_file(tmp_path):
    volume = tmp_path / "small.fv"
    assert fw(volume, "create", 8192).returncode == 0
    assert fw(volume, "add", APP, "--guid", "11111111-2222-4333-8444-555555555555").returncode == 0
    before = volume.read_bytes()
    refused(fw(volume, "add", APP), "no room left in the volume")
    assert volume.read_bytes() == before
    # The file's header checksum broken: nothing after it can be trusted.
    data = bytearray(before)
    at = data.find(bytes.fromhex("11111111"))
    data[at + 18] ^= 0x01  # its type
    volume.write_bytes(bytes(data))
    listing = fw(volume, "list")
    assert listing.returncode == 1
    assert "the volume is damaged after this: a file header's checksum is wrong" in listing.stdout
    refused(fw(volume, "remove", "hello"), "a file header's checksum is wrong")


def test_usage():
    assert fw().returncode == 2
    assert fw("x.fd", "frobnicate").returncode != 0
    assert fw("x.fv", "create", 1000).returncode == 2
