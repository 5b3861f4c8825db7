"""What mounting the VARS pflash skipped reaches the user on QEMU: the serial console
says it (the log goes to the debug console, where users do not look), and the variables
after a crafted record are all there."""
import shutil
import struct
import subprocess
import zlib

from conftest import BUILD, FW

VARSTORE = BUILD / "ember-varstore"
GUID = "7e57a11e-5a1e-4c6f-9a2b-3c4d5e6f7081"
APP = BUILD / "tests" / "programs" / "hello.efi"


def tool(*args):
    result = subprocess.run([str(VARSTORE), *map(str, args)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return result


def record_at(data, wanted):
    """Offset of the record of name wanted in area 0, walking the records by their sizes."""
    at = 32
    while data[at:at + 4] == b"EmVR":
        name_size, data_size = struct.unpack_from("<II", data, at + 8)
        if data[at + 44:at + 44 + name_size].decode("utf-16-le").rstrip("\0") == wanted:
            return at
        at += (44 + name_size + data_size + 7) & ~7
    raise AssertionError(f"no record of {wanted}")


def test_records_found_again_are_reported_on_the_serial_console(machine, tmp_path):
    store = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.fd", store)
    for name in ("VtFirst", "VtCrafted", "VtAfter1", "VtAfter2"):
        tool(store, "set", name, GUID, "--ascii", f"value of {name}")
    data = bytearray(store.read_bytes())
    at = record_at(data, "VtCrafted")
    # A valid header CRC, never committed, and a data size that covers what follows.
    struct.pack_into("<I", data, at + 12, 30000)
    struct.pack_into("<I", data, at + 36, zlib.crc32(bytes(data[at:at + 36])))
    data[at + 40] = 0xFF
    store.write_bytes(bytes(data))

    m = machine(firmware="pflash", vars_file=store, app=APP, timeout=180)
    m.expect(r"Ember: variables: 2 record\(s\) found again", timeout=180)
    m.expect_log(r"variables: 2 record\(s\) found again", timeout=30)
    assert "varstore: record at 0x" in m.debug_log
    m.close()
    listing = tool(store, "list").stdout.decode()
    for name in ("VtFirst", "VtAfter1", "VtAfter2"):
        assert name in listing, listing
