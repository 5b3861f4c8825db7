/* sh_print and sh_error: printf-style text into the current output and error streams;
 * page break mode; statuses in words. */
#include "internal.h"

struct print_buf {
	struct sh_stream *to;
	CHAR16 text[256];
	size_t n;
};

static void pb_flush(struct print_buf *pb)
{
	if (pb->n)
		sh_stream_write(pb->to, pb->text, pb->n);
	pb->n = 0;
}

/* format_v hands over whole UTF-8 characters; each piece is converted in slices that end
 * on a character boundary. */
static void pb_sink(void *ctx, const char *s, size_t n)
{
	struct print_buf *pb = ctx;

	while (n) {
		size_t take = MIN(n, (size_t)96);
		while (take < n && take > 1 && ((unsigned char)s[take] & 0xc0) == 0x80)
			take--;
		if (ARRAY_SIZE(pb->text) - pb->n < take + 1)
			pb_flush(pb);
		pb->n += utf8_to_ucs2(pb->text + pb->n, ARRAY_SIZE(pb->text) - pb->n, s, take);
		s += take;
		n -= take;
	}
}

static void vprint_to(struct sh_stream *to, const char *fmt, va_list ap)
{
	struct print_buf pb = {.to = to};

	format_v(pb_sink, &pb, fmt, ap);
	pb_flush(&pb);
}

void sh_vprint(struct shell *sh, const char *fmt, va_list ap)
{
	vprint_to(sh->out, fmt, ap);
}

void sh_print(struct shell *sh, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_to(sh->out, fmt, ap);
	va_end(ap);
}

static void print_to(struct sh_stream *to, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_to(to, fmt, ap);
	va_end(ap);
}

void sh_error(struct shell *sh, const char *fmt, ...)
{
	const struct sh_script_run *r = sh->script;
	va_list ap;

	if (r && r->pc < r->script->count)
		print_to(sh->err, "%ls line %u: ", r->script->name,
			 (unsigned)r->script->lines[r->pc].number);
	va_start(ap, fmt);
	vprint_to(sh->err, fmt, ap);
	va_end(ap);
}

void sh_write(struct shell *sh, const CHAR16 *text, UINTN len)
{
	sh_stream_write(sh->out, text, len);
}

bool sh_output_is_console(struct shell *sh)
{
	return sh->out->kind == SH_STREAM_CONSOLE;
}

void sh_page_break(struct shell *sh, bool on)
{
	sh->page_break = on;
	sh->page_rows = 0;
}

bool sh_interrupted(struct shell *sh)
{
	return sh->interrupted || sh->ctrl_c;
}

const char *sh_status_words(const struct sh_status_words *table, UINTN count, EFI_STATUS status)
{
	const char *name;

	for (UINTN i = 0; i < count; i++)
		if (table[i].status == status)
			return table[i].text;
	name = efi_status_name(status);
	return name ? name : "unknown error";
}

const char *sh_status_text(EFI_STATUS status)
{
	static const struct sh_status_words texts[] = {
	    {EFI_NOT_FOUND, "no such file or directory"},
	    {EFI_ACCESS_DENIED, "access denied"},
	    {EFI_WRITE_PROTECTED, "the volume is write-protected"},
	    {EFI_VOLUME_FULL, "the volume is full"},
	    {EFI_VOLUME_CORRUPTED, "the file system is damaged"},
	    {EFI_NO_MEDIA, "no medium in the device"},
	    {EFI_MEDIA_CHANGED, "the medium has changed"},
	    {EFI_DEVICE_ERROR, "device error"},
	    {EFI_INVALID_PARAMETER, "invalid name or parameter"},
	    {EFI_OUT_OF_RESOURCES, "out of memory"},
	    {EFI_UNSUPPORTED, "not supported"},
	    {EFI_BUFFER_TOO_SMALL, "a buffer is too small"},
	};

	return sh_status_words(texts, ARRAY_SIZE(texts), status);
}
