"""Variables survive a machine killed at any moment: var-loop writes one non-volatile
variable over and over on the VARS pflash, QEMU gets SIGKILL at random times (at least 50),
and after each kill the store mounts and holds the last committed value or the one that
was being written, whole."""
import random
import re
import shutil
import time

from conftest import BUILD, FW

APP = BUILD / "apps" / "var-loop.efi"
KILLS = 50


def test_sigkill_never_loses_a_committed_variable(machine, tmp_path):
    vars_file = tmp_path / "vars.fd"
    shutil.copy(FW / "ember-vars.fd", vars_file)
    rng = random.Random(20261203)
    committed = 0
    for kill in range(KILLS + 1):
        m = machine(firmware="pflash", vars_file=vars_file, app=APP)
        start = int(m.expect(r"start (\d+)\r?\n", timeout=60).group(1))
        assert "corrupt" not in m.text
        assert committed <= start <= committed + 1, \
            f"kill {kill}: found {start}, last committed {committed}"
        assert "formatted again" not in m.debug_log and "damaged" not in m.debug_log, \
            m.debug_log[-2000:]
        committed = start
        if kill == KILLS:
            break
        # Let it write for a while, then pull the plug.
        time.sleep(rng.uniform(0.02, 0.6))
        m.proc.kill()
        m.proc.wait()
        time.sleep(0.05)
        # Only whole lines count: a number cut off by the kill is not what was committed.
        values = [int(v) for v in re.findall(r"committed (\d+)\r?\n", m.text)]
        if values:
            committed = values[-1]
        m.close()
    assert committed > KILLS, "the loop hardly wrote anything"
