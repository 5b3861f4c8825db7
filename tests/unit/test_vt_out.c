/* The serial terminal's output encoding (lib/vt_out.c): the bytes sent for text, control
 * characters and terminal functions, and where the cursor ends up. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/text_out.h>
#include <ember/lib/vt_out.h>

struct capture {
	char bytes[4096];
	size_t len;
	int writes;
};

static void capture_write(void *ctx, const UINT8 *bytes, size_t n)
{
	struct capture *c = ctx;

	if (c->len + n < sizeof(c->bytes)) {
		memcpy(c->bytes + c->len, bytes, n);
		c->len += n;
	}
	c->writes++;
}

static struct capture cap;
static struct vt_sink sink;

static struct vt_sink *fresh_sink(void)
{
	memset(&cap, 0, sizeof(cap));
	sink = (struct vt_sink){.write = capture_write, .ctx = &cap};
	return &sink;
}

/* Runs vt_text from (col,row) in an 80x25 mode; returns the bytes it sent. */
static const char *text_at(struct vt_cursor *c, UINT32 col, UINT32 row, const CHAR16 *text,
			   bool *all_known)
{
	struct vt_sink *s = fresh_sink();

	*c = (struct vt_cursor){col, row, 80, 25};
	*all_known = vt_text(s, c, text);
	vt_flush(s);
	cap.bytes[cap.len] = 0;
	return cap.bytes;
}

TEST(vt_text_is_utf8_and_moves_the_cursor)
{
	struct vt_cursor c;
	bool known;

	EXPECT(!strcmp(text_at(&c, 0, 0, u"Hello World!\r\n", &known), "Hello World!\r\n"));
	EXPECT(known);
	EXPECT_EQ(c.col, 0);
	EXPECT_EQ(c.row, 1);
	EXPECT(!strcmp(text_at(&c, 3, 4, u"\u250c\u2500\u2510 caf\u00e9 \u20ac", &known),
		       "\xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90 caf\xc3\xa9 \xe2\x82\xac"));
	EXPECT_EQ(c.col, 3 + 10);
	EXPECT_EQ(c.row, 4);
}

TEST(vt_text_control_characters)
{
	struct vt_cursor c;
	bool known;

	/* LF keeps the column, BS stops at the left edge, TAB pads with spaces to 8. */
	EXPECT(!strcmp(text_at(&c, 5, 2, u"\n", &known), "\n"));
	EXPECT_EQ(c.col, 5);
	EXPECT_EQ(c.row, 3);
	EXPECT(!strcmp(text_at(&c, 1, 0, u"\b\b", &known), "\b"));
	EXPECT_EQ(c.col, 0);
	EXPECT(!strcmp(text_at(&c, 2, 0, u"\tx", &known), "      x"));
	EXPECT_EQ(c.col, 9);
	EXPECT(!strcmp(text_at(&c, 78, 0, u"\t", &known), " "));
	EXPECT_EQ(c.col, 79);
}

TEST(vt_text_wraps_and_scrolls)
{
	struct vt_cursor c;
	bool known;

	/* The terminal wraps by itself: nothing extra is sent. */
	EXPECT(!strcmp(text_at(&c, 78, 3, u"xyz", &known), "xyz"));
	EXPECT_EQ(c.col, 1);
	EXPECT_EQ(c.row, 4);
	/* At the bottom the terminal scrolls: the row stays. */
	EXPECT(!strcmp(text_at(&c, 79, 24, u"w\n", &known), "w\n"));
	EXPECT_EQ(c.col, 0);
	EXPECT_EQ(c.row, 24);
}

TEST(vt_text_skips_unknown_glyphs)
{
	struct vt_cursor c;
	bool known;

	EXPECT(!strcmp(text_at(&c, 0, 0,
			       u"a\x1b"
			       u"b\x7f"
			       u"c\x85"
			       u"d\xfff1",
			       &known),
		       "abcd"));
	EXPECT(!known);
	EXPECT_EQ(c.col, 4);
	EXPECT(text_out_glyph_known(u'\u2588'));
	EXPECT(!text_out_glyph_known(0xd800));
	EXPECT(!text_out_glyph_known(0xffff));
}

static const char *control(void (*fn)(struct vt_sink *s))
{
	struct vt_sink *s = fresh_sink();

	fn(s);
	vt_flush(s);
	cap.bytes[cap.len] = 0;
	return cap.bytes;
}

static void goto_2_1(struct vt_sink *s)
{
	vt_goto(s, 2, 1);
}
static void attr_default(struct vt_sink *s)
{
	vt_attribute(s, 0x07);
}
static void attr_yellow_on_blue(struct vt_sink *s)
{
	vt_attribute(s, 0x1e);
}
static void attr_red_on_cyan(struct vt_sink *s)
{
	vt_attribute(s, 0x34);
}
static void hide(struct vt_sink *s)
{
	vt_show_cursor(s, false);
}

TEST(vt_terminal_functions)
{
	EXPECT(!strcmp(control(goto_2_1), "\x1b[2;3H"));
	EXPECT(!strcmp(control(attr_default), "\x1b[0m"));
	EXPECT(!strcmp(control(attr_yellow_on_blue), "\x1b[0;93;44m"));
	EXPECT(!strcmp(control(attr_red_on_cyan), "\x1b[0;31;46m"));
	EXPECT(!strcmp(control(hide), "\x1b[?25l"));
	EXPECT(!strcmp(control(vt_clear), "\x1b[2J\x1b[1;1H"));
}

TEST(vt_sink_hands_out_long_output_in_chunks)
{
	static CHAR16 text[1001];
	struct vt_cursor c = {0, 0, 80, 25};
	struct vt_sink *s = fresh_sink();

	for (int i = 0; i < 1000; i++)
		text[i] = 'a' + i % 26;
	vt_text(s, &c, text);
	vt_flush(s);
	EXPECT_EQ(cap.len, 1000); /* 12 wraps, none of them sent */
	EXPECT(cap.writes > 1);
	EXPECT_EQ(c.row, 12);
	EXPECT_EQ(c.col, 40);
}
