/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) on a host file descriptor.
 * On a terminal, attributes become ANSI colours and the cursor is moved with escape
 * sequences; anywhere else (a pipe, a file) the output is the plain UTF-8 text, with the
 * firmware's CR LF line ends turned into the host's LF. Mode tracks the cursor either way. */
#include <sys/ioctl.h>
#include <unistd.h>

#include <ember/core.h>
#include <ember/str.h>
#include "console.h"

#define CON_OUT_SIGNATURE SIGNATURE_32('h', 'c', 'o', 'u')
#define DEFAULT_ATTRIBUTE EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK)
#define MAX_TEXT_MODES 3
#define TAB_STOP 8

/* Markers that switch HII glyph widths; they take no cell (UEFI 2.10, 34.8.2). */
#define NARROW_CHAR 0xfff1
#define WIDE_CHAR 0xfff2

struct text_mode {
	UINT32 columns, rows;
	bool usable; /* a mode the terminal is too small for is listed but refused */
};

struct con_out {
	UINT32 signature;
	int fd;
	bool tty;
	UINT32 term_rows; /* the terminal's height, 0 when unknown */
	EFI_HANDLE handle;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL proto;
	SIMPLE_TEXT_OUTPUT_MODE mode;
	struct text_mode modes[MAX_TEXT_MODES];
	struct console_path path;
	/* Plain text only: a CR held until we know whether an LF follows it, and whether the
	 * last thing written was an LF (whose trailing CR is dropped). */
	bool held_cr, after_lf;
	/* Terminal state to undo at exit. */
	volatile bool colors_set, cursor_hidden, region_set;
};

/* The devices console_out_restore visits (stdout and stderr). */
static struct con_out *volatile devices[2];

/* Bytes on their way to the descriptor: escapes and text collected, then written at once. */
struct out_buf {
	int fd;
	bool failed;
	size_t len;
	char data[512];
};

static void ob_flush(struct out_buf *b)
{
	if (b->len && !console_write_all(b->fd, b->data, b->len))
		b->failed = true;
	b->len = 0;
}

static void ob_put(struct out_buf *b, const char *s, size_t n)
{
	while (n) {
		size_t k = MIN(n, sizeof(b->data) - b->len);

		mem_copy(b->data + b->len, s, k);
		b->len += k;
		s += k;
		n -= k;
		if (b->len == sizeof(b->data))
			ob_flush(b);
	}
}

static void ob_puts(struct out_buf *b, const char *s)
{
	ob_put(b, s, str8_len(s));
}

static void ob_num(struct out_buf *b, UINT32 v)
{
	char digits[10];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ob_put(b, digits + sizeof(digits) - n, n);
}

/* CUP: the terminal cursor to a cell (1-based on the wire). */
static void ob_goto(struct out_buf *b, UINT32 column, UINT32 row)
{
	ob_puts(b, "\x1b[");
	ob_num(b, row + 1);
	ob_puts(b, ";");
	ob_num(b, column + 1);
	ob_puts(b, "H");
}

static struct con_out *con_out_from(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct con_out *c;

	if (!this)
		return NULL;
	c = container_of(this, struct con_out, proto);
	return c->signature == CON_OUT_SIGNATURE ? c : NULL;
}

static const struct text_mode *current_mode(const struct con_out *c)
{
	return &c->modes[c->mode.Mode];
}

/* ---- Writing text ---- */

/* Characters a UTF-8 terminal shows in one cell; other control codes and lone surrogate
 * halves are unknown glyphs (12.4.3: only NUL, BS, LF and CR may appear; TAB is taken too). */
static bool glyph_known(CHAR16 c)
{
	if (c < 0x20 || (c >= 0x7f && c < 0xa0))
		return false;
	return (c < 0xd800 || c > 0xdfff) && c != 0xfffe && c != 0xffff;
}

/* Plain text: a held CR that turned out to stand alone goes out now. */
static void release_cr(struct con_out *c, struct out_buf *b)
{
	if (c->tty)
		return;
	if (c->held_cr)
		ob_put(b, "\r", 1);
	c->held_cr = false;
	c->after_lf = false;
}

/* Moves the cursor down a row; at the bottom the screen scrolls and the row stays. */
static void cursor_down(struct con_out *c)
{
	if ((UINT32)c->mode.CursorRow + 1 < current_mode(c)->rows)
		c->mode.CursorRow++;
}

static void put_glyph(struct con_out *c, struct out_buf *b, CHAR16 ch)
{
	char utf8[4];
	size_t n = ucs2_to_utf8(utf8, sizeof(utf8), &ch, 1);

	release_cr(c, b);
	ob_put(b, utf8, n);
	if ((UINT32)++c->mode.CursorColumn < current_mode(c)->columns)
		return;
	/* Past the right edge: the line wraps as CR LF would (12.4.3). A terminal wider than the
	 * mode would not wrap, one exactly as wide waits at its edge; CR LF suits both. */
	c->mode.CursorColumn = 0;
	cursor_down(c);
	if (c->tty)
		ob_puts(b, "\r\n");
}

static void put_line_feed(struct con_out *c, struct out_buf *b)
{
	cursor_down(c);
	if (c->tty) {
		/* LF keeps the column; a tty's ONLCR would not, IND (ESC D) does. */
		ob_puts(b, c->mode.CursorColumn ? "\033D" : "\n");
		return;
	}
	ob_put(b, "\n", 1);
	c->after_lf = !c->held_cr; /* "\n\r" is one line end, so is "\r\n" */
	c->held_cr = false;
}

static void put_carriage_return(struct con_out *c, struct out_buf *b)
{
	c->mode.CursorColumn = 0;
	if (c->tty) {
		ob_put(b, "\r", 1);
	} else if (c->after_lf) {
		c->after_lf = false;
	} else {
		if (c->held_cr)
			ob_put(b, "\r", 1);
		c->held_cr = true;
	}
}

static void put_backspace(struct con_out *c, struct out_buf *b)
{
	if (c->mode.CursorColumn == 0)
		return;
	release_cr(c, b);
	c->mode.CursorColumn--;
	ob_put(b, "\b", 1);
}

static void put_tab(struct con_out *c, struct out_buf *b)
{
	UINT32 next = ((UINT32)c->mode.CursorColumn / TAB_STOP + 1) * TAB_STOP;

	release_cr(c, b);
	c->mode.CursorColumn = (INT32)MIN(next, current_mode(c)->columns - 1);
	ob_put(b, "\t", 1);
}

static EFI_STATUS con_out_write(struct con_out *c, const CHAR16 *s)
{
	struct out_buf b = {.fd = c->fd};
	bool unknown = false;

	for (; *s; s++) {
		if (*s == CHAR_LINEFEED)
			put_line_feed(c, &b);
		else if (*s == CHAR_CARRIAGE_RETURN)
			put_carriage_return(c, &b);
		else if (*s == CHAR_BACKSPACE)
			put_backspace(c, &b);
		else if (*s == CHAR_TAB)
			put_tab(c, &b);
		else if (glyph_known(*s))
			put_glyph(c, &b, *s);
		else if (*s != NARROW_CHAR && *s != WIDE_CHAR)
			unknown = true;
	}
	ob_flush(&b);
	if (b.failed)
		return EFI_DEVICE_ERROR;
	return unknown ? EFI_WARN_UNKNOWN_GLYPH : EFI_SUCCESS;
}

/* ---- Terminal control ---- */

/* SGR for the current attribute: the spec's default is the terminal's own colours. */
static void put_attribute(struct con_out *c, struct out_buf *b)
{
	static const char ansi_digit[8] = {'0', '4', '2', '6', '1', '5', '3', '7'};
	UINT32 attr = (UINT32)c->mode.Attribute, fg = attr & 0x0f, bg = (attr >> 4) & 0x07;

	if (!c->tty)
		return;
	if (attr == DEFAULT_ATTRIBUTE) {
		ob_puts(b, "\x1b[0m");
		c->colors_set = false;
		return;
	}
	ob_puts(b, fg & EFI_BRIGHT ? "\x1b[0;9" : "\x1b[0;3");
	ob_put(b, &ansi_digit[fg & 7], 1);
	ob_puts(b, ";4");
	ob_put(b, &ansi_digit[bg], 1);
	ob_puts(b, "m");
	c->colors_set = true;
}

/* A mode shorter than the terminal scrolls within its own rows. DECSTBM homes the cursor,
 * so this is only done when clearing. */
static void put_scroll_region(struct con_out *c, struct out_buf *b)
{
	UINT32 rows = current_mode(c)->rows;

	if (c->term_rows > rows) {
		ob_puts(b, "\x1b[1;");
		ob_num(b, rows);
		ob_puts(b, "r");
		c->region_set = true;
	} else if (c->region_set) {
		ob_puts(b, "\x1b[r");
		c->region_set = false;
	}
}

static EFI_STATUS con_out_clear(struct con_out *c)
{
	struct out_buf b = {.fd = c->fd};

	c->mode.CursorColumn = 0;
	c->mode.CursorRow = 0;
	if (!c->tty)
		return EFI_SUCCESS;
	put_scroll_region(c, &b);
	ob_puts(&b, "\x1b[H\x1b[2J");
	ob_flush(&b);
	return b.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS con_out_set_attribute(struct con_out *c, UINT32 attribute)
{
	struct out_buf b = {.fd = c->fd};

	c->mode.Attribute = (INT32)attribute;
	put_attribute(c, &b);
	ob_flush(&b);
	return b.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS con_out_show_cursor(struct con_out *c, bool visible)
{
	struct out_buf b = {.fd = c->fd};

	c->mode.CursorVisible = visible;
	if (c->tty) {
		ob_puts(&b, visible ? "\x1b[?25h" : "\x1b[?25l");
		c->cursor_hidden = !visible;
	}
	ob_flush(&b);
	return b.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

/* ---- Protocol functions ---- */

static EFI_STATUS EFIAPI con_out_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
				       BOOLEAN extended_verification)
{
	struct con_out *c = con_out_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	status = con_out_set_attribute(c, DEFAULT_ATTRIBUTE);
	if (!EFI_ERROR(status))
		status = con_out_show_cursor(c, true);
	if (!EFI_ERROR(status))
		status = con_out_clear(c);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI con_out_output_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
					       CHAR16 *string)
{
	struct con_out *c = con_out_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!c || !string)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	status = con_out_write(c, string);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI con_out_test_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	if (!con_out_from(this) || !string)
		return EFI_INVALID_PARAMETER;
	for (; *string; string++) {
		CHAR16 ch = *string;
		bool control = ch == CHAR_LINEFEED || ch == CHAR_CARRIAGE_RETURN ||
			       ch == CHAR_BACKSPACE || ch == CHAR_TAB;

		if (!control && !glyph_known(ch) && ch != NARROW_CHAR && ch != WIDE_CHAR)
			return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI con_out_query_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
					    UINTN mode_number, UINTN *columns, UINTN *rows)
{
	struct con_out *c = con_out_from(this);

	if (!c || !columns || !rows)
		return EFI_INVALID_PARAMETER;
	if (mode_number >= (UINTN)c->mode.MaxMode || !c->modes[mode_number].usable)
		return EFI_UNSUPPORTED;
	*columns = c->modes[mode_number].columns;
	*rows = c->modes[mode_number].rows;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI con_out_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode_number)
{
	struct con_out *c = con_out_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	if (mode_number >= (UINTN)c->mode.MaxMode || !c->modes[mode_number].usable)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	c->mode.Mode = (INT32)mode_number;
	status = con_out_clear(c);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI con_out_set_attribute_entry(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
						     UINTN attribute)
{
	struct con_out *c = con_out_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	/* Bits 7 and up "must be zero" (12.4.7); like other firmware, refuse them. */
	if (attribute > 0x7f)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	status = con_out_set_attribute(c, (UINT32)attribute);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI con_out_clear_screen(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct con_out *c = con_out_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	status = con_out_clear(c);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI con_out_set_cursor_position(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
						     UINTN column, UINTN row)
{
	struct con_out *c = con_out_from(this);
	struct out_buf b;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	if (column >= current_mode(c)->columns || row >= current_mode(c)->rows)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	b = (struct out_buf){.fd = c->fd};
	c->mode.CursorColumn = (INT32)column;
	c->mode.CursorRow = (INT32)row;
	if (c->tty)
		ob_goto(&b, (UINT32)column, (UINT32)row);
	ob_flush(&b);
	tpl_restore(old);
	return b.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI con_out_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
					       BOOLEAN visible)
{
	struct con_out *c = con_out_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	status = con_out_show_cursor(c, visible);
	tpl_restore(old);
	return status;
}

/* ---- Creation and exit ---- */

/* Mode 0 is 80x25 and mode 1 80x50 (12.4.5); a terminal of another size adds mode 2 with
 * its real size and starts in it. A terminal lower than 50 rows cannot show mode 1. */
static void probe_modes(struct con_out *c)
{
	struct winsize ws;

	c->modes[0] = (struct text_mode){80, 25, true};
	c->modes[1] = (struct text_mode){80, 50, true};
	c->mode.MaxMode = 2;
	c->mode.Mode = 0;
	if (!c->tty || ioctl(c->fd, TIOCGWINSZ, &ws) != 0 || !ws.ws_col || !ws.ws_row)
		return;
	c->term_rows = ws.ws_row;
	c->modes[1].usable = ws.ws_col >= 80 && ws.ws_row >= 50;
	for (INT32 i = 0; i < 2; i++)
		if (ws.ws_col == c->modes[i].columns && ws.ws_row == c->modes[i].rows) {
			c->mode.Mode = i;
			return;
		}
	c->modes[2] = (struct text_mode){ws.ws_col, ws.ws_row, true};
	c->mode.MaxMode = 3;
	c->mode.Mode = 2;
}

static const EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL con_out_template = {
    .Reset = con_out_reset,
    .OutputString = con_out_output_string,
    .TestString = con_out_test_string,
    .QueryMode = con_out_query_mode,
    .SetMode = con_out_set_mode,
    .SetAttribute = con_out_set_attribute_entry,
    .ClearScreen = con_out_clear_screen,
    .SetCursorPosition = con_out_set_cursor_position,
    .EnableCursor = con_out_enable_cursor,
};

EFI_STATUS console_out_create(int fd, const EFI_GUID *device, EFI_HANDLE *handle,
			      EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL **out)
{
	static const EFI_GUID text_out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
	static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	struct con_out *c;
	EFI_STATUS status;
	size_t slot;

	for (slot = 0; slot < ARRAY_SIZE(devices) && devices[slot]; slot++)
		;
	if (slot == ARRAY_SIZE(devices))
		return EFI_OUT_OF_RESOURCES;
	c = pool_alloc(sizeof(*c));
	if (!c)
		return EFI_OUT_OF_RESOURCES;
	c->signature = CON_OUT_SIGNATURE;
	c->fd = fd;
	c->tty = isatty(fd);
	c->proto = con_out_template;
	c->proto.Mode = &c->mode;
	c->mode.Attribute = DEFAULT_ATTRIBUTE;
	c->mode.CursorVisible = TRUE;
	probe_modes(c);
	console_path_init(&c->path, device);
	status = protocol_install_multiple(&c->handle, &text_out_guid, &c->proto, &path_guid,
					   &c->path, NULL);
	if (EFI_ERROR(status)) {
		pool_free(c);
		return status;
	}
	devices[slot] = c;
	*handle = c->handle;
	*out = &c->proto;
	return EFI_SUCCESS;
}

static void restore_device(struct con_out *c)
{
	struct out_buf b = {.fd = c->fd};

	if (c->held_cr)
		ob_put(&b, "\r", 1);
	c->held_cr = false;
	if (c->colors_set)
		ob_puts(&b, "\x1b[0m");
	if (c->cursor_hidden)
		ob_puts(&b, "\x1b[?25h");
	if (c->region_set) {
		/* Resetting the region homes the cursor: put it back below the output. */
		ob_puts(&b, "\x1b[r");
		ob_goto(&b, (UINT32)c->mode.CursorColumn, (UINT32)c->mode.CursorRow);
	}
	c->colors_set = c->cursor_hidden = c->region_set = false;
	ob_flush(&b);
}

void console_out_restore(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++)
		if (devices[i])
			restore_device(devices[i]);
}
