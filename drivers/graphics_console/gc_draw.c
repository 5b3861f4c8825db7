/* Drawing the graphics console with the GOP's Blt: glyph runs, scrolling, clearing and
 * the cursor. The framebuffer is never touched directly, so a Blt-only GOP works too. */
#include <ember/drivers/font.h>
#include "gc.h"

#define CURSOR_HEIGHT 2

/* The 16 text colours as a VGA shows them (EFI_BLACK .. EFI_WHITE, 12.4.7). */
static const UINT8 palette[16][3] = {
    {0x00, 0x00, 0x00}, {0x00, 0x00, 0xaa}, {0x00, 0xaa, 0x00}, {0x00, 0xaa, 0xaa},
    {0xaa, 0x00, 0x00}, {0xaa, 0x00, 0xaa}, {0xaa, 0x55, 0x00}, {0xaa, 0xaa, 0xaa},
    {0x55, 0x55, 0x55}, {0x55, 0x55, 0xff}, {0x55, 0xff, 0x55}, {0x55, 0xff, 0xff},
    {0xff, 0x55, 0x55}, {0xff, 0x55, 0xff}, {0xff, 0xff, 0x55}, {0xff, 0xff, 0xff},
};

EFI_GRAPHICS_OUTPUT_BLT_PIXEL gc_color(UINT32 color)
{
	const UINT8 *rgb = palette[color & 0x0f];

	return (EFI_GRAPHICS_OUTPUT_BLT_PIXEL){.Blue = rgb[2], .Green = rgb[1], .Red = rgb[0]};
}

static const struct gc_mode *current(const struct gc *g)
{
	return &g->modes[g->text.mode.Mode];
}

/* One glyph into the line buffer, whose rows are stride pixels long. */
static void render_glyph(EFI_GRAPHICS_OUTPUT_BLT_PIXEL *at, UINT32 stride, const UINT8 *glyph,
			 EFI_GRAPHICS_OUTPUT_BLT_PIXEL fg, EFI_GRAPHICS_OUTPUT_BLT_PIXEL bg)
{
	for (UINT32 y = 0; y < FONT_HEIGHT; y++, at += stride)
		for (UINT32 x = 0; x < FONT_WIDTH; x++)
			at[x] = glyph[y] & (0x80 >> x) ? fg : bg;
}

bool gc_draw_text(struct gc *g, UINT32 col, UINT32 row, const CHAR16 *text, UINT32 n,
		  UINT32 attribute)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL fg = gc_color(attribute), bg = gc_color(attribute >> 4);
	UINT32 stride = n * FONT_WIDTH;
	bool all_known = true;

	if (!n)
		return true;
	for (UINT32 i = 0; i < n; i++) {
		const UINT8 *glyph = font_glyph(text[i]);
		if (!glyph) {
			glyph = font_8x16_glyphs[font_8x16_replacement];
			all_known = false;
		}
		render_glyph(g->line + i * FONT_WIDTH, stride, glyph, fg, bg);
	}
	g->gop->Blt(g->gop, g->line, EfiBltBufferToVideo, 0, 0, current(g)->x + col * FONT_WIDTH,
		    current(g)->y + row * FONT_HEIGHT, stride, FONT_HEIGHT,
		    stride * sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL));
	return all_known;
}

void gc_scroll_up(struct gc *g, UINT32 attribute)
{
	const struct gc_mode *m = current(g);
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL bg = gc_color(attribute >> 4);
	UINT32 width = m->cols * FONT_WIDTH;

	g->gop->Blt(g->gop, NULL, EfiBltVideoToVideo, m->x, m->y + FONT_HEIGHT, m->x, m->y, width,
		    (m->rows - 1) * FONT_HEIGHT, 0);
	g->gop->Blt(g->gop, &bg, EfiBltVideoFill, 0, 0, m->x, m->y + (m->rows - 1) * FONT_HEIGHT,
		    width, FONT_HEIGHT, 0);
}

void gc_clear_screen(struct gc *g, UINT32 attribute)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL bg = gc_color(attribute >> 4);

	g->gop->Blt(g->gop, &bg, EfiBltVideoFill, 0, 0, 0, 0, g->width, g->height, 0);
}

void gc_flip_cursor(struct gc *g, UINT32 col, UINT32 row)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixels[FONT_WIDTH * CURSOR_HEIGHT];
	const struct gc_mode *m = current(g);
	UINTN x = m->x + col * FONT_WIDTH;
	UINTN y = m->y + (row + 1) * FONT_HEIGHT - CURSOR_HEIGHT;

	if (EFI_ERROR(g->gop->Blt(g->gop, pixels, EfiBltVideoToBltBuffer, x, y, 0, 0, FONT_WIDTH,
				  CURSOR_HEIGHT, 0)))
		return;
	for (UINT32 i = 0; i < FONT_WIDTH * CURSOR_HEIGHT; i++) {
		pixels[i].Blue ^= 0xff;
		pixels[i].Green ^= 0xff;
		pixels[i].Red ^= 0xff;
	}
	g->gop->Blt(g->gop, pixels, EfiBltBufferToVideo, 0, 0, x, y, FONT_WIDTH, CURSOR_HEIGHT, 0);
	g->cursor_drawn = !g->cursor_drawn;
}
