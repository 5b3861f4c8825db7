/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) on a serial terminal, as the text
 * output front end's device: VT100/ANSI control sequences and UTF-8 text (lib/vt_out.c),
 * collected during a call and written through SerialIo at its end. */
#include <ember/lib/text_out.h>
#include "terminal.h"

const UINT32 terminal_modes[TERMINAL_MODE_COUNT][2] = {{80, 25}, {80, 50}, {100, 31}};

static struct terminal *terminal_of(struct text_output *text)
{
	return container_of(text, struct terminal, text);
}

static struct vt_sink *sink_of(struct text_output *text)
{
	return &terminal_of(text)->sink;
}

/* The sink's writer: what cannot be sent (a timeout) is dropped. */
static void serial_write(void *ctx, const UINT8 *bytes, size_t n)
{
	struct terminal *t = ctx;
	UINTN size = n;

	t->serial->Write(t->serial, &size, (void *)bytes);
}

static bool term_query_mode(struct text_output *text, UINT32 mode, UINT32 *cols, UINT32 *rows)
{
	*cols = terminal_modes[mode][0];
	*rows = terminal_modes[mode][1];
	return true;
}

static bool term_draw(struct text_output *text, const CHAR16 *chars, UINT32 n)
{
	vt_put_ucs2(sink_of(text), chars, n);
	return true;
}

/* CR, LF and BS go down the wire as they are: LF keeps the column there as in the spec,
 * and at the bottom the terminal scrolls by itself. */
static void term_carriage_return(struct text_output *text)
{
	vt_put(sink_of(text), "\r", 1);
}

static void term_line_feed(struct text_output *text)
{
	vt_put(sink_of(text), "\n", 1);
}

static void term_backspace(struct text_output *text)
{
	vt_put(sink_of(text), "\b", 1);
}

static EFI_STATUS term_clear(struct text_output *text)
{
	vt_clear(sink_of(text));
	return EFI_SUCCESS;
}

static EFI_STATUS term_set_attribute(struct text_output *text)
{
	vt_attribute(sink_of(text), (UINT32)text->mode.Attribute);
	return EFI_SUCCESS;
}

static EFI_STATUS term_set_cursor(struct text_output *text)
{
	vt_goto(sink_of(text), (UINT32)text->mode.CursorColumn, (UINT32)text->mode.CursorRow);
	return EFI_SUCCESS;
}

static EFI_STATUS term_enable_cursor(struct text_output *text)
{
	vt_show_cursor(sink_of(text), text->mode.CursorVisible);
	return EFI_SUCCESS;
}

static EFI_STATUS term_flush(struct text_output *text)
{
	vt_flush(sink_of(text));
	return EFI_SUCCESS;
}

/* TAB is left to the front end: spaces paint the background and need no tab stops set. At
 * the right margin nothing is sent: an 80-column terminal wraps by itself, and a wider one
 * or a log keeps long lines whole (as other firmware's serial consoles do). */
static const struct text_output_ops terminal_ops = {
    .query_mode = term_query_mode,
    .draw = term_draw,
    .carriage_return = term_carriage_return,
    .line_feed = term_line_feed,
    .backspace = term_backspace,
    .clear = term_clear,
    .set_attribute = term_set_attribute,
    .set_cursor = term_set_cursor,
    .enable_cursor = term_enable_cursor,
    .flush = term_flush,
};

void terminal_out_init(struct terminal *t)
{
	t->sink = (struct vt_sink){.write = serial_write, .ctx = t};
	text_output_init(&t->text, &terminal_ops, TERMINAL_MODE_COUNT, 0);
}
