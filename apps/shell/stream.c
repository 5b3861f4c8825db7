/* Streams: the console, files, memory (pipes) and NUL, written with sh_stream_write and
 * handed to programs as EFI_FILE_PROTOCOL instances (stream_file.c). */
#include "internal.h"

#define STREAM_SIGNATURE SIGNATURE_32('s', 'h', 's', 't')

static void stream_init(struct sh_stream *s, struct shell *sh, UINT8 kind)
{
	*s = (struct sh_stream){.signature = STREAM_SIGNATURE, .kind = kind, .sh = sh};
	sh_buf_init(&s->text);
	sh_stream_file_protocol(s);
}

void sh_stream_console(struct sh_stream *s, struct shell *sh, bool is_input, bool is_error)
{
	stream_init(s, sh, SH_STREAM_CONSOLE);
	s->is_input = is_input;
	s->is_error = is_error;
}

void sh_stream_memory(struct sh_stream *s, struct shell *sh)
{
	stream_init(s, sh, SH_STREAM_MEMORY);
}

void sh_stream_null(struct sh_stream *s, struct shell *sh)
{
	stream_init(s, sh, SH_STREAM_NULL);
}

void sh_stream_file(struct sh_stream *s, struct shell *sh, EFI_FILE_PROTOCOL *f, bool ascii)
{
	stream_init(s, sh, SH_STREAM_FILE);
	s->target = f;
	s->ascii = ascii;
	s->owns_file = true;
}

void sh_stream_close(struct sh_stream *s)
{
	if (s->kind == SH_STREAM_FILE && s->target && s->owns_file)
		s->target->Close(s->target);
	s->target = NULL;
	sh_buf_free(&s->text);
}

/* ---- Console output with page breaks ---- */

static void console_rows(struct shell *sh, UINTN *columns, UINTN *rows)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con = sh->con_out;

	*columns = 80;
	*rows = 25;
	if (con && con->Mode)
		con->QueryMode(con, (UINTN)con->Mode->Mode, columns, rows);
	if (*rows < 3)
		*rows = 3;
}

/* Shows the pause prompt; false when the user chose to stop. */
static bool page_pause(struct shell *sh)
{
	static const CHAR16 prompt[] = u"Press ENTER to continue or 'Q' to break:";
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con = sh->con_out;
	EFI_INPUT_KEY key;

	con->OutputString(con, (CHAR16 *)prompt);
	for (;;) {
		if (EFI_ERROR(sh_read_key(sh, &key))) {
			sh->interrupted = true;
			break;
		}
		if (key.UnicodeChar == 'q' || key.UnicodeChar == 'Q' || key.ScanCode == SCAN_ESC) {
			sh->interrupted = true;
			break;
		}
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN || key.UnicodeChar == ' ')
			break;
	}
	con->OutputString(con, (CHAR16 *)u"\r\n");
	sh->page_rows = 0;
	return !sh->interrupted;
}

/* Counts the rows c starts; true when a pause is due before writing it. */
static bool page_account(struct shell *sh, CHAR16 c, UINTN columns, UINTN rows)
{
	if (c == '\n') {
		sh->page_column = 0;
		return ++sh->page_rows >= rows - 1;
	}
	if (c == '\r') {
		sh->page_column = 0;
		return false;
	}
	if (c == '\b') {
		if (sh->page_column)
			sh->page_column--;
		return false;
	}
	if (++sh->page_column >= columns) {
		sh->page_column = 0;
		return ++sh->page_rows >= rows - 1;
	}
	return false;
}

static EFI_STATUS console_write(struct sh_stream *s, const CHAR16 *text, size_t len)
{
	struct shell *sh = s->sh;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con = s->is_error ? sh->con_err : sh->con_out;
	/* Pauses wait for an answer: only a person at the console gives one. */
	bool paging =
	    !s->is_error && (sh->page_break || sh->page_session) && sh_input_interactive(sh);
	CHAR16 chunk[130];
	size_t n = 0;
	UINTN columns = 80, rows = 25;

	if (!con)
		return EFI_SUCCESS;
	if (paging)
		console_rows(sh, &columns, &rows);
	for (size_t i = 0; i < len; i++) {
		CHAR16 c = text[i];
		if (sh->interrupted && paging)
			break;
		if (c == '\n' && s->last != '\r')
			chunk[n++] = '\r';
		chunk[n++] = c;
		s->last = c;
		bool pause = paging && page_account(sh, c, columns, rows);
		if (n >= ARRAY_SIZE(chunk) - 2 || pause || i + 1 == len) {
			chunk[n] = 0;
			con->OutputString(con, chunk);
			n = 0;
		}
		if (pause && !page_pause(sh))
			break;
	}
	return EFI_SUCCESS;
}

/* ---- Files ---- */

static EFI_STATUS file_put(struct sh_stream *s, const void *data, UINTN size)
{
	UINTN n = size;
	EFI_STATUS status = s->target->Write(s->target, &n, (void *)data);

	return !EFI_ERROR(status) && n != size ? EFI_DEVICE_ERROR : status;
}

static EFI_STATUS file_write(struct sh_stream *s, const CHAR16 *text, size_t len)
{
	UINT8 bytes[384];
	size_t n = 0;
	EFI_STATUS status = EFI_SUCCESS;

	for (size_t i = 0; i < len && !EFI_ERROR(status); i++) {
		CHAR16 unit[2] = {text[i], 0};
		if (text[i] == '\n' && s->last != '\r') {
			i--;
			unit[0] = '\r';
			s->last = '\r';
		} else {
			s->last = text[i];
		}
		if (s->ascii) {
			n += ucs2_to_utf8((char *)bytes + n, 4, unit, 1);
		} else {
			bytes[n++] = (UINT8)unit[0];
			bytes[n++] = (UINT8)(unit[0] >> 8);
		}
		if (n > sizeof(bytes) - 4) {
			status = file_put(s, bytes, n);
			n = 0;
		}
	}
	if (n && !EFI_ERROR(status))
		status = file_put(s, bytes, n);
	return status;
}

EFI_STATUS sh_stream_write(struct sh_stream *s, const CHAR16 *text, size_t len)
{
	switch (s->kind) {
	case SH_STREAM_CONSOLE:
		return s->is_input ? EFI_ACCESS_DENIED : console_write(s, text, len);
	case SH_STREAM_FILE:
		return file_write(s, text, len);
	case SH_STREAM_MEMORY:
		sh_buf_put(&s->text, text, len);
		return s->text.failed ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
	default:
		return EFI_SUCCESS;
	}
}

/* ---- Reading lines ---- */

/* A minimal line reader on the keyboard: typing, Backspace, Enter. */
static EFI_STATUS console_read_line(struct sh_stream *s, CHAR16 **line)
{
	struct shell *sh = s->sh;
	struct sh_buf b;
	EFI_INPUT_KEY key;

	sh_buf_init(&b);
	for (;;) {
		CHAR16 echo[2] = {0, 0};
		if (EFI_ERROR(sh_read_key(sh, &key))) {
			sh_buf_free(&b);
			return EFI_END_OF_FILE;
		}
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN)
			break;
		if (key.UnicodeChar == CHAR_BACKSPACE && b.len) {
			b.s[--b.len] = 0;
			sh->con_out->OutputString(sh->con_out, (CHAR16 *)u"\b \b");
		} else if (key.UnicodeChar >= ' ') {
			sh_buf_putc(&b, key.UnicodeChar);
			echo[0] = key.UnicodeChar;
			sh->con_out->OutputString(sh->con_out, echo);
		}
	}
	sh->con_out->OutputString(sh->con_out, (CHAR16 *)u"\r\n");
	*line = sh_buf_take(&b);
	return *line ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

static EFI_STATUS memory_read_line(struct sh_stream *s, CHAR16 **line)
{
	const CHAR16 *t = s->text.s;
	size_t start = s->read_pos, end = start, next;

	if (!t || start >= s->text.len)
		return EFI_END_OF_FILE;
	while (end < s->text.len && t[end] != '\n')
		end++;
	next = end < s->text.len ? end + 1 : end;
	if (end > start && t[end - 1] == '\r')
		end--;
	s->read_pos = next;
	*line = sh_strndup16(t + start, end - start);
	return *line ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

EFI_STATUS sh_stream_read_line(struct sh_stream *s, CHAR16 **line)
{
	if (s->kind == SH_STREAM_MEMORY)
		return memory_read_line(s, line);
	if (s->kind == SH_STREAM_CONSOLE && s->is_input)
		return console_read_line(s, line);
	return EFI_END_OF_FILE;
}
