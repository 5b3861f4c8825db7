/* OutputString's characters (UEFI 2.10, 12.4.3) as every text output moves its cursor for
 * them: runs of characters that take a cell are handed to the device whole, up to the
 * right margin; CR, LF, BS and TAB move the cursor; past the last column the line wraps;
 * at the bottom the screen scrolls and the row stays. */
#include <ember/lib/text_out.h>
#include <efi/protocol/simple_text_input.h>
#include "text_output_internal.h"

static const CHAR16 spaces[TEXT_OUT_TAB_STOP] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};

/* Printable ASCII, the common case, is decided without a call. */
static bool takes_cell(CHAR16 c)
{
	if (c >= 0x20 && c < 0x7f)
		return true;
	return text_out_glyph_known(c) && !text_out_width_marker(c);
}

/* Down a row; from the last row the screen scrolls instead. */
static void cursor_down(struct text_output *t, const struct text_output_ops *ops)
{
	if ((UINT32)t->mode.CursorRow + 1 < t->rows)
		t->mode.CursorRow++;
	else if (ops->scroll)
		ops->scroll(t);
}

/* Draws the run of cell-taking characters at text, at most up to the right margin, and
 * wraps when it reaches it. Returns how many characters it took (at least one). */
static UINT32 put_run(struct text_output *t, const struct text_output_ops *ops, const CHAR16 *text,
		      bool *all_known)
{
	UINT32 room = t->cols - (UINT32)t->mode.CursorColumn, n = 1;

	while (n < room && takes_cell(text[n]))
		n++;
	*all_known &= ops->draw(t, text, n);
	t->mode.CursorColumn += (INT32)n;
	if (n == room) {
		if (ops->wrap)
			ops->wrap(t);
		t->mode.CursorColumn = 0;
		cursor_down(t, ops);
	}
	return n;
}

static void put_tab(struct text_output *t, const struct text_output_ops *ops)
{
	UINT32 col = (UINT32)t->mode.CursorColumn, next = text_out_tab_stop(col, t->cols);

	if (ops->tab)
		ops->tab(t, next);
	else if (next > col)
		ops->draw(t, spaces, next - col);
	t->mode.CursorColumn = (INT32)next;
}

/* A character that takes no cell; false for one that is not known. */
static bool put_control(struct text_output *t, const struct text_output_ops *ops, CHAR16 c)
{
	switch (c) {
	case CHAR_CARRIAGE_RETURN:
		if (ops->carriage_return)
			ops->carriage_return(t);
		t->mode.CursorColumn = 0;
		return true;
	case CHAR_LINEFEED:
		if (ops->line_feed)
			ops->line_feed(t);
		cursor_down(t, ops);
		return true;
	case CHAR_BACKSPACE:
		if (t->mode.CursorColumn == 0)
			return true;
		if (ops->backspace)
			ops->backspace(t);
		t->mode.CursorColumn--;
		return true;
	case CHAR_TAB:
		put_tab(t, ops);
		return true;
	default:
		/* Width markers only switch glyph widths (34.8.2); the rest is skipped. */
		return text_out_width_marker(c);
	}
}

EFI_STATUS text_output_write(struct text_output *t, const struct text_output_ops *ops,
			     const CHAR16 *string)
{
	bool all_known = true;

	while (*string) {
		if (takes_cell(*string)) {
			string += put_run(t, ops, string, &all_known);
			continue;
		}
		all_known &= put_control(t, ops, *string++);
	}
	return all_known ? EFI_SUCCESS : EFI_WARN_UNKNOWN_GLYPH;
}

EFI_STATUS text_output_test(const CHAR16 *string)
{
	for (; *string; string++) {
		CHAR16 c = *string;

		if (c != CHAR_CARRIAGE_RETURN && c != CHAR_LINEFEED && c != CHAR_BACKSPACE &&
		    c != CHAR_TAB && !takes_cell(c) && !text_out_width_marker(c))
			return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

static bool draw_nothing(struct text_output *t, const CHAR16 *text, UINT32 n)
{
	return true;
}

EFI_STATUS text_output_track(struct text_output *t, const CHAR16 *string)
{
	static const struct text_output_ops track_ops = {.draw = draw_nothing};

	if (!t->cols)
		return EFI_UNSUPPORTED; /* no text mode to move in */
	return text_output_write(t, &track_ops, string);
}
