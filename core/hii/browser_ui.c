#define LOG_PREFIX "browser: "
/* The forms browser's screen and keys: one form at a time as lines of text over ConOut
 * (80x25 or whatever mode is set, and the serial console alike), keyboard only. Up/Down
 * choose a question, Enter or space changes it (a checkbox toggles, a one-of takes its next
 * option, a numeric or string is typed on the bottom line, a goto opens its form, an
 * action calls the driver's callback), +/- step a numeric or one-of, F10 saves, Esc goes
 * back a form and, on the first, leaves (asking whether to save changes). */
#include "browser.h"
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

#define PROMPT_COLUMNS 38
#define LINE_MAX BROWSER_LINE_MAX
#define FIRST_ROW 2
#define FOOTER_ROWS 4
#define ATTR_NORMAL EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK)
#define ATTR_SELECTED EFI_TEXT_ATTR(EFI_BLACK, EFI_LIGHTGRAY)
#define ATTR_TITLE EFI_TEXT_ATTR(EFI_WHITE, EFI_BLUE)
#define ATTR_GRAYED EFI_TEXT_ATTR(EFI_DARKGRAY, EFI_BLACK)

static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con(void)
{
	return core_st->ConOut;
}

/* A line of at most cols - 1 characters (the last column would wrap), padded. */
void browser_put_line(const struct browser *b, UINTN row, const CHAR16 *text, UINTN attr)
{
	CHAR16 line[LINE_MAX];
	size_t n = 0, width = b->cols - 1 < LINE_MAX - 1 ? b->cols - 1 : LINE_MAX - 1;

	for (; text[n] && n < width; n++)
		line[n] = text[n];
	while (n < width)
		line[n++] = ' ';
	line[n] = 0;
	con()->SetAttribute(con(), attr);
	con()->SetCursorPosition(con(), 0, row);
	con()->OutputString(con(), line);
}

static void put_ascii(const struct browser *b, UINTN row, const char *text, UINTN attr)
{
	CHAR16 line[LINE_MAX];

	utf8_to_ucs2(line, LINE_MAX, text, str8_len(text));
	browser_put_line(b, row, line, attr);
}

static size_t append(CHAR16 *line, size_t at, const CHAR16 *text)
{
	while (*text && at < LINE_MAX - 1)
		line[at++] = *text++;
	line[at] = 0;
	return at;
}

static size_t append_ascii(CHAR16 *line, size_t at, const char *text)
{
	while (*text && at < LINE_MAX - 1)
		line[at++] = (CHAR16)*text++;
	line[at] = 0;
	return at;
}

/* The text of the one-of's option holding its value. */
static void option_text(struct browser *b, const struct ifr_statement *s, CHAR16 *out)
{
	UINT64 v = browser_value(b, s);

	out[0] = 0;
	for (UINT16 i = 0; i < s->option_count; i++) {
		if (b->fs.options[s->first_option + i].value == v)
			browser_text(b, b->fs.options[s->first_option + i].text, out, LINE_MAX / 2);
	}
}

/* The value column of a statement. */
static void value_text(struct browser *b, const struct ifr_statement *s, CHAR16 *out)
{
	CHAR16 part[LINE_MAX / 2];
	char number[32];
	size_t n = 0;

	out[0] = 0;
	switch (s->kind) {
	case IFR_CHECKBOX:
		append_ascii(out, 0, browser_value(b, s) ? "[X]" : "[ ]");
		break;
	case IFR_NUMERIC:
		format_sn(number, sizeof(number),
			  (s->flags & EFI_IFR_DISPLAY) == EFI_IFR_DISPLAY_UINT_HEX ? "<0x%llx>"
										   : "<%llu>",
			  (unsigned long long)browser_value(b, s));
		append_ascii(out, 0, number);
		break;
	case IFR_ONE_OF:
		option_text(b, s, part);
		n = append_ascii(out, 0, "<");
		n = append(out, n, part);
		append_ascii(out, n, ">");
		break;
	case IFR_STRING:
		browser_string(b, s, part, LINE_MAX / 2);
		n = append_ascii(out, 0, "[");
		n = append(out, n, part);
		append_ascii(out, n, "]");
		break;
	case IFR_TEXT:
		browser_text(b, s->text_two, out, LINE_MAX / 2);
		break;
	case IFR_ORDERED_LIST:
	case IFR_DATE:
	case IFR_TIME:
		browser_edit_value_text(b, s, out, LINE_MAX / 2);
		break;
	default:
		break;
	}
}

static const struct ifr_form *shown(const struct browser *b)
{
	return ifr_form_find(&b->fs, b->stack[b->depth - 1]);
}

static void draw_statement(struct browser *b, const struct ifr_statement *s, UINTN row,
			   bool selected)
{
	CHAR16 line[LINE_MAX], part[LINE_MAX / 2];
	size_t n;

	n = append_ascii(line, 0, selected ? "> " : "  ");
	browser_text(b, s->prompt, part, LINE_MAX / 2);
	n = append(line, n, part);
	if (s->kind == IFR_GOTO)
		n = append_ascii(line, n, " >>");
	while (n < PROMPT_COLUMNS && s->kind != IFR_SUBTITLE)
		line[n++] = ' ';
	line[n] = 0;
	value_text(b, s, part);
	append(line, n, part);
	browser_put_line(b, row, line,
			 selected		? ATTR_SELECTED
			 : browser_grayed(b, s) ? ATTR_GRAYED
						: ATTR_NORMAL);
}

/* The statements of the shown form not hidden, before index `before`. */
static UINTN visible_before(struct browser *b, UINT16 before)
{
	const struct ifr_form *f = shown(b);
	UINTN n = 0;

	for (UINT16 i = 0; i < before && i < f->count; i++)
		n += !browser_hidden(b, &b->fs.stmts[f->first + i]);
	return n;
}

/* The bottom lines: the message (or the driver's error string) and the keys. */
static void draw_footer(struct browser *b)
{
	if (b->error[0])
		browser_put_line(b, b->rows - 2, b->error, ATTR_SELECTED);
	else
		put_ascii(b, b->rows - 2, b->message ? b->message : "", ATTR_NORMAL);
	put_ascii(b, b->rows - 1, "Up/Down move  Enter change  +/- adjust  F10 save  Esc back",
		  ATTR_NORMAL);
}

static void draw(struct browser *b)
{
	const struct ifr_form *f = shown(b);
	UINTN rows = b->rows - FIRST_ROW - FOOTER_ROWS, top = 0, at = 0;
	CHAR16 title[LINE_MAX], part[LINE_MAX / 2];
	size_t n;

	con()->SetAttribute(con(), ATTR_NORMAL);
	con()->ClearScreen(con());
	browser_text(b, b->fs.title, part, LINE_MAX / 2);
	n = append(title, 0, part);
	n = append_ascii(title, n, " - ");
	browser_text(b, f->title, part, LINE_MAX / 2);
	append(title, n, part);
	browser_put_line(b, 0, title, ATTR_TITLE);
	if (visible_before(b, b->selected) >= rows)
		top = visible_before(b, b->selected) - rows + 1;
	for (UINT16 i = 0; i < f->count && at - top < rows; i++) {
		const struct ifr_statement *s = &b->fs.stmts[f->first + i];

		if (browser_hidden(b, s))
			continue;
		if (at >= top)
			draw_statement(b, s, FIRST_ROW + at - top, i == b->selected);
		at++;
	}
	part[0] = 0;
	if (b->selected < f->count) /* a form may have no statements */
		browser_text(b, b->fs.stmts[f->first + b->selected].help, part, LINE_MAX / 2);
	browser_put_line(b, b->rows - 3, part, ATTR_NORMAL);
	draw_footer(b);
	con()->SetAttribute(con(), ATTR_NORMAL);
}

/* Reads a key. */
bool browser_read_key(EFI_INPUT_KEY *key)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = core_st->ConIn;
	UINTN index;

	if (!in)
		return false;
	for (;;) {
		if (!EFI_ERROR(in->ReadKeyStroke(in, key)))
			return true;
		if (EFI_ERROR(event_wait(1, &in->WaitForKey, &index)))
			return false;
	}
}

static bool selectable(struct browser *b, const struct ifr_statement *s)
{
	return s->question_id && !(s->question_flags & EFI_IFR_FLAG_READ_ONLY) &&
	       !browser_hidden(b, s) && !browser_grayed(b, s);
}

/* Moves the selection to the next selectable statement in a direction. */
static void move(struct browser *b, int direction)
{
	const struct ifr_form *f = shown(b);

	for (int i = (int)b->selected + direction; i >= 0 && i < f->count; i += direction) {
		if (selectable(b, &b->fs.stmts[f->first + i])) {
			b->selected = (UINT16)i;
			return;
		}
	}
}

static void first_selectable(struct browser *b)
{
	b->selected = 0;
	if (shown(b)->count && !selectable(b, &b->fs.stmts[shown(b)->first]))
		move(b, 1);
}

/* Honours what a driver's callback asked for (35.5.3 ActionRequest). */
static void after_callback(struct browser *b, EFI_BROWSER_ACTION_REQUEST request)
{
	switch (request) {
	case EFI_BROWSER_ACTION_REQUEST_SUBMIT:
	case EFI_BROWSER_ACTION_REQUEST_FORM_APPLY:
		browser_submit(b);
		break;
	case EFI_BROWSER_ACTION_REQUEST_FORM_SUBMIT_EXIT:
		b->leave = !EFI_ERROR(browser_submit(b));
		break;
	case EFI_BROWSER_ACTION_REQUEST_EXIT:
	case EFI_BROWSER_ACTION_REQUEST_FORM_DISCARD_EXIT:
	case EFI_BROWSER_ACTION_REQUEST_RESET:
		b->leave = true;
		b->request = request;
		break;
	default:
		break;
	}
}

/* Calls the driver's callback for a question: false when CHANGING refused the value. */
bool browser_question_callback(struct browser *b, const struct ifr_statement *s,
			       EFI_BROWSER_ACTION action, UINT64 value)
{
	EFI_BROWSER_ACTION_REQUEST request = EFI_BROWSER_ACTION_REQUEST_NONE;
	EFI_IFR_TYPE_VALUE v = {.u64 = value};
	UINT8 type = s->kind == IFR_ACTION				? EFI_IFR_TYPE_ACTION
		     : s->kind == IFR_CHECKBOX				? EFI_IFR_TYPE_BOOLEAN
		     : s->kind == IFR_STRING || s->kind == IFR_PASSWORD ? EFI_IFR_TYPE_STRING
		     : s->kind == IFR_DATE				? EFI_IFR_TYPE_DATE
		     : s->kind == IFR_TIME				? EFI_IFR_TYPE_TIME
		     : s->width == 8					? EFI_IFR_TYPE_NUM_SIZE_64
		     : s->width == 4					? EFI_IFR_TYPE_NUM_SIZE_32
		     : s->width == 2					? EFI_IFR_TYPE_NUM_SIZE_16
									: EFI_IFR_TYPE_NUM_SIZE_8;
	EFI_STATUS status;

	if (!b->access || !(s->question_flags & EFI_IFR_FLAG_CALLBACK))
		return true;
	if (s->kind == IFR_ACTION)
		v.string = s->config;
	status = b->access->Callback(b->access, action, s->question_id, type, &v, &request);
	if (status == EFI_UNSUPPORTED)
		return true;
	if (EFI_ERROR(status))
		return false;
	after_callback(b, request);
	return true;
}

/* Gives a question a new value, through the driver's callback when it asks for one and
 * unless one of its inconsistentif conditions holds with it. */
void browser_change(struct browser *b, const struct ifr_statement *s, UINT64 value)
{
	UINT64 old = browser_value(b, s);

	if (!browser_question_callback(b, s, EFI_BROWSER_ACTION_CHANGING, value)) {
		b->message = "The driver refused the value.";
		return;
	}
	browser_set_value(b, s, value);
	if (browser_refused(b, s, IFR_COND_INCONSISTENT)) {
		browser_set_value(b, s, old);
		return;
	}
	b->dirty = true;
	browser_question_callback(b, s, EFI_BROWSER_ACTION_CHANGED, value);
}

/* Reads a line typed on the bottom row: false when Esc cancels it. */
static bool read_line(struct browser *b, const char *label, CHAR16 *text, size_t max, bool digits)
{
	return browser_read_line(b, label, text, max, digits ? BROWSER_DIGITS : 0);
}

/* Reads a line typed on the bottom row. */
bool browser_read_line(struct browser *b, const char *label, CHAR16 *text, size_t max, unsigned how)
{
	size_t n = str16_len(text);
	bool digits = how & BROWSER_DIGITS;

	for (;;) {
		CHAR16 line[LINE_MAX];
		EFI_INPUT_KEY key;
		size_t at = append_ascii(line, 0, label);

		if (how & BROWSER_MASKED) {
			for (size_t i = 0; i < n && at < LINE_MAX - 1; i++)
				line[at++] = '*';
			line[at] = 0;
		} else {
			append(line, at, text);
		}
		browser_put_line(b, b->rows - 2, line, ATTR_SELECTED);
		if (!browser_read_key(&key) || key.ScanCode == SCAN_ESC)
			return false;
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN)
			return true;
		if (key.UnicodeChar == CHAR_BACKSPACE && n)
			text[--n] = 0;
		else if (key.UnicodeChar >= ' ' && n < max &&
			 (!digits || (key.UnicodeChar >= '0' && key.UnicodeChar <= '9')))
			text[n++] = key.UnicodeChar, text[n] = 0;
	}
}

static void edit_numeric(struct browser *b, const struct ifr_statement *s)
{
	CHAR16 text[24] = {0};
	char label[64];
	UINT64 v = 0;

	format_sn(label, sizeof(label), "Value (%llu-%llu): ", (unsigned long long)s->min,
		  (unsigned long long)s->max);
	/* 19 digits at most: every such number fits in 64 bits. */
	if (!read_line(b, label, text, 19, true) || !text[0])
		return;
	for (size_t i = 0; text[i]; i++)
		v = v * 10 + (UINT64)(text[i] - '0');
	if (v < s->min || v > s->max) {
		b->message = "Out of range: the value is unchanged.";
		return;
	}
	browser_change(b, s, v);
}

static void edit_string(struct browser *b, const struct ifr_statement *s)
{
	CHAR16 text[LINE_MAX / 2];

	browser_string(b, s, text, LINE_MAX / 2);
	if (!read_line(b, "Text: ", text, s->max_len, false))
		return;
	if (str16_len(text) < s->min_len) {
		b->message = "Too short: the text is unchanged.";
		return;
	}
	if (!browser_question_callback(b, s, EFI_BROWSER_ACTION_CHANGING, 0))
		return;
	browser_set_string(b, s, text);
	b->dirty = true;
}

/* The one-of's shown option after (or before) the current one. */
static UINT64 next_option(struct browser *b, const struct ifr_statement *s, int direction)
{
	UINT64 v = browser_value(b, s);
	int count = s->option_count, at = 0;

	for (int i = 0; i < count; i++) {
		if (b->fs.options[s->first_option + i].value == v)
			at = i;
	}
	for (int tries = 0; tries < count; tries++) {
		at = ((at + direction) % count + count) % count;
		if (!browser_option_hidden(b, &b->fs.options[s->first_option + at]))
			break;
	}
	return b->fs.options[s->first_option + at].value;
}

static void open_form(struct browser *b, const struct ifr_statement *s)
{
	if (s->flags || !ifr_form_find(&b->fs, s->form_id) || b->depth == BROWSER_FORM_DEPTH) {
		b->message = "That form cannot be shown.";
		return;
	}
	b->selected_before[b->depth - 1] = b->selected;
	b->stack[b->depth++] = s->form_id;
	first_selectable(b);
}

/* Enter or space on a question. */
static void activate(struct browser *b, const struct ifr_statement *s)
{
	switch (s->kind) {
	case IFR_CHECKBOX:
		browser_change(b, s, !browser_value(b, s));
		break;
	case IFR_ONE_OF:
		if (s->option_count)
			browser_change(b, s, next_option(b, s, 1));
		break;
	case IFR_NUMERIC:
		edit_numeric(b, s);
		break;
	case IFR_STRING:
		edit_string(b, s);
		break;
	case IFR_GOTO:
		open_form(b, s);
		break;
	case IFR_ORDERED_LIST:
		browser_edit_ordered(b, s);
		break;
	case IFR_DATE:
	case IFR_TIME:
		browser_edit_date_time(b, s);
		break;
	case IFR_PASSWORD:
		browser_password(b, s);
		break;
	case IFR_ACTION:
		browser_question_callback(b, s, EFI_BROWSER_ACTION_CHANGING, 0);
		browser_question_callback(b, s, EFI_BROWSER_ACTION_CHANGED, 0);
		b->message = "Done.";
		break;
	default:
		break;
	}
}

/* + and -: a numeric by its step, a one-of to the neighbouring option. */
static void adjust(struct browser *b, const struct ifr_statement *s, int direction)
{
	UINT64 v = browser_value(b, s), step = s->step ? s->step : 1;

	if (s->kind == IFR_ONE_OF && s->option_count)
		browser_change(b, s, next_option(b, s, direction));
	if (s->kind != IFR_NUMERIC)
		return;
	if (direction > 0 && s->max >= step && v <= s->max - step)
		browser_change(b, s, v + step);
	else if (direction < 0 && v >= s->min + step)
		browser_change(b, s, v - step);
}

/* Esc on the first form: asks about unsaved changes, then leaves. */
static void leave(struct browser *b)
{
	EFI_INPUT_KEY key;

	if (b->depth > 1) {
		b->depth--;
		b->selected = b->selected_before[b->depth - 1];
		return;
	}
	while (b->dirty) {
		put_ascii(b, b->rows - 2, "Save changes? (Y/N, Esc stays)", ATTR_SELECTED);
		if (!browser_read_key(&key) || key.ScanCode == SCAN_ESC)
			return;
		if (key.UnicodeChar == 'y' || key.UnicodeChar == 'Y') {
			if (!EFI_ERROR(browser_submit(b))) {
				b->request = EFI_BROWSER_ACTION_REQUEST_SUBMIT;
				break;
			}
			if (b->error[0])
				return; /* a nosubmitif holds: the user stays to fix it */
			break;
		}
		if (key.UnicodeChar == 'n' || key.UnicodeChar == 'N')
			break;
	}
	b->leave = true;
}

static void save_key(struct browser *b)
{
	if (EFI_ERROR(browser_submit(b))) {
		b->message = b->error[0] ? NULL : "Saving failed.";
		return;
	}
	b->message = "Saved.";
	b->request = EFI_BROWSER_ACTION_REQUEST_SUBMIT;
}

static void on_key(struct browser *b, const EFI_INPUT_KEY *key)
{
	const struct ifr_form *f = shown(b);
	const struct ifr_statement *s = f->count ? &b->fs.stmts[f->first + b->selected] : NULL;
	bool editable = s && selectable(b, s);

	b->message = NULL;
	b->error[0] = 0;
	if (key->ScanCode == SCAN_UP || key->ScanCode == SCAN_DOWN)
		move(b, key->ScanCode == SCAN_UP ? -1 : 1);
	else if (key->ScanCode == SCAN_ESC)
		leave(b);
	else if (key->ScanCode == SCAN_F10)
		save_key(b);
	else if (editable && (key->UnicodeChar == CHAR_CARRIAGE_RETURN || key->UnicodeChar == ' '))
		activate(b, s);
	else if (editable && (key->UnicodeChar == '+' || key->UnicodeChar == '-'))
		adjust(b, s, key->UnicodeChar == '+' ? 1 : -1);
}

/* The selection after the form set was read again: on the same question when it is still
 * in the form, else on the first one that can be chosen. */
static void reread(struct browser *b)
{
	const struct ifr_form *f = shown(b);
	EFI_QUESTION_ID id =
	    b->selected < f->count ? b->fs.stmts[f->first + b->selected].question_id : 0;

	if (!browser_reread(b))
		return;
	f = shown(b);
	for (UINT16 i = 0; id && i < f->count; i++) {
		if (b->fs.stmts[f->first + i].question_id == id &&
		    selectable(b, &b->fs.stmts[f->first + i])) {
			b->selected = i;
			return;
		}
	}
	first_selectable(b);
}

/* Shows the forms until the user leaves. */
void browser_run(struct browser *b)
{
	UINTN cols = 80, rows = 25;
	EFI_INPUT_KEY key;
	int got;

	if (!con())
		return;
	if (con()->Mode)
		con()->QueryMode(con(), (UINTN)con()->Mode->Mode, &cols, &rows);
	b->cols = cols < 40 ? 40 : cols;
	b->rows = rows < 10 ? 10 : rows;
	first_selectable(b);
	while (!b->leave) {
		if (b->list->generation != b->generation)
			reread(b);
		draw(b);
		got = browser_refresh_interval(b)
			  ? browser_read_key_within(browser_refresh_interval(b), &key)
		      : browser_read_key(&key) ? 1
					       : -1;
		if (got < 0)
			break;
		if (got)
			on_key(b, &key);
		else
			browser_refresh(b);
	}
	con()->SetAttribute(con(), ATTR_NORMAL);
	con()->ClearScreen(con());
}
