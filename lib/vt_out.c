/* VT100/ANSI output encoding (see vt_out.h). */
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include <ember/lib/vt_out.h>

void vt_flush(struct vt_sink *s)
{
	if (s->len)
		s->write(s->ctx, s->buf, s->len);
	s->len = 0;
}

void vt_put(struct vt_sink *s, const void *bytes, size_t n)
{
	const UINT8 *p = bytes;

	while (n) {
		size_t k = MIN(n, sizeof(s->buf) - s->len);

		mem_copy(s->buf + s->len, p, k);
		s->len += k;
		p += k;
		n -= k;
		if (s->len == sizeof(s->buf))
			vt_flush(s);
	}
}

void vt_put_str(struct vt_sink *s, const char *text)
{
	vt_put(s, text, str8_len(text));
}

void vt_put_num(struct vt_sink *s, UINT32 v)
{
	char digits[10];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	vt_put(s, digits + sizeof(digits) - n, n);
}

void vt_put_ucs2(struct vt_sink *s, const CHAR16 *text, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char utf8[4];

		/* ASCII straight into the buffer: vt_put leaves room for at least one byte. */
		if (text[i] < 0x80) {
			s->buf[s->len++] = (UINT8)text[i];
			if (s->len == sizeof(s->buf))
				vt_flush(s);
			continue;
		}
		vt_put(s, utf8, ucs2_to_utf8(utf8, sizeof(utf8), &text[i], 1));
	}
}

void vt_goto(struct vt_sink *s, UINT32 col, UINT32 row)
{
	vt_put_str(s, "\x1b[");
	vt_put_num(s, row + 1);
	vt_put_str(s, ";");
	vt_put_num(s, col + 1);
	vt_put_str(s, "H");
}

void vt_attribute(struct vt_sink *s, UINT32 attribute)
{
	/* EFI colours are IRGB-ordered BGR; ANSI numbers them RGB (1 red, 2 green, 4 blue). */
	static const char ansi_digit[8] = {'0', '4', '2', '6', '1', '5', '3', '7'};
	UINT32 fg = attribute & 0x0f, bg = (attribute >> 4) & 0x07;

	if (attribute == TEXT_OUT_DEFAULT_ATTRIBUTE) {
		vt_put_str(s, "\x1b[0m");
		return;
	}
	vt_put_str(s, fg & EFI_BRIGHT ? "\x1b[0;9" : "\x1b[0;3");
	vt_put(s, &ansi_digit[fg & 7], 1);
	vt_put_str(s, ";4");
	vt_put(s, &ansi_digit[bg], 1);
	vt_put_str(s, "m");
}

void vt_clear(struct vt_sink *s)
{
	vt_put_str(s, "\x1b[2J\x1b[1;1H");
}

void vt_show_cursor(struct vt_sink *s, bool visible)
{
	vt_put_str(s, visible ? "\x1b[?25h" : "\x1b[?25l");
}
