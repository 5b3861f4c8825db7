/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) drawn on a GOP. When the GOP changes
 * mode behind our back, the text modes are made anew for its resolution, mode 0 is taken
 * and the screen is cleared (checked at every call). */
#include <ember/core/core.h>
#include <ember/drivers/font.h>
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include "gc.h"

static const CHAR16 spaces[TEXT_OUT_TAB_STOP] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};

/* Characters that take a cell (the others, control codes, width markers and
 * non-characters, are skipped). */
static bool printable(CHAR16 c)
{
	return text_out_glyph_known(c) && !text_out_width_marker(c);
}

static struct gc *gc_from(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct gc *g;

	if (!this)
		return NULL;
	g = container_of(this, struct gc, out);
	return g->signature == GC_SIGNATURE ? g : NULL;
}

static const struct gc_mode *current(const struct gc *g)
{
	return &g->modes[g->mode.Mode];
}

static void hide_cursor(struct gc *g)
{
	if (g->cursor_drawn)
		gc_flip_cursor(g);
}

static void show_cursor(struct gc *g)
{
	if (g->mode.CursorVisible && !g->cursor_drawn && g->mode.MaxMode)
		gc_flip_cursor(g);
}

static void clear(struct gc *g)
{
	g->cursor_drawn = false;
	gc_clear_screen(g, (UINT32)g->mode.Attribute);
	g->mode.CursorColumn = 0;
	g->mode.CursorRow = 0;
	show_cursor(g);
}

/* Text modes for the GOP's current resolution: EFI_UNSUPPORTED when not even 80x25 fits
 * (the console then shows nothing until the GOP changes mode again). */
static EFI_STATUS build_modes(struct gc *g)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = g->gop->Mode->Info;
	UINT32 cols = info->HorizontalResolution / FONT_WIDTH;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *line;

	g->gop_mode = g->gop->Mode->Mode;
	g->width = info->HorizontalResolution;
	g->height = info->VerticalResolution;
	g->mode.MaxMode = (INT32)gc_modes_build(g->modes, g->width, g->height);
	g->mode.Mode = 0;
	if (!g->mode.MaxMode)
		return EFI_UNSUPPORTED;
	if (cols <= g->line_cols)
		return EFI_SUCCESS;
	line = pool_alloc((UINTN)cols * FONT_WIDTH * FONT_HEIGHT * sizeof(*line));
	if (!line) {
		g->mode.MaxMode = 0;
		return EFI_OUT_OF_RESOURCES;
	}
	pool_free(g->line);
	g->line = line;
	g->line_cols = cols;
	return EFI_SUCCESS;
}

/* Follows a GOP mode change; false when the screen cannot show text. */
static bool follow_gop(struct gc *g)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = g->gop->Mode->Info;

	if (g->gop->Mode->Mode != g->gop_mode || info->HorizontalResolution != g->width ||
	    info->VerticalResolution != g->height) {
		if (!EFI_ERROR(build_modes(g)))
			clear(g);
	}
	return g->mode.MaxMode != 0;
}

static void line_feed(struct gc *g)
{
	if ((UINT32)g->mode.CursorRow + 1 < current(g)->rows)
		g->mode.CursorRow++;
	else
		gc_scroll_up(g, (UINT32)g->mode.Attribute);
}

/* Draws the pending run of printable characters that starts at the cursor column col. */
static bool flush_run(struct gc *g, const CHAR16 *run, const CHAR16 *end, UINT32 col)
{
	if (!run)
		return true;
	return gc_draw_text(g, col, (UINT32)g->mode.CursorRow, run, (UINT32)(end - run),
			    (UINT32)g->mode.Attribute);
}

static void put_tab(struct gc *g)
{
	UINT32 col = (UINT32)g->mode.CursorColumn;
	UINT32 next = text_out_tab_stop(col, current(g)->cols);

	gc_draw_text(g, col, (UINT32)g->mode.CursorRow, spaces, next - col,
		     (UINT32)g->mode.Attribute);
	g->mode.CursorColumn = (INT32)next;
}

/* Control characters (12.4.3); false for those that are not known. */
static bool put_control(struct gc *g, CHAR16 ch)
{
	if (ch == CHAR_LINEFEED)
		line_feed(g);
	else if (ch == CHAR_CARRIAGE_RETURN)
		g->mode.CursorColumn = 0;
	else if (ch == CHAR_BACKSPACE)
		g->mode.CursorColumn -= g->mode.CursorColumn > 0;
	else if (ch == CHAR_TAB)
		put_tab(g);
	else
		return text_out_width_marker(ch);
	return true;
}

/* Printable characters are drawn a run at a time, up to the end of the row. */
static bool write_text(struct gc *g, const CHAR16 *s)
{
	const CHAR16 *run = NULL;
	UINT32 run_col = 0;
	bool all_known = true;

	for (; *s; s++) {
		if (!printable(*s)) {
			all_known &= flush_run(g, run, s, run_col);
			run = NULL;
			all_known &= put_control(g, *s);
			continue;
		}
		if (!run) {
			run = s;
			run_col = (UINT32)g->mode.CursorColumn;
		}
		if ((UINT32)++g->mode.CursorColumn == current(g)->cols) {
			all_known &= flush_run(g, run, s + 1, run_col);
			run = NULL;
			g->mode.CursorColumn = 0;
			line_feed(g);
		}
	}
	return flush_run(g, run, s, run_col) && all_known;
}

static EFI_STATUS EFIAPI out_output_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	struct gc *g = gc_from(this);
	EFI_STATUS status = EFI_DEVICE_ERROR;
	EFI_TPL old;

	if (!g || !string)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (follow_gop(g)) {
		hide_cursor(g);
		status = write_text(g, string) ? EFI_SUCCESS : EFI_WARN_UNKNOWN_GLYPH;
		show_cursor(g);
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_test_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	if (!gc_from(this) || !string)
		return EFI_INVALID_PARAMETER;
	for (; *string; string++) {
		CHAR16 ch = *string;
		bool control = ch == CHAR_LINEFEED || ch == CHAR_CARRIAGE_RETURN ||
			       ch == CHAR_BACKSPACE || ch == CHAR_TAB;

		if (!control && !(printable(ch) && font_glyph(ch)))
			return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_query_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode,
					UINTN *columns, UINTN *rows)
{
	struct gc *g = gc_from(this);
	EFI_TPL old;
	EFI_STATUS status = EFI_UNSUPPORTED;

	if (!g || !columns || !rows)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (follow_gop(g) && mode < (UINTN)g->mode.MaxMode && g->modes[mode].valid) {
		*columns = g->modes[mode].cols;
		*rows = g->modes[mode].rows;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode)
{
	struct gc *g = gc_from(this);
	EFI_TPL old;
	EFI_STATUS status = EFI_UNSUPPORTED;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (follow_gop(g) && mode < (UINTN)g->mode.MaxMode && g->modes[mode].valid) {
		g->mode.Mode = (INT32)mode;
		clear(g);
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_set_attribute(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN attribute)
{
	struct gc *g = gc_from(this);

	if (!g)
		return EFI_INVALID_PARAMETER;
	if (attribute > 0x7f) /* bits 7 and up must be zero (12.4.7) */
		return EFI_UNSUPPORTED;
	g->mode.Attribute = (INT32)attribute;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_clear_screen(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct gc *g = gc_from(this);
	EFI_TPL old;
	bool ok;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	ok = follow_gop(g);
	if (ok)
		clear(g);
	tpl_restore(old);
	return ok ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static EFI_STATUS EFIAPI out_set_cursor_position(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
						 UINTN column, UINTN row)
{
	struct gc *g = gc_from(this);
	EFI_STATUS status = EFI_UNSUPPORTED;
	EFI_TPL old;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (follow_gop(g) && column < current(g)->cols && row < current(g)->rows) {
		hide_cursor(g);
		g->mode.CursorColumn = (INT32)column;
		g->mode.CursorRow = (INT32)row;
		show_cursor(g);
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN visible)
{
	struct gc *g = gc_from(this);
	EFI_TPL old;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (follow_gop(g))
		hide_cursor(g);
	g->mode.CursorVisible = visible;
	if (follow_gop(g))
		show_cursor(g);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN extended)
{
	struct gc *g = gc_from(this);
	EFI_TPL old;
	bool ok;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	g->mode.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE;
	g->mode.CursorVisible = TRUE;
	ok = follow_gop(g);
	if (ok)
		clear(g);
	tpl_restore(old);
	return ok ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static const EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL out_template = {
    .Reset = out_reset,
    .OutputString = out_output_string,
    .TestString = out_test_string,
    .QueryMode = out_query_mode,
    .SetMode = out_set_mode,
    .SetAttribute = out_set_attribute,
    .ClearScreen = out_clear_screen,
    .SetCursorPosition = out_set_cursor_position,
    .EnableCursor = out_enable_cursor,
};

EFI_STATUS gc_out_init(struct gc *g)
{
	EFI_STATUS status;

	g->out = out_template;
	g->out.Mode = &g->mode;
	g->mode = (SIMPLE_TEXT_OUTPUT_MODE){.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE,
					    .CursorVisible = TRUE};
	status = build_modes(g);
	if (!EFI_ERROR(status))
		clear(g);
	return status;
}

void gc_out_fini(struct gc *g)
{
	pool_free(g->line);
	g->line = NULL;
	g->line_cols = 0;
}
