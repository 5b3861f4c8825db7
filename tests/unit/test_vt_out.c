/* The serial terminal's output encoding (lib/vt_out.c): the bytes sent for text and for
 * the terminal functions. (Where OutputString moves the cursor, and what the terminal sends
 * for control characters, is tested through the driver in test_terminal.c.) */
#include <string.h>

#include "support/test.h"
#include <ember/lib/util.h>
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

/* The bytes vt_put_ucs2 sends for n characters of text. */
static const char *utf8_of(const CHAR16 *text, size_t n)
{
	struct vt_sink *s = fresh_sink();

	vt_put_ucs2(s, text, n);
	vt_flush(s);
	cap.bytes[cap.len] = 0;
	return cap.bytes;
}

TEST(vt_put_ucs2_is_utf8)
{
	static const CHAR16 text[] = u"Hi \u250c\u2500\u2510 caf\u00e9 \u20ac";

	EXPECT(!strcmp(utf8_of(text, ARRAY_SIZE(text) - 1),
		       "Hi \xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90 caf\xc3\xa9 \xe2\x82\xac"));
	/* Exactly n characters, NULs included; a lone surrogate half is U+FFFD. */
	EXPECT(!strcmp(utf8_of(u"abc", 2), "ab"));
	EXPECT_EQ(cap.len, 2);
	EXPECT(!memcmp(utf8_of((const CHAR16[]){'a', 0, 'b'}, 3), "a\0b", 3));
	EXPECT_EQ(cap.len, 3);
	EXPECT(!strcmp(utf8_of((const CHAR16[]){0xd800}, 1), "\xef\xbf\xbd"));
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
	static CHAR16 text[1000];
	struct vt_sink *s = fresh_sink();

	for (int i = 0; i < 1000; i++)
		text[i] = i % 3 ? 'a' + i % 26 : u'\u2500';
	vt_put_ucs2(s, text, 1000);
	vt_flush(s);
	EXPECT_EQ(cap.len, 334 * 3 + 666);
	EXPECT(cap.writes > 1);
	EXPECT(!memcmp(cap.bytes,
		       "\xe2\x94\x80"
		       "bc\xe2\x94\x80"
		       "ef",
		       10));
	EXPECT(!memcmp(cap.bytes + cap.len - 4, "k\xe2\x94\x80", 4));
}
