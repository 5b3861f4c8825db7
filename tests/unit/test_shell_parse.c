/* The shell's command-line parser (apps/shell/pure/parse.c): words, quotes, escapes,
 * comments, pipes and redirections, and the errors it reports. */
#include "../../apps/shell/pure/parse.h"
#include "shell_test.h"

static struct sh_pipeline p;
static struct sh_parse_error err;

static EFI_STATUS parse(const CHAR16 *line)
{
	shell_test_init();
	sh_pipeline_free(&p);
	return sh_parse_line(line, &p, &err);
}

TEST(shell_parse_words_and_blanks)
{
	ASSERT_STATUS(parse(u"  ls   -r\tfs0:\\efi  "), EFI_SUCCESS);
	ASSERT_EQ(p.count, 1);
	ASSERT_EQ(p.cmds[0].argc, 3);
	EXPECT(str16_is(p.cmds[0].argv[0], u"ls"));
	EXPECT(str16_is(p.cmds[0].argv[1], u"-r"));
	EXPECT(str16_is(p.cmds[0].argv[2], u"fs0:\\efi"));
	EXPECT(p.cmds[0].argv[3] == NULL);
	ASSERT_STATUS(parse(u""), EFI_SUCCESS);
	EXPECT_EQ(p.count, 0);
	ASSERT_STATUS(parse(u"   # only a comment"), EFI_SUCCESS);
	EXPECT_EQ(p.count, 0);
	sh_pipeline_free(&p);
}

TEST(shell_parse_quotes_and_escapes)
{
	ASSERT_STATUS(parse(u"echo \"a  b\" x\"y z\"w \"\" ^\"q^\" ^^ a^ b"), EFI_SUCCESS);
	ASSERT_EQ(p.cmds[0].argc, 7);
	EXPECT(str16_is(p.cmds[0].argv[1], u"a  b"));
	EXPECT(str16_is(p.cmds[0].argv[2], u"xy zw"));
	EXPECT(str16_is(p.cmds[0].argv[3], u""));
	EXPECT(str16_is(p.cmds[0].argv[4], u"\"q\""));
	EXPECT(str16_is(p.cmds[0].argv[5], u"^"));
	EXPECT(str16_is(p.cmds[0].argv[6], u"a b"));
	/* Operators and comments lose their meaning in quotes or after ^. */
	ASSERT_STATUS(parse(u"echo \"a|b>c#d\" ^| ^> ^# ^%x^%"), EFI_SUCCESS);
	ASSERT_EQ(p.count, 1);
	EXPECT(str16_is(p.cmds[0].argv[1], u"a|b>c#d"));
	EXPECT(str16_is(p.cmds[0].argv[2], u"|"));
	EXPECT(str16_is(p.cmds[0].argv[3], u">"));
	EXPECT(str16_is(p.cmds[0].argv[4], u"#"));
	EXPECT(str16_is(p.cmds[0].argv[5], u"%x%"));
	EXPECT(p.cmds[0].out.target == NULL);
	sh_pipeline_free(&p);
}

TEST(shell_parse_comments)
{
	ASSERT_STATUS(parse(u"echo a # b | c > d"), EFI_SUCCESS);
	ASSERT_EQ(p.count, 1);
	EXPECT_EQ(p.cmds[0].argc, 2);
	EXPECT(p.cmds[0].out.target == NULL);
	ASSERT_STATUS(parse(u"echo a#b"), EFI_SUCCESS);
	EXPECT_EQ(p.cmds[0].argc, 2);
	EXPECT(str16_is(p.cmds[0].argv[1], u"a"));
	sh_pipeline_free(&p);
}

TEST(shell_parse_pipes)
{
	ASSERT_STATUS(parse(u"ls -r|more | type"), EFI_SUCCESS);
	ASSERT_EQ(p.count, 3);
	EXPECT(str16_is(p.cmds[0].argv[1], u"-r"));
	EXPECT(str16_is(p.cmds[1].argv[0], u"more"));
	EXPECT(str16_is(p.cmds[2].argv[0], u"type"));
	EXPECT_STATUS(parse(u"ls | | more"), EFI_INVALID_PARAMETER);
	EXPECT(err.what != NULL);
	EXPECT_STATUS(parse(u"| more"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(parse(u"ls |"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(parse(u"ls > x | more"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(parse(u"ls | more < x"), EFI_INVALID_PARAMETER);
	sh_pipeline_free(&p);
}

TEST(shell_parse_redirections)
{
	ASSERT_STATUS(parse(u"ls >out.txt 2>> err.txt < in.txt"), EFI_SUCCESS);
	ASSERT_EQ(p.cmds[0].argc, 1);
	EXPECT(str16_is(p.cmds[0].out.target, u"out.txt"));
	EXPECT(!p.cmds[0].out.append && !p.cmds[0].out.ascii);
	EXPECT(str16_is(p.cmds[0].err.target, u"err.txt"));
	EXPECT(p.cmds[0].err.append);
	EXPECT(str16_is(p.cmds[0].in.target, u"in.txt"));
	ASSERT_STATUS(parse(u"echo x 1>> \"a b.txt\""), EFI_SUCCESS);
	EXPECT(str16_is(p.cmds[0].out.target, u"a b.txt"));
	EXPECT(p.cmds[0].out.append);
	/* A mid-word '>' ends the word; "1>" counts only at the start of a word. */
	EXPECT_STATUS(parse(u"echo ab>c x1>y"), EFI_INVALID_PARAMETER); /* stdout twice */
	ASSERT_STATUS(parse(u"echo ab>c x1"), EFI_SUCCESS);
	EXPECT(str16_is(p.cmds[0].argv[1], u"ab"));
	EXPECT(str16_is(p.cmds[0].out.target, u"c"));
	EXPECT(str16_is(p.cmds[0].argv[2], u"x1"));
	sh_pipeline_free(&p);
}

TEST(shell_parse_redirection_forms)
{
	ASSERT_STATUS(parse(u"echo x >a file.txt"), EFI_SUCCESS);
	EXPECT(p.cmds[0].out.ascii);
	EXPECT(str16_is(p.cmds[0].out.target, u"file.txt"));
	ASSERT_STATUS(parse(u"echo x >>a file.txt"), EFI_SUCCESS);
	EXPECT(p.cmds[0].out.ascii && p.cmds[0].out.append);
	ASSERT_STATUS(parse(u"echo x >v name"), EFI_SUCCESS);
	EXPECT(p.cmds[0].out.to_var);
	EXPECT(str16_is(p.cmds[0].out.target, u"name"));
	ASSERT_STATUS(parse(u"echo x 2>a e.txt"), EFI_SUCCESS);
	EXPECT(p.cmds[0].err.ascii);
	/* Without a following word the letter is the file's name. */
	ASSERT_STATUS(parse(u"echo x >a"), EFI_SUCCESS);
	EXPECT(!p.cmds[0].out.ascii);
	EXPECT(str16_is(p.cmds[0].out.target, u"a"));
	ASSERT_STATUS(parse(u"echo x >afile"), EFI_SUCCESS);
	EXPECT(str16_is(p.cmds[0].out.target, u"afile"));
	sh_pipeline_free(&p);
}

TEST(shell_parse_errors_say_where)
{
	EXPECT_STATUS(parse(u"echo \"open"), EFI_INVALID_PARAMETER);
	EXPECT_EQ(err.column, 5);
	EXPECT_STATUS(parse(u"echo x >"), EFI_INVALID_PARAMETER);
	EXPECT_EQ(err.column, 7);
	EXPECT_STATUS(parse(u"echo x > # comment"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(parse(u"echo > a > b"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(parse(u"> a"), EFI_INVALID_PARAMETER);
	sh_pipeline_free(&p);
}

TEST(shell_split_and_join_words)
{
	struct sh_strv w;
	CHAR16 *line;

	shell_test_init();
	ASSERT_STATUS(sh_split_words(u"ls -a \"x y\" a|b >c # gone", &w, NULL), EFI_SUCCESS);
	ASSERT_EQ(w.count, 5);
	EXPECT(str16_is(w.v[2], u"x y"));
	EXPECT(str16_is(w.v[3], u"a|b"));
	EXPECT(str16_is(w.v[4], u">c"));
	line = sh_join_words(w.v, w.count);
	EXPECT(str16_is(line, u"ls -a \"x y\" \"a|b\" \">c\""));
	sh_free(line);
	sh_strv_free(&w);
	{
		CHAR16 *words[] = {(CHAR16 *)u"", (CHAR16 *)u"q\"t", (CHAR16 *)u"plain"};
		line = sh_join_words(words, 3);
		EXPECT(str16_is(line, u"\"\" \"q^\"t\" plain"));
		sh_free(line);
	}
	EXPECT_STATUS(sh_split_words(u"a \"b", &w, NULL), EFI_INVALID_PARAMETER);
}
