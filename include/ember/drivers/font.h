/* Ember's built-in 8x16 font, for text drawn on a framebuffer. The glyphs and the Unicode
 * map are generated at build time (scripts/psf2c) from a Linux console font of the Debian
 * package console-setup-linux; the lookup is drivers/graphics_console/font.c. */
#ifndef EMBER_FONT_H
#define EMBER_FONT_H

#include <efi/types.h>

#define FONT_WIDTH 8
#define FONT_HEIGHT 16

/* One character's glyph; the map is sorted by code. */
struct font_map_entry {
	UINT16 code;
	UINT16 glyph;
};

/* Glyph rows, top first; bit 7 is the leftmost pixel. */
extern const UINT8 font_8x16_glyphs[][FONT_HEIGHT];
extern const struct font_map_entry font_8x16_map[];
extern const UINT32 font_8x16_map_count;
/* The glyph drawn for characters the font lacks (U+FFFD, else '?'). */
extern const UINT16 font_8x16_replacement;

/* The glyph of a character; NULL when the font has none. */
const UINT8 *font_glyph(CHAR16 c);

#endif
