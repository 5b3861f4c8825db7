/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) on a host file descriptor.
 * On a terminal, attributes become ANSI colours and the cursor is moved with escape
 * sequences; anywhere else (a pipe, a file) the output is the plain UTF-8 text, with the
 * firmware's CR LF line ends turned into the host's LF. Mode tracks the cursor either way. */
#include <sys/ioctl.h>
#include <unistd.h>

#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include <ember/lib/vt_out.h>
#include "console.h"

#define CON_OUT_SIGNATURE SIGNATURE_32('h', 'c', 'o', 'u')
#define MAX_TEXT_MODES 3

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

/* Where a call's bytes go: escapes and text are collected in a vt_sink, then written. */
struct out_buf {
	struct vt_sink sink;
	int fd;
	bool failed;
};

static void fd_write(void *ctx, const UINT8 *bytes, size_t n)
{
	struct out_buf *b = ctx;

	if (!console_write_all(b->fd, (const char *)bytes, n))
		b->failed = true;
}

/* Starts collecting bytes for c's descriptor (b is the sink's context). */
static struct vt_sink *ob_begin(struct out_buf *b, const struct con_out *c)
{
	*b = (struct out_buf){.sink = {.write = fd_write, .ctx = b}, .fd = c->fd};
	return &b->sink;
}

/* Writes what is left; EFI_DEVICE_ERROR when any write failed. */
static EFI_STATUS ob_end(struct out_buf *b)
{
	vt_flush(&b->sink);
	return b->failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
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

/* Plain text: a held CR that turned out to stand alone goes out now. */
static void release_cr(struct con_out *c, struct vt_sink *v)
{
	if (c->tty)
		return;
	if (c->held_cr)
		vt_put(v, "\r", 1);
	c->held_cr = false;
	c->after_lf = false;
}

/* Moves the cursor down a row; at the bottom the screen scrolls and the row stays. */
static void cursor_down(struct con_out *c)
{
	if ((UINT32)c->mode.CursorRow + 1 < current_mode(c)->rows)
		c->mode.CursorRow++;
}

static void put_glyph(struct con_out *c, struct vt_sink *v, CHAR16 ch)
{
	char utf8[4];
	size_t n = ucs2_to_utf8(utf8, sizeof(utf8), &ch, 1);

	release_cr(c, v);
	vt_put(v, utf8, n);
	if ((UINT32)++c->mode.CursorColumn < current_mode(c)->columns)
		return;
	/* Past the right edge: the line wraps as CR LF would (12.4.3). A terminal wider than the
	 * mode would not wrap, one exactly as wide waits at its edge; CR LF suits both. */
	c->mode.CursorColumn = 0;
	cursor_down(c);
	if (c->tty)
		vt_put_str(v, "\r\n");
}

static void put_line_feed(struct con_out *c, struct vt_sink *v)
{
	cursor_down(c);
	if (c->tty) {
		/* LF keeps the column; a tty's ONLCR would not, IND (ESC D) does. */
		vt_put_str(v, c->mode.CursorColumn ? "\033D" : "\n");
		return;
	}
	vt_put(v, "\n", 1);
	c->after_lf = !c->held_cr; /* "\n\r" is one line end, so is "\r\n" */
	c->held_cr = false;
}

static void put_carriage_return(struct con_out *c, struct vt_sink *v)
{
	c->mode.CursorColumn = 0;
	if (c->tty) {
		vt_put(v, "\r", 1);
	} else if (c->after_lf) {
		c->after_lf = false;
	} else {
		if (c->held_cr)
			vt_put(v, "\r", 1);
		c->held_cr = true;
	}
}

static void put_backspace(struct con_out *c, struct vt_sink *v)
{
	if (c->mode.CursorColumn == 0)
		return;
	release_cr(c, v);
	c->mode.CursorColumn--;
	vt_put(v, "\b", 1);
}

static void put_tab(struct con_out *c, struct vt_sink *v)
{
	release_cr(c, v);
	c->mode.CursorColumn =
	    (INT32)text_out_tab_stop((UINT32)c->mode.CursorColumn, current_mode(c)->columns);
	vt_put(v, "\t", 1);
}

static EFI_STATUS con_out_write(struct con_out *c, const CHAR16 *s)
{
	struct out_buf b;
	struct vt_sink *v = ob_begin(&b, c);
	bool unknown = false;
	EFI_STATUS status;

	for (; *s; s++) {
		if (*s == CHAR_LINEFEED)
			put_line_feed(c, v);
		else if (*s == CHAR_CARRIAGE_RETURN)
			put_carriage_return(c, v);
		else if (*s == CHAR_BACKSPACE)
			put_backspace(c, v);
		else if (*s == CHAR_TAB)
			put_tab(c, v);
		else if (text_out_glyph_known(*s))
			put_glyph(c, v, *s);
		else if (!text_out_width_marker(*s))
			unknown = true;
	}
	status = ob_end(&b);
	if (EFI_ERROR(status))
		return status;
	return unknown ? EFI_WARN_UNKNOWN_GLYPH : EFI_SUCCESS;
}

/* ---- Terminal control ---- */

/* A mode shorter than the terminal scrolls within its own rows. DECSTBM homes the cursor,
 * so this is only done when clearing. */
static void put_scroll_region(struct con_out *c, struct vt_sink *v)
{
	UINT32 rows = current_mode(c)->rows;

	if (c->term_rows > rows) {
		vt_put_str(v, "\x1b[1;");
		vt_put_num(v, rows);
		vt_put_str(v, "r");
		c->region_set = true;
	} else if (c->region_set) {
		vt_put_str(v, "\x1b[r");
		c->region_set = false;
	}
}

static EFI_STATUS con_out_clear(struct con_out *c)
{
	struct out_buf b;
	struct vt_sink *v;

	c->mode.CursorColumn = 0;
	c->mode.CursorRow = 0;
	if (!c->tty)
		return EFI_SUCCESS;
	v = ob_begin(&b, c);
	put_scroll_region(c, v);
	vt_put_str(v, "\x1b[H\x1b[2J");
	return ob_end(&b);
}

/* On a terminal, SGR for the attribute: the spec's default is the terminal's own colours. */
static EFI_STATUS con_out_set_attribute(struct con_out *c, UINT32 attribute)
{
	struct out_buf b;
	struct vt_sink *v = ob_begin(&b, c);

	c->mode.Attribute = (INT32)attribute;
	if (c->tty) {
		vt_attribute(v, attribute);
		c->colors_set = attribute != TEXT_OUT_DEFAULT_ATTRIBUTE;
	}
	return ob_end(&b);
}

static EFI_STATUS con_out_show_cursor(struct con_out *c, bool visible)
{
	struct out_buf b;
	struct vt_sink *v = ob_begin(&b, c);

	c->mode.CursorVisible = visible;
	if (c->tty) {
		vt_show_cursor(v, visible);
		c->cursor_hidden = !visible;
	}
	return ob_end(&b);
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
	status = con_out_set_attribute(c, TEXT_OUT_DEFAULT_ATTRIBUTE);
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

		if (!control && !text_out_glyph_known(ch) && !text_out_width_marker(ch))
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
	struct vt_sink *v;
	EFI_STATUS status;
	EFI_TPL old;

	if (!c)
		return EFI_INVALID_PARAMETER;
	if (column >= current_mode(c)->columns || row >= current_mode(c)->rows)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	v = ob_begin(&b, c);
	c->mode.CursorColumn = (INT32)column;
	c->mode.CursorRow = (INT32)row;
	if (c->tty)
		vt_goto(v, (UINT32)column, (UINT32)row);
	status = ob_end(&b);
	tpl_restore(old);
	return status;
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
	c->mode.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE;
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
	struct out_buf b;
	struct vt_sink *v = ob_begin(&b, c);

	if (c->held_cr)
		vt_put(v, "\r", 1);
	c->held_cr = false;
	if (c->colors_set)
		vt_put_str(v, "\x1b[0m");
	if (c->cursor_hidden)
		vt_put_str(v, "\x1b[?25h");
	if (c->region_set) {
		/* Resetting the region homes the cursor: put it back below the output. */
		vt_put_str(v, "\x1b[r");
		vt_goto(v, (UINT32)c->mode.CursorColumn, (UINT32)c->mode.CursorRow);
	}
	c->colors_set = c->cursor_hidden = c->region_set = false;
	ob_end(&b);
}

void console_out_restore(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++)
		if (devices[i])
			restore_device(devices[i]);
}
