/* The line editor's state, history and completion (apps/shell/pure/edit.c), and wildcard
 * matching and numbers (wild.c, text.c). */
#include "../../apps/shell/pure/edit.h"
#include "../../apps/shell/pure/text.h"
#include "../../apps/shell/pure/wild.h"
#include "shell_test.h"

static void type(struct sh_edit *e, const CHAR16 *s)
{
	for (; *s; s++)
		sh_edit_insert(e, *s);
}

TEST(shell_edit_cursor_and_keys)
{
	struct sh_edit e = {.overwrite = false};

	shell_test_init();
	sh_edit_clear(&e);
	type(&e, u"ecoh");
	sh_edit_left(&e);
	EXPECT(sh_edit_backspace(&e));
	sh_edit_right(&e);
	type(&e, u"o");
	EXPECT(str16_is(e.text, u"echo"));
	sh_edit_home(&e);
	EXPECT(!sh_edit_left(&e));
	EXPECT(!sh_edit_backspace(&e));
	EXPECT(sh_edit_delete(&e));
	type(&e, u"E");
	EXPECT(str16_is(e.text, u"Echo"));
	sh_edit_end(&e);
	EXPECT(!sh_edit_delete(&e));
	e.overwrite = true;
	sh_edit_home(&e);
	type(&e, u"xy");
	EXPECT(str16_is(e.text, u"xyho"));
	sh_edit_end(&e);
	type(&e, u"!");
	EXPECT(str16_is(e.text, u"xyho!"));
	EXPECT_EQ(e.cursor, 5);
	sh_edit_free(&e);
}

/* Issue 10, item 4: a line of 1024 characters or more was cut there and the rest ran. */
TEST(shell_edit_long_line_is_kept_whole)
{
	struct sh_edit e = {.overwrite = false};

	shell_test_init();
	sh_edit_clear(&e);
	for (int i = 0; i < 5000; i++)
		EXPECT(sh_edit_insert(&e, (CHAR16)('a' + i % 26)));
	EXPECT_EQ(e.len, 5000);
	EXPECT(!e.lost);
	bool same = true;
	for (int i = 0; i < 5000; i++)
		same = same && e.text[i] == (CHAR16)('a' + i % 26);
	EXPECT(same);
	EXPECT_EQ(e.text[5000], 0);
	EXPECT(sh_edit_replace(&e, 0, 4990, u"x"));
	EXPECT(str16_is(e.text, u"xyzabcdefgh"));
	sh_edit_free(&e);
}

static void *no_memory(size_t size)
{
	return NULL;
}

/* When memory runs out the key is lost and the line says so: it must not run. */
TEST(shell_edit_lost_key_is_reported)
{
	struct sh_edit e = {.overwrite = false};

	shell_test_init();
	sh_edit_clear(&e);
	type(&e, u"rm fs0:\\dir");
	sh_mem_use(no_memory, free);
	for (int i = 0; i < 100 && !e.lost; i++)
		sh_edit_insert(&e, '\\');
	EXPECT(e.lost);
	EXPECT(!sh_edit_replace(&e, 0, 0, u"a very long text that needs more room than there is"));
	shell_test_init();
	sh_edit_clear(&e);
	EXPECT(!e.lost);
	sh_edit_free(&e);
}

TEST(shell_history_up_down)
{
	struct sh_history h = {0};

	shell_test_init();
	sh_history_add(&h, u"one");
	sh_history_add(&h, u"two");
	sh_history_add(&h, u"two");
	sh_history_add(&h, u"   ");
	EXPECT_EQ(h.count, 2);
	EXPECT(str16_is(sh_history_up(&h), u"two"));
	EXPECT(str16_is(sh_history_up(&h), u"one"));
	EXPECT(sh_history_up(&h) == NULL);
	EXPECT(str16_is(sh_history_down(&h), u"two"));
	EXPECT(sh_history_down(&h) == NULL);
	EXPECT(sh_history_down(&h) == NULL);
	EXPECT(str16_is(sh_history_up(&h), u"two"));
	for (int i = 0; i < SH_HISTORY_MAX + 5; i++) {
		CHAR16 s[3] = {(CHAR16)('A' + i % 26), (CHAR16)('a' + i / 26), 0};
		sh_history_add(&h, s);
	}
	EXPECT_EQ(h.count, SH_HISTORY_MAX);
	sh_history_free(&h);
}

TEST(shell_completion_cycles)
{
	struct sh_edit e = {.overwrite = false};
	struct sh_complete c = {0};
	struct sh_strv cands;
	size_t start, end;

	shell_test_init();
	sh_edit_clear(&e);
	type(&e, u"type fs0:\\st x");
	e.cursor = 12; /* in "fs0:\st" */
	sh_edit_word(&e, &start, &end);
	EXPECT_EQ(start, 5);
	EXPECT_EQ(end, 12);
	EXPECT(!sh_edit_word_is_command(&e, start));
	EXPECT(sh_edit_word_is_command(&e, 0));
	sh_strv_init(&cands);
	sh_strv_push(&cands, sh_strdup16(u"fs0:\\startup.nsh"));
	sh_strv_push(&cands, sh_strdup16(u"fs0:\\st dir"));
	sh_complete_begin(&c, &cands, start, end);
	EXPECT(sh_complete_next(&c, &e));
	EXPECT(str16_is(e.text, u"type fs0:\\startup.nsh x"));
	EXPECT(sh_complete_next(&c, &e));
	EXPECT(str16_is(e.text, u"type \"fs0:\\st dir\" x"));
	EXPECT(sh_complete_next(&c, &e));
	EXPECT(str16_is(e.text, u"type fs0:\\startup.nsh x"));
	sh_complete_reset(&c);
	EXPECT(!sh_complete_next(&c, &e));
	sh_edit_free(&e);
}

TEST(shell_wildcards)
{
	EXPECT(sh_wild_match(u"startup.nsh", u"*.NSH"));
	EXPECT(sh_wild_match(u"startup.nsh", u"s*p.*"));
	EXPECT(sh_wild_match(u"a", u"?"));
	EXPECT(!sh_wild_match(u"ab", u"?"));
	EXPECT(sh_wild_match(u"", u"*"));
	EXPECT(sh_wild_match(u"abcabc", u"*abc"));
	EXPECT(sh_wild_match(u"file7.txt", u"file[0-9].txt"));
	EXPECT(!sh_wild_match(u"fileX.txt", u"file[0-9].txt"));
	EXPECT(sh_wild_match(u"b", u"[abc]"));
	EXPECT(sh_wild_match(u"[", u"["));
	EXPECT(!sh_wild_match(u"abc", u"*d*"));
	EXPECT(sh_has_wildcards(u"a*"));
	EXPECT(!sh_has_wildcards(u"fs0:\\a.txt"));
}

TEST(shell_numbers)
{
	UINT64 u;
	INT64 i;

	EXPECT(sh_parse_u64(u"42", false, &u) && u == 42);
	EXPECT(sh_parse_u64(u"0x1F", false, &u) && u == 31);
	EXPECT(sh_parse_u64(u"1F", true, &u) && u == 31);
	EXPECT(!sh_parse_u64(u"1F", false, &u));
	EXPECT(!sh_parse_u64(u"", false, &u));
	EXPECT(!sh_parse_u64(u"0x", false, &u));
	EXPECT(sh_parse_u64(u"18446744073709551615", false, &u) && u == ~0ULL);
	EXPECT(!sh_parse_u64(u"18446744073709551616", false, &u));
	EXPECT(sh_parse_i64(u"-5", &i) && i == -5);
	EXPECT(sh_parse_i64(u"-0x10", &i) && i == -16);
	EXPECT(sh_parse_i64(u"-9223372036854775808", &i) && i == INT64_MIN);
	EXPECT(!sh_parse_i64(u"9223372036854775808", &i));
}

TEST(shell_text_decode)
{
	static const UINT8 ucs2[] = {0xff, 0xfe, 'h', 0, 'i', 0};
	static const char utf8[] = "\xef\xbb\xbf"
				   "caf\xc3\xa9";
	CHAR16 *s;
	size_t n;

	shell_test_init();
	ASSERT_STATUS(sh_text_decode(ucs2, sizeof(ucs2), &s, &n), EFI_SUCCESS);
	EXPECT(n == 2 && str16_is(s, u"hi"));
	sh_free(s);
	ASSERT_STATUS(sh_text_decode(utf8, sizeof(utf8) - 1, &s, &n), EFI_SUCCESS);
	EXPECT(n == 4 && str16_is(s, u"caf\u00e9"));
	sh_free(s);
	EXPECT(sh_eq_ascii(u"ECHO", "echo"));
	EXPECT(!sh_eq_ascii(u"echo2", "echo"));
	EXPECT(sh_eq_nocase(u"Fs0:", u"fs0:"));
}
