/* The graphics console as the text output front end's device (UEFI 2.10, 12.4): it draws
 * what the front end decodes. When the GOP changes mode behind our back, the text modes
 * are made anew for its resolution, mode 0 is taken and the screen is cleared (checked at
 * every call). The cursor is taken away before anything is drawn and put back where the
 * front end left it at the end of the call. */
#define LOG_PREFIX "graphics-console: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/font.h>
#include <ember/lib/text_out.h>
#include "gc.h"

static struct gc *gc_of(struct text_output *text)
{
	return container_of(text, struct gc, text);
}

static UINT32 attribute_of(const struct gc *g)
{
	return (UINT32)g->text.mode.Attribute;
}

static void hide_cursor(struct gc *g)
{
	if (g->cursor_drawn)
		gc_flip_cursor(g, g->cursor_col, g->cursor_row);
}

/* Text modes for the GOP's current resolution, in *count: 0 when not even 80x25 fits (the
 * console then shows nothing until the GOP changes mode again) or without memory. */
static EFI_STATUS build_modes(struct gc *g, UINT32 *count)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = g->gop->Mode->Info;
	UINT32 cols = info->HorizontalResolution / FONT_WIDTH;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *line;

	g->gop_mode = g->gop->Mode->Mode;
	g->width = info->HorizontalResolution;
	g->height = info->VerticalResolution;
	*count = gc_modes_build(g->modes, g->width, g->height);
	if (!*count) {
		log_debug("%ux%u pixels: too small for 80x25 characters\n", g->width, g->height);
		return EFI_UNSUPPORTED;
	}
	if (cols <= g->line_cols)
		return EFI_SUCCESS;
	line = pool_alloc((UINTN)cols * FONT_WIDTH * FONT_HEIGHT * sizeof(*line));
	if (!line) {
		log_debug("no memory for a line of %u columns\n", cols);
		*count = 0;
		return EFI_OUT_OF_RESOURCES;
	}
	pool_free(g->line);
	g->line = line;
	g->line_cols = cols;
	return EFI_SUCCESS;
}

static void clear_screen(struct gc *g)
{
	g->cursor_drawn = false; /* the fill takes it away */
	gc_clear_screen(g, attribute_of(g));
}

/* ---- text_output_ops ---- */

/* Follows a GOP mode change. */
static void gc_sync(struct text_output *text)
{
	struct gc *g = gc_of(text);
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = g->gop->Mode->Info;
	UINT32 count;

	if (g->gop->Mode->Mode == g->gop_mode && info->HorizontalResolution == g->width &&
	    info->VerticalResolution == g->height)
		return;
	build_modes(g, &count);
	text_output_set_modes(text, count, 0);
	if (count) {
		clear_screen(g);
		text_output_moved(text, 0, 0);
	}
}

static bool gc_query_mode(struct text_output *text, UINT32 mode, UINT32 *cols, UINT32 *rows)
{
	const struct gc_mode *m = &gc_of(text)->modes[mode];

	*cols = m->cols;
	*rows = m->rows;
	return m->valid;
}

static bool gc_draw(struct text_output *text, const CHAR16 *chars, UINT32 n)
{
	struct gc *g = gc_of(text);

	hide_cursor(g);
	return gc_draw_text(g, (UINT32)text->mode.CursorColumn, (UINT32)text->mode.CursorRow, chars,
			    n, attribute_of(g));
}

static void gc_scroll(struct text_output *text)
{
	struct gc *g = gc_of(text);

	hide_cursor(g);
	gc_scroll_up(g, attribute_of(g));
}

static EFI_STATUS gc_clear(struct text_output *text)
{
	clear_screen(gc_of(text));
	return EFI_SUCCESS;
}

/* Characters the font lacks are drawn as its replacement glyph: they count as unknown. */
static EFI_STATUS gc_test_string(struct text_output *text, const CHAR16 *string)
{
	for (; *string; string++)
		if (text_out_glyph_known(*string) && !text_out_width_marker(*string) &&
		    !font_glyph(*string))
			return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

/* The cursor where Mode says, if it is to be seen. */
static EFI_STATUS gc_flush(struct text_output *text)
{
	struct gc *g = gc_of(text);
	UINT32 col = (UINT32)text->mode.CursorColumn, row = (UINT32)text->mode.CursorRow;

	if (text->mode.Mode < 0)
		return EFI_SUCCESS; /* nothing is shown (a stale cursor went with the old mode) */
	if (g->cursor_drawn &&
	    (!text->mode.CursorVisible || g->cursor_col != col || g->cursor_row != row))
		hide_cursor(g);
	if (text->mode.CursorVisible && !g->cursor_drawn) {
		g->cursor_col = col;
		g->cursor_row = row;
		gc_flip_cursor(g, col, row);
	}
	return EFI_SUCCESS;
}

/* CR, LF, BS and the wrap only move the cursor: gc_flush shows it at its new place; TAB
 * draws spaces. SetMode, Reset, colours and the cursor's place need nothing more. */
static const struct text_output_ops gc_ops = {
    .query_mode = gc_query_mode,
    .sync = gc_sync,
    .draw = gc_draw,
    .scroll = gc_scroll,
    .test_string = gc_test_string,
    .clear = gc_clear,
    .flush = gc_flush,
};

EFI_STATUS gc_out_init(struct gc *g)
{
	UINT32 count;
	EFI_STATUS status;

	g->cursor_drawn = false;
	status = build_modes(g, &count);
	if (EFI_ERROR(status))
		return status;
	text_output_init(&g->text, &gc_ops, count, 0);
	clear_screen(g);
	gc_flush(&g->text);
	return EFI_SUCCESS;
}

void gc_out_fini(struct gc *g)
{
	text_output_fini(&g->text);
	pool_free(g->line);
	g->line = NULL;
	g->line_cols = 0;
}
