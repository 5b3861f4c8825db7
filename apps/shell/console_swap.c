/* While a program runs with redirected standard handles, the system table's ConOut,
 * StdErr and ConIn are replaced by text protocols over the shell's streams, so that its
 * ordinary console output (Print) follows the redirection as in the UEFI Shell. */
#include "internal.h"

struct text_out {
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL proto; /* first: recovered from This */
	SIMPLE_TEXT_OUTPUT_MODE mode;
	struct sh_stream *stream;
};

struct text_in {
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL proto;
	struct sh_stream *stream;
};

struct sh_console_swap {
	struct text_out out, err;
	struct text_in in;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *old_out, *old_err;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *old_in;
};

static EFI_STATUS EFIAPI out_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN ext)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *text)
{
	struct text_out *t = (struct text_out *)this;

	if (!text)
		return EFI_INVALID_PARAMETER;
	return sh_stream_write(t->stream, text, str16_len(text));
}

static EFI_STATUS EFIAPI out_test(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *text)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_query(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode,
				   UINTN *columns, UINTN *rows)
{
	if (mode != 0)
		return EFI_UNSUPPORTED;
	*columns = 80;
	*rows = 25;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode)
{
	return mode == 0 ? EFI_SUCCESS : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI out_attribute(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN attribute)
{
	((struct text_out *)this)->mode.Attribute = (INT32)attribute;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_clear(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN column, UINTN row)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN on)
{
	return EFI_SUCCESS;
}

static void text_out_init(struct text_out *t, struct sh_stream *stream)
{
	t->proto = (EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL){
	    out_reset,	   out_string, out_test,   out_query,	      out_set_mode,
	    out_attribute, out_clear,  out_cursor, out_enable_cursor, &t->mode};
	t->mode = (SIMPLE_TEXT_OUTPUT_MODE){.MaxMode = 1, .Attribute = 0x07};
	t->stream = stream;
}

static EFI_STATUS EFIAPI in_reset(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this, BOOLEAN ext)
{
	return EFI_SUCCESS;
}

/* Keys are the characters of the redirected input; a line end is the Enter key. After the
 * last one the input has ended: EFI_DEVICE_ERROR, for no key will ever come (the rule of
 * console_input.c), rather than EFI_NOT_READY for ever. */
static EFI_STATUS EFIAPI in_read(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this, EFI_INPUT_KEY *key)
{
	struct text_in *t = (struct text_in *)this;
	struct sh_stream *s = t->stream;
	CHAR16 c;

	if (!key)
		return EFI_INVALID_PARAMETER;
	if (s->kind != SH_STREAM_MEMORY || s->read_pos >= s->text.len)
		return EFI_DEVICE_ERROR;
	c = s->text.s[s->read_pos++];
	if (c == '\r' && s->read_pos < s->text.len && s->text.s[s->read_pos] == '\n')
		s->read_pos++;
	key->ScanCode = 0;
	key->UnicodeChar = c == '\n' ? CHAR_CARRIAGE_RETURN : c;
	return EFI_SUCCESS;
}

/* WaitForKey: the text is all there, so a key, or the end, is always ready. */
static void EFIAPI in_wait_notify(EFI_EVENT event, void *context)
{
	app_bs->SignalEvent(event);
}

static bool swap_input(struct sh_console_swap *sw, struct sh_stream *in)
{
	EFI_EVENT wait;

	if (EFI_ERROR(
		app_bs->CreateEvent(EVT_NOTIFY_WAIT, TPL_NOTIFY, in_wait_notify, NULL, &wait)))
		return false;
	sw->in.proto = (EFI_SIMPLE_TEXT_INPUT_PROTOCOL){in_reset, in_read, wait};
	sw->in.stream = in;
	sw->old_in = app_st->ConIn;
	app_st->ConIn = &sw->in.proto;
	return true;
}

static void update_crc(void)
{
	UINT32 crc = 0;

	app_st->Hdr.CRC32 = 0;
	app_bs->CalculateCrc32(app_st, app_st->Hdr.HeaderSize, &crc);
	app_st->Hdr.CRC32 = crc;
}

struct sh_console_swap *sh_console_swap_begin(struct shell *sh)
{
	struct sh_console_swap *sw;

	if (sh->out->kind == SH_STREAM_CONSOLE && sh->err->kind == SH_STREAM_CONSOLE &&
	    sh->in->kind == SH_STREAM_CONSOLE)
		return NULL;
	sw = app_zalloc(sizeof(*sw));
	if (!sw)
		return NULL;
	if (sh->out->kind != SH_STREAM_CONSOLE) {
		text_out_init(&sw->out, sh->out);
		sw->old_out = app_st->ConOut;
		app_st->ConOut = &sw->out.proto;
	}
	if (sh->err->kind != SH_STREAM_CONSOLE) {
		text_out_init(&sw->err, sh->err);
		sw->old_err = app_st->StdErr;
		app_st->StdErr = &sw->err.proto;
	}
	if (sh->in->kind != SH_STREAM_CONSOLE)
		swap_input(sw, sh->in);
	update_crc();
	return sw;
}

void sh_console_swap_end(struct shell *sh, struct sh_console_swap *sw)
{
	if (!sw)
		return;
	if (sw->old_out)
		app_st->ConOut = sw->old_out;
	if (sw->old_err)
		app_st->StdErr = sw->old_err;
	if (sw->old_in) {
		app_st->ConIn = sw->old_in;
		app_bs->CloseEvent(sw->in.proto.WaitForKey);
	}
	update_crc();
	app_free(sw);
}
