/* VT100/ANSI output encoding (see vt_out.h). */
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include <ember/lib/vt_out.h>
#include <efi/protocol/simple_text_input.h>

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

/* Down a row; at the bottom the terminal scrolls and the row stays. */
static void cursor_down(struct vt_cursor *c)
{
	if (c->row + 1 < c->rows)
		c->row++;
}

static void put_glyph(struct vt_sink *s, struct vt_cursor *c, CHAR16 ch)
{
	char utf8[4];

	vt_put(s, utf8, ucs2_to_utf8(utf8, sizeof(utf8), &ch, 1));
	if (++c->col < c->cols)
		return;
	/* Past the right edge the cursor goes to the next line (12.4.3). Nothing is sent for
	 * it: an 80-column terminal wraps by itself at its margin, and a wider one or a log
	 * keeps long lines whole (as other firmware's serial consoles do). */
	c->col = 0;
	cursor_down(c);
}

static void put_tab(struct vt_sink *s, struct vt_cursor *c)
{
	UINT32 next = text_out_tab_stop(c->col, c->cols);

	/* Spaces, not a TAB: they paint the background and need no tab stops set. */
	while (c->col < next) {
		vt_put(s, " ", 1);
		c->col++;
	}
}

bool vt_text(struct vt_sink *s, struct vt_cursor *c, const CHAR16 *text)
{
	bool all_known = true;

	for (; *text; text++) {
		CHAR16 ch = *text;

		if (ch == CHAR_LINEFEED) {
			cursor_down(c);
			vt_put(s, "\n", 1); /* LF keeps the column, on the wire as in the spec */
		} else if (ch == CHAR_CARRIAGE_RETURN) {
			c->col = 0;
			vt_put(s, "\r", 1);
		} else if (ch == CHAR_BACKSPACE) {
			if (c->col) {
				c->col--;
				vt_put(s, "\b", 1);
			}
		} else if (ch == CHAR_TAB) {
			put_tab(s, c);
		} else if (text_out_width_marker(ch)) {
			continue;
		} else if (text_out_glyph_known(ch)) {
			put_glyph(s, c, ch);
		} else {
			all_known = false;
		}
	}
	return all_known;
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
