/* The graphics console: SimpleTextOut drawn with the built-in 8x16 font on a GOP, on the
 * GOP's own handle. Text modes come from the resolution (gc_modes.c), drawing is done with
 * Blt only (gc_draw.c), gc_out.c is the device under the text output front end and
 * gc_driver.c the driver binding. */
#ifndef DRIVERS_GRAPHICS_CONSOLE_GC_H
#define DRIVERS_GRAPHICS_CONSOLE_GC_H

#include <stdbool.h>
#include <ember/lib/util.h>
#include <ember/drivers/text_output.h>
#include <efi/protocol/graphics_output.h>

#define GC_SIGNATURE SIGNATURE_32('g', 'c', 'o', 'n')
#define GC_MAX_MODES 4

/* A text mode: its size, whether it fits the screen, and where its cell (0,0) lies. */
struct gc_mode {
	UINT32 cols, rows;
	bool valid;
	UINT32 x, y;
};

struct gc {
	UINT32 signature;
	EFI_HANDLE handle; /* the GOP's handle, which gets SimpleTextOut too */
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	struct text_output text; /* SimpleTextOut: text.out */
	struct gc_mode modes[GC_MAX_MODES];
	UINT32 gop_mode, width, height; /* the GOP mode the text modes were made for */
	bool cursor_drawn;
	UINT32 cursor_col, cursor_row;	     /* the cell whose underline is inverted, when drawn */
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *line; /* pixels of one row of cells, widest mode */
	UINT32 line_cols;
};

/* Text modes for a width x height screen (UEFI 2.10, 12.4: 0 is 80x25, 1 is 80x50 or
 * listed as unusable; then 100x31 and the whole screen, when they fit and differ), each
 * centred. Returns the count, 0 when not even 80x25 fits. */
UINT32 gc_modes_build(struct gc_mode *modes, UINT32 width, UINT32 height);

/* ---- Drawing (gc_draw.c); positions are cells of the current mode, which must be a
 * text mode ---- */

/* Draws n characters from (col,row) on in the colours of attribute; false when some had
 * no glyph (the replacement glyph is drawn for them). */
bool gc_draw_text(struct gc *g, UINT32 col, UINT32 row, const CHAR16 *text, UINT32 n,
		  UINT32 attribute);
/* Moves the text area up a row and clears the last one in the background colour. */
void gc_scroll_up(struct gc *g, UINT32 attribute);
/* Fills the whole screen with the attribute's background colour. */
void gc_clear_screen(struct gc *g, UINT32 attribute);
/* Inverts the underline of a cell (the cursor): drawing it twice takes it away. */
void gc_flip_cursor(struct gc *g, UINT32 col, UINT32 row);
/* The pixel of an EFI text colour (0-15). */
EFI_GRAPHICS_OUTPUT_BLT_PIXEL gc_color(UINT32 color);

/* ---- The text output (gc_out.c) ---- */

/* Sets up g->text for the GOP's current resolution (and clears the screen);
 * EFI_UNSUPPORTED when the screen is too small for 80x25. */
EFI_STATUS gc_out_init(struct gc *g);
void gc_out_fini(struct gc *g);

#endif
