/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) on a host file descriptor, as a device
 * of the text output front end (drivers/text_output), which checks the calls and moves the
 * cursor. On a terminal, attributes become ANSI colours and the cursor is moved with escape
 * sequences; anywhere else (a pipe, a file) the output is the plain UTF-8 text, with the
 * firmware's CR LF line ends turned into the host's LF. */
#include <sys/ioctl.h>
#include <unistd.h>

#include <ember/core/core.h>
#include <ember/drivers/text_output.h>
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include <ember/lib/vt_out.h>
#include "console.h"
#include <ember/lib/guids.h>

#define MAX_TEXT_MODES 3

struct text_mode {
	UINT32 columns, rows;
	bool usable; /* a mode the terminal is too small for is listed but refused */
};

/* Where a call's bytes go: escapes and text are collected in a vt_sink, then written. */
struct out_buf {
	struct vt_sink sink;
	int fd;
	bool failed;
};

struct con_out {
	int fd;
	bool tty;
	UINT32 term_rows; /* the terminal's height, 0 when unknown */
	EFI_HANDLE handle;
	struct text_output text; /* SimpleTextOut: text.out */
	struct out_buf buf;	 /* what the current call writes */
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

static void fd_write(void *ctx, const UINT8 *bytes, size_t n)
{
	struct out_buf *b = ctx;

	if (!console_write_all(b->fd, (const char *)bytes, n))
		b->failed = true;
}

/* Starts collecting bytes for descriptor fd. */
static struct vt_sink *ob_begin(struct out_buf *b, int fd)
{
	*b = (struct out_buf){.sink = {.write = fd_write, .ctx = b}, .fd = fd};
	return &b->sink;
}

/* Writes what is left; EFI_DEVICE_ERROR when any write failed since the last time. */
static EFI_STATUS ob_end(struct out_buf *b)
{
	bool failed;

	vt_flush(&b->sink);
	failed = b->failed;
	b->failed = false;
	return failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static struct con_out *con_out_of(struct text_output *text)
{
	return container_of(text, struct con_out, text);
}

static struct vt_sink *sink_of(struct text_output *text)
{
	return &con_out_of(text)->buf.sink;
}

/* ---- Writing text ---- */

/* Plain text: a held CR that turned out to stand alone goes out now. */
static void release_cr(struct con_out *c)
{
	if (c->tty)
		return;
	if (c->held_cr)
		vt_put(&c->buf.sink, "\r", 1);
	c->held_cr = false;
	c->after_lf = false;
}

static bool con_out_draw(struct text_output *text, const CHAR16 *chars, UINT32 n)
{
	release_cr(con_out_of(text));
	vt_put_ucs2(sink_of(text), chars, n);
	return true;
}

/* Past the right edge the line wraps as CR LF would (12.4.3). A terminal wider than the
 * mode would not wrap, one exactly as wide waits at its edge; CR LF suits both. */
static void con_out_wrap(struct text_output *text)
{
	if (con_out_of(text)->tty)
		vt_put_str(sink_of(text), "\r\n");
}

static void con_out_line_feed(struct text_output *text)
{
	struct con_out *c = con_out_of(text);

	if (c->tty) {
		/* LF keeps the column; a tty's ONLCR would not, IND (ESC D) does. */
		vt_put_str(sink_of(text), text->mode.CursorColumn ? "\033D" : "\n");
		return;
	}
	vt_put(sink_of(text), "\n", 1);
	c->after_lf = !c->held_cr; /* "\n\r" is one line end, so is "\r\n" */
	c->held_cr = false;
}

static void con_out_carriage_return(struct text_output *text)
{
	struct con_out *c = con_out_of(text);

	if (c->tty) {
		vt_put(sink_of(text), "\r", 1);
	} else if (c->after_lf) {
		c->after_lf = false;
	} else {
		if (c->held_cr)
			vt_put(sink_of(text), "\r", 1);
		c->held_cr = true;
	}
}

static void con_out_backspace(struct text_output *text)
{
	release_cr(con_out_of(text));
	vt_put(sink_of(text), "\b", 1);
}

static void con_out_tab(struct text_output *text, UINT32 next)
{
	release_cr(con_out_of(text));
	vt_put(sink_of(text), "\t", 1);
}

/* ---- Terminal control ---- */

/* A mode shorter than the terminal scrolls within its own rows. DECSTBM homes the cursor,
 * so this is only done when clearing. */
static void put_scroll_region(struct con_out *c, struct vt_sink *v)
{
	UINT32 rows = c->text.rows;

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

static EFI_STATUS con_out_clear(struct text_output *text)
{
	struct con_out *c = con_out_of(text);

	if (c->tty) {
		put_scroll_region(c, sink_of(text));
		vt_put_str(sink_of(text), "\x1b[H\x1b[2J");
	}
	return EFI_SUCCESS;
}

/* On a terminal, SGR for the attribute: the spec's default is the terminal's own colours. */
static EFI_STATUS con_out_set_attribute(struct text_output *text)
{
	struct con_out *c = con_out_of(text);
	UINT32 attribute = (UINT32)text->mode.Attribute;

	if (c->tty) {
		vt_attribute(sink_of(text), attribute);
		c->colors_set = attribute != TEXT_OUT_DEFAULT_ATTRIBUTE;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS con_out_set_cursor(struct text_output *text)
{
	if (con_out_of(text)->tty)
		vt_goto(sink_of(text), (UINT32)text->mode.CursorColumn,
			(UINT32)text->mode.CursorRow);
	return EFI_SUCCESS;
}

static EFI_STATUS con_out_enable_cursor(struct text_output *text)
{
	struct con_out *c = con_out_of(text);

	if (c->tty) {
		vt_show_cursor(sink_of(text), text->mode.CursorVisible);
		c->cursor_hidden = !text->mode.CursorVisible;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS con_out_flush(struct text_output *text)
{
	return ob_end(&con_out_of(text)->buf);
}

static bool con_out_query_mode(struct text_output *text, UINT32 mode, UINT32 *cols, UINT32 *rows)
{
	const struct text_mode *m = &con_out_of(text)->modes[mode];

	*cols = m->columns;
	*rows = m->rows;
	return m->usable;
}

static const struct text_output_ops con_out_ops = {
    .query_mode = con_out_query_mode,
    .draw = con_out_draw,
    .carriage_return = con_out_carriage_return,
    .line_feed = con_out_line_feed,
    .backspace = con_out_backspace,
    .tab = con_out_tab,
    .wrap = con_out_wrap,
    .clear = con_out_clear,
    .set_attribute = con_out_set_attribute,
    .set_cursor = con_out_set_cursor,
    .enable_cursor = con_out_enable_cursor,
    .flush = con_out_flush,
};

/* ---- Creation and exit ---- */

/* Mode 0 is 80x25 and mode 1 80x50 (12.4.5); a terminal of another size adds mode 2 with
 * its real size and starts in it. A terminal lower than 50 rows cannot show mode 1. The
 * text output starts with the count of modes and the first one. */
static void probe_modes(struct con_out *c, UINT32 *count, UINT32 *mode)
{
	struct winsize ws;

	c->modes[0] = (struct text_mode){80, 25, true};
	c->modes[1] = (struct text_mode){80, 50, true};
	*count = 2;
	*mode = 0;
	if (!c->tty || ioctl(c->fd, TIOCGWINSZ, &ws) != 0 || !ws.ws_col || !ws.ws_row)
		return;
	c->term_rows = ws.ws_row;
	c->modes[1].usable = ws.ws_col >= 80 && ws.ws_row >= 50;
	for (UINT32 i = 0; i < 2; i++)
		if (ws.ws_col == c->modes[i].columns && ws.ws_row == c->modes[i].rows) {
			*mode = i;
			return;
		}
	c->modes[2] = (struct text_mode){ws.ws_col, ws.ws_row, true};
	*count = 3;
	*mode = 2;
}

EFI_STATUS console_out_create(int fd, const EFI_GUID *device, EFI_HANDLE *handle,
			      EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL **out)
{
	struct con_out *c;
	UINT32 count, mode;
	EFI_STATUS status;
	size_t slot;

	for (slot = 0; slot < ARRAY_SIZE(devices) && devices[slot]; slot++)
		;
	if (slot == ARRAY_SIZE(devices))
		return EFI_OUT_OF_RESOURCES;
	c = pool_alloc(sizeof(*c));
	if (!c)
		return EFI_OUT_OF_RESOURCES;
	c->fd = fd;
	c->tty = isatty(fd);
	ob_begin(&c->buf, fd);
	probe_modes(c, &count, &mode);
	text_output_init(&c->text, &con_out_ops, count, mode);
	console_path_init(&c->path, device);
	status =
	    protocol_install_multiple(&c->handle, &efi_simple_text_output_protocol_guid,
				      &c->text.out, &efi_device_path_protocol_guid, &c->path, NULL);
	if (EFI_ERROR(status)) {
		pool_free(c);
		return status;
	}
	devices[slot] = c;
	*handle = c->handle;
	*out = &c->text.out;
	return EFI_SUCCESS;
}

/* With a buffer of its own: the signal may have come in the middle of a call. */
static void restore_device(struct con_out *c)
{
	struct out_buf b;
	struct vt_sink *v = ob_begin(&b, c->fd);

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
		vt_goto(v, (UINT32)c->text.mode.CursorColumn, (UINT32)c->text.mode.CursorRow);
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
