/* Text output for applications: format_v into a small UTF-8 line buffer, converted to
 * UCS-2 for ConOut (or handed to a redirected sink). */
#include "app.h"

struct out_buf {
	char text[160];
	size_t len;
};

static app_output_fn out_fn;
static void *out_ctx;

void app_set_output(app_output_fn fn, void *ctx)
{
	out_fn = fn;
	out_ctx = ctx;
}

/* Writes UTF-8 text to ConOut, turning each LF into CR LF. */
static void conout_write(const char *s, size_t n)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con = app_st ? app_st->ConOut : NULL;
	CHAR16 wide[2 * sizeof(((struct out_buf *)0)->text) + 2];
	size_t w = 0;

	if (!con)
		return;
	for (size_t i = 0; i < n;) {
		size_t start = i;
		while (i < n && s[i] != '\n')
			i++;
		w += utf8_to_ucs2(wide + w, ARRAY_SIZE(wide) - w, s + start, i - start);
		if (i < n) {
			wide[w++] = u'\r';
			wide[w++] = u'\n';
			wide[w] = 0;
			i++;
		}
	}
	if (w)
		con->OutputString(con, wide);
}

static void flush(struct out_buf *b, size_t n)
{
	if (out_fn)
		out_fn(out_ctx, b->text, n);
	else
		conout_write(b->text, n);
	mem_copy(b->text, b->text + n, b->len - n);
	b->len -= n;
}

/* Never splits a UTF-8 sequence: backs off to the start of a partial character. */
static size_t complete_prefix(const struct out_buf *b)
{
	size_t n = b->len;

	for (size_t k = 0; k < 4 && k < n; k++) {
		unsigned char c = (unsigned char)b->text[n - 1 - k];
		if ((c & 0xc0) == 0x80)
			continue;
		if (c >= 0xc0) {
			size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
			if (k + 1 < need)
				return n - 1 - k;
		}
		break;
	}
	return n;
}

static void sink(void *ctx, const char *s, size_t n)
{
	struct out_buf *b = ctx;

	while (n) {
		size_t room = sizeof(b->text) - b->len;
		size_t take = MIN(room, n);
		mem_copy(b->text + b->len, s, take);
		b->len += take;
		s += take;
		n -= take;
		if (b->len == sizeof(b->text))
			flush(b, complete_prefix(b) ? complete_prefix(b) : b->len);
		else if (take && b->text[b->len - 1] == '\n')
			flush(b, b->len);
	}
}

void app_vprint(const char *fmt, va_list ap)
{
	struct out_buf b = {.len = 0};

	format_v(sink, &b, fmt, ap);
	if (b.len)
		flush(&b, b.len);
}

void app_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	app_vprint(fmt, ap);
	va_end(ap);
}
