/* The terminal input decoder (lib/term_keys.c) shared by ember-run's console and the
 * serial terminal driver. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/term_keys.h>
#include <ember/lib/util.h>

#define MS (1000 * 1000ULL)

struct keys {
	struct term_key key[64];
	size_t count;
};

/* Feeds bytes that all arrive at time now; collects the keys. */
static void feed_at(struct term_keys *d, struct keys *k, const char *bytes, size_t len, UINT64 now)
{
	struct term_key out[TERM_KEYS_OUT_MAX];

	for (size_t i = 0; i < len; i++) {
		size_t n = term_keys_feed(d, (UINT8)bytes[i], now, out);

		for (size_t j = 0; j < n && k->count < ARRAY_SIZE(k->key); j++)
			k->key[k->count++] = out[j];
	}
}

static void flush_at(struct term_keys *d, struct keys *k, UINT64 now, bool force)
{
	struct term_key out[TERM_KEYS_OUT_MAX];
	size_t n = term_keys_flush(d, now, force, out);

	for (size_t j = 0; j < n && k->count < ARRAY_SIZE(k->key); j++)
		k->key[k->count++] = out[j];
}

/* Decodes a whole input that ends there (as a pipe at end of file does). */
static struct keys decode(const char *bytes, size_t len)
{
	struct term_keys d;
	struct keys k = {0};

	term_keys_init(&d);
	feed_at(&d, &k, bytes, len, 1000 * MS);
	flush_at(&d, &k, 1000 * MS, true);
	return k;
}

#define DECODE(lit) decode(lit, sizeof(lit) - 1)

static bool is_scan(const struct term_key *k, UINT16 scan)
{
	return k->scan == scan && k->unicode == 0;
}

static bool is_char(const struct term_key *k, CHAR16 c)
{
	return k->scan == SCAN_NULL && k->unicode == c;
}

TEST(term_keys_plain_text)
{
	struct keys k = DECODE("aZ~ 0");

	ASSERT_EQ(k.count, 5);
	EXPECT(is_char(&k.key[0], 'a'));
	EXPECT(is_char(&k.key[1], 'Z'));
	EXPECT(is_char(&k.key[2], '~'));
	EXPECT(is_char(&k.key[3], ' '));
	EXPECT(is_char(&k.key[4], '0'));
	EXPECT_EQ(k.key[0].shift_state, 0);
}

TEST(term_keys_enter_forms)
{
	struct keys k = DECODE("\r|\n|\r\n|\n\n|\r\r|\n\r");
	static const CHAR16 want[] = {'\r', '|', '\r', '|',  '\r', '|',	 '\r',
				      '\r', '|', '\r', '\r', '|',  '\r', '\r'};

	ASSERT_EQ(k.count, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT(is_char(&k.key[i], want[i]));
}

TEST(term_keys_cr_then_late_lf_is_two_keys)
{
	struct term_keys d;
	struct keys k = {0};

	term_keys_init(&d);
	feed_at(&d, &k, "\r", 1, 1000 * MS);
	feed_at(&d, &k, "\n", 1, 1001 * MS); /* same burst: one Enter */
	feed_at(&d, &k, "\r", 1, 2000 * MS);
	feed_at(&d, &k, "\n", 1, 3000 * MS); /* a second later: Ctrl-J of its own */
	ASSERT_EQ(k.count, 3);
	EXPECT(is_char(&k.key[2], CHAR_CARRIAGE_RETURN));
}

TEST(term_keys_backspace_tab_controls)
{
	struct keys k = DECODE("\x7f\x08\t\x01\x1a\x1f");

	ASSERT_EQ(k.count, 6);
	EXPECT(is_char(&k.key[0], CHAR_BACKSPACE));
	EXPECT(is_char(&k.key[1], CHAR_BACKSPACE));
	EXPECT(is_char(&k.key[2], CHAR_TAB));
	EXPECT(is_char(&k.key[3], 0x01));
	EXPECT_EQ(k.key[3].shift_state, EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED);
	EXPECT(is_char(&k.key[4], 0x1a));
	EXPECT(is_char(&k.key[5], 0x1f));
	EXPECT_EQ(k.key[5].shift_state, 0);
}

TEST(term_keys_nul_is_no_key)
{
	struct keys k = decode("a\0b", 3);

	ASSERT_EQ(k.count, 2);
	EXPECT(is_char(&k.key[1], 'b'));
}

TEST(term_keys_arrows_both_forms)
{
	struct keys k = DECODE("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1bOB\x1bOC\x1bOD");
	static const UINT16 want[] = {SCAN_UP, SCAN_DOWN, SCAN_RIGHT, SCAN_LEFT};

	ASSERT_EQ(k.count, 8);
	for (size_t i = 0; i < 8; i++)
		EXPECT(is_scan(&k.key[i], want[i % 4]));
	EXPECT_EQ(k.key[0].shift_state, 0);
}

TEST(term_keys_home_end_forms)
{
	struct keys k = DECODE("\x1b[H\x1bOH\x1b[1~\x1b[7~\x1b[F\x1bOF\x1b[4~\x1b[8~");

	ASSERT_EQ(k.count, 8);
	for (size_t i = 0; i < 4; i++)
		EXPECT(is_scan(&k.key[i], SCAN_HOME));
	for (size_t i = 4; i < 8; i++)
		EXPECT(is_scan(&k.key[i], SCAN_END));
}

TEST(term_keys_editing_keys)
{
	struct keys k = DECODE("\x1b[2~\x1b[3~\x1b[5~\x1b[6~");

	ASSERT_EQ(k.count, 4);
	EXPECT(is_scan(&k.key[0], SCAN_INSERT));
	EXPECT(is_scan(&k.key[1], SCAN_DELETE));
	EXPECT(is_scan(&k.key[2], SCAN_PAGE_UP));
	EXPECT(is_scan(&k.key[3], SCAN_PAGE_DOWN));
}

TEST(term_keys_function_keys_xterm)
{
	struct keys k = DECODE("\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[15~\x1b[17~\x1b[18~\x1b[19~"
			       "\x1b[20~\x1b[21~\x1b[23~\x1b[24~");

	ASSERT_EQ(k.count, 12);
	for (size_t i = 0; i < 12; i++)
		EXPECT(is_scan(&k.key[i], (UINT16)(SCAN_F1 + i)));
}

TEST(term_keys_function_keys_vt220_and_linux)
{
	struct keys k =
	    DECODE("\x1b[11~\x1b[12~\x1b[13~\x1b[14~\x1b[[A\x1b[[B\x1b[[C\x1b[[D\x1b[[E");

	ASSERT_EQ(k.count, 9);
	for (size_t i = 0; i < 4; i++)
		EXPECT(is_scan(&k.key[i], (UINT16)(SCAN_F1 + i)));
	for (size_t i = 0; i < 5; i++)
		EXPECT(is_scan(&k.key[4 + i], (UINT16)(SCAN_F1 + i)));
}

TEST(term_keys_modifiers)
{
	struct keys k = DECODE("\x1b[1;5A\x1b[1;2P\x1b[15;3~\x1b[Z\x1bO2Q");

	ASSERT_EQ(k.count, 5);
	EXPECT(is_scan(&k.key[0], SCAN_UP));
	EXPECT_EQ(k.key[0].shift_state, EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED);
	EXPECT(is_scan(&k.key[1], SCAN_F1));
	EXPECT_EQ(k.key[1].shift_state, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
	EXPECT(is_scan(&k.key[2], SCAN_F5));
	EXPECT_EQ(k.key[2].shift_state, EFI_SHIFT_STATE_VALID | EFI_LEFT_ALT_PRESSED);
	EXPECT(is_char(&k.key[3], CHAR_TAB));
	EXPECT_EQ(k.key[3].shift_state, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
	EXPECT(is_scan(&k.key[4], SCAN_F2));
	EXPECT_EQ(k.key[4].shift_state, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
}

TEST(term_keys_esc_alone_waits_for_timeout)
{
	struct term_keys d;
	struct keys k = {0};

	term_keys_init(&d);
	feed_at(&d, &k, "\x1b", 1, 1000 * MS);
	EXPECT_EQ(k.count, 0);
	EXPECT(term_keys_pending(&d));
	flush_at(&d, &k, 1000 * MS + TERM_KEYS_TIMEOUT_NS - 1, false);
	EXPECT_EQ(k.count, 0);
	flush_at(&d, &k, 1000 * MS + TERM_KEYS_TIMEOUT_NS, false);
	ASSERT_EQ(k.count, 1);
	EXPECT(is_scan(&k.key[0], SCAN_ESC));
	EXPECT(!term_keys_pending(&d));
}

TEST(term_keys_sequence_split_across_reads)
{
	struct term_keys d;
	struct keys k = {0};

	term_keys_init(&d);
	feed_at(&d, &k, "\x1b[", 2, 1000 * MS);
	feed_at(&d, &k, "2", 1, 1010 * MS);
	flush_at(&d, &k, 1020 * MS, false); /* within the timeout of the newest byte */
	feed_at(&d, &k, "4~", 2, 1030 * MS);
	ASSERT_EQ(k.count, 1);
	EXPECT(is_scan(&k.key[0], SCAN_F12));
}

TEST(term_keys_esc_at_end_of_input)
{
	struct keys k = DECODE("a\x1b");

	ASSERT_EQ(k.count, 2);
	EXPECT(is_char(&k.key[0], 'a'));
	EXPECT(is_scan(&k.key[1], SCAN_ESC));
}

TEST(term_keys_esc_followed_by_other_keys)
{
	struct keys k = DECODE("\x1bx\x1b\x1b[A\x1b\r");

	ASSERT_EQ(k.count, 6);
	EXPECT(is_scan(&k.key[0], SCAN_ESC));
	EXPECT(is_char(&k.key[1], 'x'));
	EXPECT(is_scan(&k.key[2], SCAN_ESC));
	EXPECT(is_scan(&k.key[3], SCAN_UP));
	EXPECT(is_scan(&k.key[4], SCAN_ESC));
	EXPECT(is_char(&k.key[5], CHAR_CARRIAGE_RETURN));
}

TEST(term_keys_incomplete_sequence_at_end)
{
	struct keys k = DECODE("\x1b[1");

	ASSERT_EQ(k.count, 3);
	EXPECT(is_scan(&k.key[0], SCAN_ESC));
	EXPECT(is_char(&k.key[1], '['));
	EXPECT(is_char(&k.key[2], '1'));
}

TEST(term_keys_unknown_sequences_dropped)
{
	struct keys k = DECODE("\x1b[99~a\x1b[?1;2cb\x1b[<0;3;4Mc\x1b[1 qd\x1bOze");

	ASSERT_EQ(k.count, 5);
	EXPECT(is_char(&k.key[0], 'a'));
	EXPECT(is_char(&k.key[1], 'b'));
	EXPECT(is_char(&k.key[2], 'c'));
	EXPECT(is_char(&k.key[3], 'd'));
	EXPECT(is_char(&k.key[4], 'e'));
}

TEST(term_keys_overlong_sequence_skipped)
{
	char in[64];
	size_t n = 0;

	in[n++] = 0x1b;
	in[n++] = '[';
	for (int i = 0; i < 40; i++)
		in[n++] = (char)('0' + i % 10);
	in[n++] = 'm';
	in[n++] = 'z';
	struct keys k = decode(in, n);
	ASSERT_EQ(k.count, 1);
	EXPECT(is_char(&k.key[0], 'z'));
}

TEST(term_keys_keypad_application_mode)
{
	struct keys k = DECODE("\x1bOM\x1bOp\x1bOy\x1bOk");

	ASSERT_EQ(k.count, 4);
	EXPECT(is_char(&k.key[0], CHAR_CARRIAGE_RETURN));
	EXPECT(is_char(&k.key[1], '0'));
	EXPECT(is_char(&k.key[2], '9'));
	EXPECT(is_char(&k.key[3], '+'));
}

TEST(term_keys_utf8)
{
	struct keys k = DECODE("\xc3\xa9\xe2\x82\xac\xe2\x94\x80\xf0\x9f\x98\x80z");

	ASSERT_EQ(k.count, 5);
	EXPECT(is_char(&k.key[0], 0x00e9));
	EXPECT(is_char(&k.key[1], 0x20ac));
	EXPECT(is_char(&k.key[2], 0x2500));
	EXPECT(is_char(&k.key[3], 0xfffd)); /* outside the BMP: one replacement */
	EXPECT(is_char(&k.key[4], 'z'));
}

TEST(term_keys_utf8_invalid)
{
	/* stray continuation, truncated sequence, overlong form, surrogate, > U+10FFFF */
	struct keys k = DECODE("\x80"
			       "a"
			       "\xc3"
			       "b"
			       "\xc0\xaf"
			       "\xed\xa0\x80"
			       "\xf5");

	ASSERT(k.count >= 6);
	EXPECT(is_char(&k.key[0], 0xfffd));
	EXPECT(is_char(&k.key[1], 'a'));
	EXPECT(is_char(&k.key[2], 0xfffd));
	EXPECT(is_char(&k.key[3], 'b'));
	for (size_t i = 4; i < k.count; i++)
		EXPECT(is_char(&k.key[i], 0xfffd));
}

TEST(term_keys_utf8_split_across_reads)
{
	struct term_keys d;
	struct keys k = {0};

	term_keys_init(&d);
	feed_at(&d, &k, "\xe2\x82", 2, 1000 * MS);
	EXPECT_EQ(k.count, 0);
	feed_at(&d, &k, "\xac", 1, 1001 * MS);
	ASSERT_EQ(k.count, 1);
	EXPECT(is_char(&k.key[0], 0x20ac));
}

TEST(term_keys_utf8_truncated_at_end)
{
	struct keys k = DECODE("\xe2\x82");

	ASSERT_EQ(k.count, 2);
	EXPECT(is_char(&k.key[0], 0xfffd));
	EXPECT(is_char(&k.key[1], 0xfffd));
}
