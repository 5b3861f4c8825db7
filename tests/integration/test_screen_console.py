"""The graphics console (drivers/graphics_console) on ember-run's GOP, through the console
splitter (ember-run --screen): the --screenshot shows the text, compared cell by cell with
the same text rendered in Python from the font the firmware's was generated from; the
output on the pipe stays what it is without --screen."""
import sys
from pathlib import Path

from conftest import app, program
from test_console import read_png

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import screen_cells  # noqa: E402


def shot(ember, tmp_path, *args):
    png = tmp_path / "screen.png"
    r = ember("--screen", "--screenshot", png, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    width, height, rows = read_png(png)
    return r, (lambda x, y: tuple(rows[y][3 * x:3 * x + 3])), width, height


def test_hello_is_drawn_and_printed(ember, tmp_path):
    r, pixel, width, height = shot(ember, tmp_path, program("hello"))
    assert r.stdout == b"Hello World!\n"
    expected = screen_cells.Screen()
    expected.put(0, 0, "Hello World!")
    bad = expected.bad_cells(pixel, width, height)
    # The cursor (an inverted underline) waits at the start of the next row.
    assert bad == [(0, 1, " ")]


def test_text_screen_colours_specials_wrap_and_scroll(ember, tmp_path):
    r, pixel, width, height = shot(ember, tmp_path, app("text-screen"))
    assert b"text-screen done" in r.stdout
    assert screen_cells.text_screen_expected().bad_cells(pixel, width, height) == []


def test_mode_0_is_centred_on_other_sizes(ember, tmp_path):
    r, pixel, width, height = shot(ember, tmp_path, "--gop", "800x600", app("text-screen"))
    assert (width, height) == (800, 600)
    assert screen_cells.text_screen_expected().bad_cells(pixel, width, height) == []
