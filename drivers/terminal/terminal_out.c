/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) on a serial terminal: VT100/ANSI
 * control sequences and UTF-8 text written through SerialIo (encoding in lib/vt_out.c). */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include <ember/lib/vt_out.h>
#include "terminal.h"

const UINT32 terminal_modes[TERMINAL_MODE_COUNT][2] = {{80, 25}, {80, 50}, {100, 31}};

static struct terminal *terminal_from(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct terminal *t;

	if (!this)
		return NULL;
	t = container_of(this, struct terminal, out);
	return t->signature == TERMINAL_SIGNATURE ? t : NULL;
}

/* The sink's writer: what cannot be sent (a timeout) is dropped. */
static void serial_write(void *ctx, const UINT8 *bytes, size_t n)
{
	struct terminal *t = ctx;
	UINTN size = n;

	t->serial->Write(t->serial, &size, (void *)bytes);
}

static struct vt_sink sink_for(struct terminal *t)
{
	return (struct vt_sink){.write = serial_write, .ctx = t};
}

static struct vt_cursor cursor_of(const struct terminal *t)
{
	return (struct vt_cursor){(UINT32)t->mode.CursorColumn, (UINT32)t->mode.CursorRow,
				  terminal_modes[t->mode.Mode][0], terminal_modes[t->mode.Mode][1]};
}

static EFI_STATUS EFIAPI out_output_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	struct terminal *t = terminal_from(this);
	struct vt_sink s;
	struct vt_cursor c;
	bool all_known;
	EFI_TPL old;

	if (!t || !string)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	s = sink_for(t);
	c = cursor_of(t);
	all_known = vt_text(&s, &c, string);
	vt_flush(&s);
	t->mode.CursorColumn = (INT32)c.col;
	t->mode.CursorRow = (INT32)c.row;
	tpl_restore(old);
	return all_known ? EFI_SUCCESS : EFI_WARN_UNKNOWN_GLYPH;
}

static EFI_STATUS EFIAPI out_test_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	if (!terminal_from(this) || !string)
		return EFI_INVALID_PARAMETER;
	for (; *string; string++) {
		CHAR16 ch = *string;

		if (ch != CHAR_LINEFEED && ch != CHAR_CARRIAGE_RETURN && ch != CHAR_BACKSPACE &&
		    ch != CHAR_TAB && !text_out_glyph_known(ch))
			return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_query_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode,
					UINTN *columns, UINTN *rows)
{
	if (!terminal_from(this) || !columns || !rows)
		return EFI_INVALID_PARAMETER;
	if (mode >= TERMINAL_MODE_COUNT)
		return EFI_UNSUPPORTED;
	*columns = terminal_modes[mode][0];
	*rows = terminal_modes[mode][1];
	return EFI_SUCCESS;
}

/* Clears in the current colours and homes the cursor (caller at TPL_NOTIFY). */
static void clear(struct terminal *t)
{
	struct vt_sink s = sink_for(t);

	vt_clear(&s);
	vt_flush(&s);
	t->mode.CursorColumn = 0;
	t->mode.CursorRow = 0;
}

static EFI_STATUS EFIAPI out_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode)
{
	struct terminal *t = terminal_from(this);
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	if (mode >= TERMINAL_MODE_COUNT)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	t->mode.Mode = (INT32)mode;
	clear(t);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static void set_attribute(struct terminal *t, UINT32 attribute)
{
	struct vt_sink s = sink_for(t);

	t->mode.Attribute = (INT32)attribute;
	vt_attribute(&s, attribute);
	vt_flush(&s);
}

static EFI_STATUS EFIAPI out_set_attribute(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN attribute)
{
	struct terminal *t = terminal_from(this);
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	if (attribute > 0x7f) /* bits 7 and up must be zero (12.4.7) */
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	set_attribute(t, (UINT32)attribute);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_clear_screen(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct terminal *t = terminal_from(this);
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	clear(t);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_set_cursor_position(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
						 UINTN column, UINTN row)
{
	struct terminal *t = terminal_from(this);
	struct vt_sink s;
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	if (column >= terminal_modes[t->mode.Mode][0] || row >= terminal_modes[t->mode.Mode][1])
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	s = sink_for(t);
	vt_goto(&s, (UINT32)column, (UINT32)row);
	vt_flush(&s);
	t->mode.CursorColumn = (INT32)column;
	t->mode.CursorRow = (INT32)row;
	tpl_restore(old);
	return EFI_SUCCESS;
}

static void show_cursor(struct terminal *t, bool visible)
{
	struct vt_sink s = sink_for(t);

	vt_show_cursor(&s, visible);
	vt_flush(&s);
	t->mode.CursorVisible = visible;
}

static EFI_STATUS EFIAPI out_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN visible)
{
	struct terminal *t = terminal_from(this);
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	show_cursor(t, visible);
	tpl_restore(old);
	return EFI_SUCCESS;
}

EFI_STATUS terminal_out_reset(struct terminal *t)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	set_attribute(t, TEXT_OUT_DEFAULT_ATTRIBUTE);
	show_cursor(t, true);
	clear(t);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN extended)
{
	struct terminal *t = terminal_from(this);

	return t ? terminal_out_reset(t) : EFI_INVALID_PARAMETER;
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

void terminal_out_init(struct terminal *t)
{
	t->out = out_template;
	t->out.Mode = &t->mode;
	t->mode = (SIMPLE_TEXT_OUTPUT_MODE){
	    .MaxMode = TERMINAL_MODE_COUNT,
	    .Mode = 0,
	    .Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE,
	    .CursorVisible = TRUE,
	};
}
