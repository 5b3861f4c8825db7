/* The interactive line editor on the console: typing and insert/overwrite, cursor keys,
 * Home/End, Backspace/Delete, Esc (clear), history (Up/Down) and Tab completion. Plain
 * typing at the end of the line is echoed as it comes, so that piped input reads as a
 * transcript; edits elsewhere redraw the line from its start. */
#include "internal.h"

struct view {
	struct shell *sh;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con;
	UINTN columns, rows;
	INTN col0, row0; /* where the line starts */
	size_t shown;	 /* characters on the screen */
};

static void view_init(struct view *v, struct shell *sh)
{
	v->sh = sh;
	v->con = sh->con_out;
	v->columns = 80;
	v->rows = 25;
	v->con->QueryMode(v->con, (UINTN)v->con->Mode->Mode, &v->columns, &v->rows);
	v->col0 = v->con->Mode->CursorColumn;
	v->row0 = v->con->Mode->CursorRow;
	v->shown = 0;
}

/* Puts the cursor at offset pos of the line. */
static void view_goto(struct view *v, size_t pos)
{
	UINTN cell = (UINTN)v->col0 + pos;
	INTN row = v->row0 + (INTN)(cell / v->columns);

	if (row < 0)
		row = 0;
	v->con->SetCursorPosition(v->con, cell % v->columns, (UINTN)row);
}

/* The screen scrolls when the line runs past the bottom: the start moves up with it. */
static void view_after_write(struct view *v, size_t end)
{
	INTN last = v->row0 + (INTN)(((UINTN)v->col0 + end) / v->columns);

	if (last > (INTN)v->rows - 1)
		v->row0 -= last - ((INTN)v->rows - 1);
}

static void put(struct view *v, const CHAR16 *s, size_t n)
{
	CHAR16 chunk[65];

	while (n) {
		size_t k = MIN(n, (size_t)64);
		mem_copy(chunk, s, k * sizeof(CHAR16));
		chunk[k] = 0;
		v->con->OutputString(v->con, chunk);
		s += k;
		n -= k;
	}
}

static void redraw(struct view *v, const struct sh_edit *e)
{
	size_t old = v->shown;

	view_goto(v, 0);
	put(v, e->text, e->len);
	for (size_t i = e->len; i < old; i++)
		put(v, u" ", 1);
	view_after_write(v, MAX(old, e->len));
	v->shown = e->len;
	view_goto(v, e->cursor);
}

/* The word under the cursor without its quotes, allocated. */
static CHAR16 *word_at_cursor(const struct sh_edit *e, size_t *start, size_t *end)
{
	struct sh_buf b;

	sh_edit_word(e, start, end);
	sh_buf_init(&b);
	for (size_t i = *start; i < *end; i++)
		if (e->text[i] != '"')
			sh_buf_putc(&b, e->text[i]);
	return sh_buf_take(&b);
}

static void complete(struct view *v, struct sh_edit *e, struct sh_complete *c)
{
	if (!c->active) {
		struct sh_strv cands;
		size_t start, end;
		CHAR16 *word = word_at_cursor(e, &start, &end);
		EFI_STATUS status =
		    word ? sh_complete_candidates(v->sh, word, sh_edit_word_is_command(e, start),
						  &cands)
			 : EFI_OUT_OF_RESOURCES;
		app_free(word);
		if (EFI_ERROR(status))
			return;
		sh_complete_begin(c, &cands, start, end);
	}
	if (sh_complete_next(c, e))
		redraw(v, e);
}

static void history(struct view *v, struct sh_edit *e, bool up)
{
	const CHAR16 *entry =
	    up ? sh_history_up(&v->sh->history) : sh_history_down(&v->sh->history);

	if (!entry && up)
		return;
	sh_edit_set(e, entry ? entry : u"");
	redraw(v, e);
}

/* Handles a typed character. */
static void type_char(struct view *v, struct sh_edit *e, CHAR16 c)
{
	bool at_end = e->cursor == e->len;

	if (!sh_edit_insert(e, c))
		return;
	if (at_end) {
		put(v, &c, 1);
		v->shown = e->len;
		view_after_write(v, e->len);
	} else {
		redraw(v, e);
	}
}

static void backspace(struct view *v, struct sh_edit *e)
{
	bool at_end = e->cursor == e->len;

	if (!sh_edit_backspace(e))
		return;
	if (at_end && v->con->Mode->CursorColumn > 0) {
		put(v, u"\b \b", 3);
		v->shown = e->len;
	} else {
		redraw(v, e);
	}
}

/* Handles a key without a character; false when it means nothing here. */
static bool scan_key(struct view *v, struct sh_edit *e, UINT16 scan)
{
	switch (scan) {
	case SCAN_LEFT:
		if (sh_edit_left(e))
			view_goto(v, e->cursor);
		return true;
	case SCAN_RIGHT:
		if (sh_edit_right(e))
			view_goto(v, e->cursor);
		return true;
	case SCAN_HOME:
		sh_edit_home(e);
		view_goto(v, e->cursor);
		return true;
	case SCAN_END:
		sh_edit_end(e);
		view_goto(v, e->cursor);
		return true;
	case SCAN_DELETE:
		if (sh_edit_delete(e))
			redraw(v, e);
		return true;
	case SCAN_INSERT:
		e->overwrite = !e->overwrite;
		return true;
	case SCAN_UP:
	case SCAN_DOWN:
		history(v, e, scan == SCAN_UP);
		return true;
	case SCAN_ESC:
		sh_edit_clear(e);
		redraw(v, e);
		return true;
	}
	return false;
}

/* Reads keys into the line until Enter (or Ctrl-C, which drops it). EFI_ABORTED: input
 * ended before anything was typed; a last line without its line end still counts, as in
 * other shells. */
static EFI_STATUS edit_keys(struct shell *sh, struct view *v)
{
	struct sh_edit *e = &sh->edit;
	struct sh_complete *c = &sh->complete;
	EFI_INPUT_KEY key;

	for (;;) {
		CHAR16 ch;
		if (EFI_ERROR(sh_read_key(sh, &key)))
			return e->len ? EFI_SUCCESS : EFI_ABORTED;
		ch = key.UnicodeChar;
		if (ch != CHAR_TAB)
			sh_complete_reset(c);
		if (ch == CHAR_CARRIAGE_RETURN || ch == CHAR_LINEFEED)
			return EFI_SUCCESS;
		if (ch == 3) { /* Ctrl-C: the line is dropped */
			view_goto(v, v->shown);
			sh_edit_clear(e);
			return EFI_SUCCESS;
		}
		if (ch == CHAR_TAB)
			complete(v, e, c);
		else if (ch == CHAR_BACKSPACE)
			backspace(v, e);
		else if (ch >= ' ')
			type_char(v, e, ch);
		else if (!ch)
			scan_key(v, e, key.ScanCode);
	}
}

EFI_STATUS sh_read_line(struct shell *sh, const CHAR16 *prompt, CHAR16 **line)
{
	struct sh_edit *e = &sh->edit;
	struct view v;

	if (!sh->con_in || !sh->con_out)
		return EFI_ABORTED;
	sh->con_out->OutputString(sh->con_out, (CHAR16 *)prompt);
	view_init(&v, sh);
	sh_edit_clear(e);
	e->overwrite = false;
	sh_complete_reset(&sh->complete);
	if (EFI_ERROR(edit_keys(sh, &v)))
		return EFI_ABORTED;
	if (e->len)
		view_goto(&v, e->len);
	sh->con_out->OutputString(sh->con_out, (CHAR16 *)u"\r\n");
	/* A line that lost a key is not what was typed: it must not run, not even in part. */
	if (e->lost) {
		sh_error(sh, "the line is too long for the memory left: it does not run\n");
		sh_edit_clear(e);
	}
	sh_history_add(&sh->history, e->text);
	*line = sh_strdup16(e->text);
	return *line ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}
