"""The shell's input (apps/shell/line_input.c) under ember-run: lines of any length, typed
on a terminal, piped in or read from a script.

Issue 10, item 4: lines cut at 1024 characters ran the rest.
"""
import os

import pytest

from conftest import app
from test_console import drain, read_until, spawn_on_pty
from test_shell import outputs, run_shell

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
