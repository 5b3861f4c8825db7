"""The shell's input (apps/shell/line_input.c, console_input.c) under ember-run: lines of any
length, typed on a terminal, piped in or read from a script; the end of piped input; and
pauses (more, -b) only when a person types on the console.

Issue 10: item 4 (lines cut at 1024 characters ran the rest) and item 6 (the shell did
not exit at the end of piped input; `type big | more` waited for ever when input was not
a terminal).
"""
import os
import re
import select
import time

import pytest

from conftest import app
from test_console import drain, read_until, spawn_on_pty
from test_shell import PAUSE, clean, outputs, run_shell

SHELL_ARGS = ("-nostartup", "-noversion", "-nomap")
# The line of issue 10: "rm", 1013 blanks, then a path; cut at 1024 it named fs0:\DIR.
LONG_RM = "rm " + " " * 1013 + "fs0:\\DIR\\SUB"


@pytest.fixture
def tree(tmp_path):
    esp = tmp_path / "esp"
    (esp / "DIR" / "SUB").mkdir(parents=True)
    (esp / "DIR" / "keep.txt").write_bytes(b"must stay\n")
    (esp / "DIR" / "SUB" / "gone.txt").write_bytes(b"named\n")
    return esp


def only_sub_deleted(esp):
    return (esp / "DIR" / "keep.txt").exists() and not (esp / "DIR" / "SUB").exists()


# ---- Long lines ----

def test_long_piped_line_runs_whole(ember, tree):
    out, err, rc = run_shell(ember, tree, [LONG_RM])
    assert only_sub_deleted(tree), out[-300:] + err
    assert rc == 0 and err == ""


def test_long_piped_line_keeps_every_character(ember, tree):
    word = "".join(chr(ord("a") + i % 26) for i in range(5000))
    out, err, _ = run_shell(ember, tree, ["echo " + word])
    assert outputs(out)["echo " + word] == [word]


def test_long_script_line_runs_whole(ember, tree):
    (tree / "long.nsh").write_text("@echo -off\r\n" + LONG_RM + "\r\necho done\r\n")
    out, err, _ = run_shell(ember, tree, ["long.nsh"])
    assert "done" in out.split("\n")
    assert only_sub_deleted(tree), err


def read_until_either(fd, one, other, timeout=60):
    """Reads fd until one or other shows up at the end of what was read; returns it all."""
    data = b""
    deadline = time.monotonic() + timeout
    while not (data.endswith(one) or data.endswith(other)):
        left = deadline - time.monotonic()
        assert left > 0, f"no {one!r} nor {other!r} in {data!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 4096)
            assert chunk, f"output ended: {data!r}"
            data += chunk
    return data


def talk(proc, master, text, marker):
    """Types text on the terminal and reads until marker (the output must be read while
    typing: a full terminal would block ember-run)."""
    os.write(master, text.encode())
    return read_until(master, marker.encode(), timeout=60)


def test_long_line_typed_on_a_terminal_runs_whole(tree):
    proc, master, slave, _ = spawn_on_pty(["--esp", tree, app("shell"), *SHELL_ARGS])
    try:
        read_until(master, b"fs0:\\> ")
        out = talk(proc, master, LONG_RM + "\r", "fs0:\\> ")
        out += talk(proc, master, "exit\r", "exit")
        proc.wait(timeout=30)
        out += drain(master)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    assert only_sub_deleted(tree), out.decode(errors="replace")[-500:]


# ---- The end of piped input ----

def test_shell_exits_at_the_end_of_piped_input(ember, tree):
    result = ember("--esp", tree, app("shell"), *SHELL_ARGS, input=b"echo hi\n", timeout=20)
    assert "\nhi\n" in clean(result.stdout)
    assert result.returncode == 0
    # The shell returns the status of the last command: ember-run says it failed.
    result = ember("--esp", tree, app("shell"), *SHELL_ARGS, input=b"ls nothing_here\n",
                   timeout=20)
    assert "ls: nothing_here: no such file or directory" in clean(result.stderr)
    assert result.returncode == 1
    result = ember("--esp", tree, app("shell"), *SHELL_ARGS, input=b"", timeout=20)
    assert result.returncode == 0
    # A last line without its line end still runs, as in other shells.
    result = ember("--esp", tree, app("shell"), *SHELL_ARGS, input=b"echo last", timeout=20)
    assert "\nlast\n" in clean(result.stdout)


def test_nested_shell_ends_with_its_piped_input(ember, tree):
    (tree / "inner.efi").write_bytes(app("shell").read_bytes())
    out, err, rc = run_shell(ember, tree, [
        "echo \"echo from inside\" | inner.efi -nostartup -noversion -nomap",
        "echo back outside"], timeout=30)
    assert "from inside" in out.split("\n")
    assert "back outside" in out.split("\n")
    assert rc == 0, err


# ---- Pauses ----

def big_file(esp):
    (esp / "big.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))


def test_more_does_not_wait_when_input_is_not_a_terminal(ember, tree):
    big_file(tree)
    (tree / "page.nsh").write_text("type big.txt | more\r\nls -b DIR\r\n")
    result = ember("--esp", tree, app("shell"), "-noversion", "-nomap", "-exit", "page.nsh",
                   input=b"", timeout=20)
    out = clean(result.stdout)
    assert PAUSE not in out
    assert "line 100" in out and "Directory of: fs0:\\DIR" in out
    assert result.returncode == 0


def test_more_leaves_piped_commands_alone(ember, tree):
    big_file(tree)
    out, err, rc = run_shell(ember, tree, ["type big.txt | more", "echo after more"])
    assert PAUSE not in out
    assert outputs(out)["type big.txt | more"][-1] == "line 100"
    assert outputs(out)["echo after more"] == ["after more"]


def test_pauses_on_a_terminal_with_b_and_q(tree):
    proc, master, slave, _ = spawn_on_pty(["--esp", tree, app("shell"), *SHELL_ARGS],
                                          columns=80, rows=25)
    try:
        read_until(master, b"fs0:\\> ")
        first = talk(proc, master, "help -b\r", PAUSE)
        # Space shows the next page, which may end at another pause (the list is longer
        # than two screens) or at the prompt.
        for _ in range(10):
            os.write(master, b" ")
            first += read_until_either(master, PAUSE.encode(), b"fs0:\\> ")
            if first.endswith(b"fs0:\\> "):
                break
        second = talk(proc, master, "help -b\r", PAUSE)
        second += talk(proc, master, "q", "fs0:\\> ")
        talk(proc, master, "exit\r", "exit")
        proc.wait(timeout=30)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    first, second = first.decode(errors="replace"), second.decode(errors="replace")
    last = re.compile(r"\nver +- ")  # the last command in the list
    # An 80x25 terminal: a pause after 24 rows; Space goes on to the end, Q stops.
    assert first.count(PAUSE) >= 1 and last.search(first.split(PAUSE, 1)[1])
    assert first.endswith("fs0:\\> ")
    assert first.split(PAUSE)[0].split("\n", 1)[1].count("\n") == 24  # after the echo
    assert PAUSE in second and not last.search(second)
