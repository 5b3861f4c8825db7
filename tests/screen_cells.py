"""What the graphics console (drivers/graphics_console) should have drawn, cell by cell:
a text screen modelled in Python, rendered from the same PSF font the firmware's font was
generated from (scripts/psf2c), and compared pixel for pixel with a screenshot. Used by
tests/qemu (QEMU screendump) and tests/integration (ember-run --screen --screenshot)."""
import importlib.machinery
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CELL_W, CELL_H = 8, 16

# The 16 EFI text colours as the graphics console draws them (VGA's palette).
PALETTE = [
    (0x00, 0x00, 0x00), (0x00, 0x00, 0xAA), (0x00, 0xAA, 0x00), (0x00, 0xAA, 0xAA),
    (0xAA, 0x00, 0x00), (0xAA, 0x00, 0xAA), (0xAA, 0x55, 0x00), (0xAA, 0xAA, 0xAA),
    (0x55, 0x55, 0x55), (0x55, 0x55, 0xFF), (0x55, 0xFF, 0x55), (0x55, 0xFF, 0xFF),
    (0xFF, 0x55, 0x55), (0xFF, 0x55, 0xFF), (0xFF, 0xFF, 0x55), (0xFF, 0xFF, 0xFF),
]
DEFAULT_ATTR = 0x07


def psf2c():
    """scripts/psf2c as a module (it has no .py suffix)."""
    loader = importlib.machinery.SourceFileLoader("psf2c", str(ROOT / "scripts" / "psf2c"))
    spec = importlib.util.spec_from_loader("psf2c", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Screen:
    """A cols x rows text screen: a character and an attribute per cell."""

    def __init__(self, cols=80, rows=25):
        self.cols, self.rows = cols, rows
        self.cells = [[(" ", DEFAULT_ATTR)] * cols for _ in range(rows)]

    def put(self, col, row, text, attr=DEFAULT_ATTR):
        for i, ch in enumerate(text):
            self.cells[row][col + i] = (ch, attr)

    def scroll(self):
        self.cells = self.cells[1:] + [[(" ", DEFAULT_ATTR)] * self.cols]

    def bad_cells(self, pixel, width, height, font=None):
        """Cells whose pixels differ from the rendering; pixel(x, y) gives (r, g, b) of the
        screenshot. The mode is centred on a width x height screen."""
        m = psf2c()
        font = font or m.load_font()
        x0 = (width - self.cols * CELL_W) // 2
        y0 = (height - self.rows * CELL_H) // 2
        bad = []
        for row in range(self.rows):
            for col in range(self.cols):
                ch, attr = self.cells[row][col]
                glyph = m.glyph_for(font, ord(ch))
                fg, bg = PALETTE[attr & 0x0F], PALETTE[(attr >> 4) & 0x07]
                if any(pixel(x0 + col * CELL_W + x, y0 + row * CELL_H + y) !=
                       (fg if glyph[y] & (0x80 >> x) else bg)
                       for y in range(CELL_H) for x in range(CELL_W)):
                    bad.append((col, row, ch))
        return bad


def text_screen_expected():
    """What apps/text-screen leaves on an 80x25 screen."""
    s = Screen()
    s.put(0, 0, "Ember text screen")
    s.put(0, 1, "yellow on blue", 0x1E)
    s.put(0, 2, "\u250c\u2500\u2500\u2510")
    s.put(0, 3, "\u2502ok\u2502")
    s.put(0, 4, "\u2514\u2500\u2500\u2518")
    s.put(0, 5, "\u2191\u2193\u2588\u2591\u25b2\u25ba\u25bc\u25c4\u2550\u256c caf\u00e9 \u20ac")
    s.put(0, 6, "a       b")
    s.put(70, 10, "wraps here", 0x4F)
    s.put(0, 11, "!", 0x4F)
    s.put(0, 24, "text-screen done")
    s.scroll()
    return s
