/* Variable expansion (apps/shell/pure/expand.c): %name%, %0-%9, for variables, ^. */
#include "../../apps/shell/pure/expand.h"
#include "shell_test.h"

static const CHAR16 *fake_env(void *ctx, const CHAR16 *name, size_t len)
{
	if (len == 4 && str16_ncmp(name, u"path", 4) == 0)
		return u"fs0:\\";
	if (len == 5 && str16_ncmp(name, u"empty", 5) == 0)
		return u"";
	if (len == 1 && name[0] == 'x')
		return u"%y%";
	return NULL;
}

static bool expands(const struct sh_vars *v, const CHAR16 *line, const CHAR16 *want)
{
	CHAR16 *out = NULL;
	bool ok;

	shell_test_init();
	ok = sh_expand(line, v, &out) == EFI_SUCCESS && str16_is(out, want);
	sh_free(out);
	return ok;
}

TEST(shell_expand_environment)
{
	struct sh_vars v = {fake_env};

	EXPECT(expands(&v, u"echo %path%x", u"echo fs0:\\x"));
	EXPECT(expands(&v, u"[%empty%][%unset%]", u"[][]"));
	EXPECT(expands(&v, u"100% sure", u"100% sure"));
	EXPECT(expands(&v, u"a %b c% d", u"a %b c% d"));
	EXPECT(expands(&v, u"%%", u"%%"));
	EXPECT(expands(&v, u"%x%", u"%y%")); /* values are not expanded again */
	EXPECT(expands(&v, u"^%path^% %path%", u"^%path^% fs0:\\"));
	EXPECT(expands(&v, u"\"%path%\"", u"\"fs0:\\\""));
}

TEST(shell_expand_positional)
{
	CHAR16 *args[] = {(CHAR16 *)u"s.nsh", (CHAR16 *)u"one", (CHAR16 *)u"two words"};
	struct sh_vars in_script = {fake_env, NULL, args, 3};
	struct sh_vars outside = {fake_env};

	EXPECT(expands(&in_script, u"%0 %1 %2 [%3] [%9]", u"s.nsh one two words [] []"));
	EXPECT(expands(&outside, u"%1 %path%", u"%1 fs0:\\"));
}

TEST(shell_expand_for_variables)
{
	struct sh_for_var loops[] = {{'a', u"outer"}, {'i', u"7"}, {'a', u"inner"}};
	struct sh_vars v = {fake_env, NULL, NULL, 0, loops, 3};

	EXPECT(expands(&v, u"%a-%i %i.txt", u"inner-7 7.txt"));
	EXPECT(expands(&v, u"%afile %a%i %i% == 7", u"innerfile inner7 7 == 7"));
	EXPECT(expands(&v, u"%b %a%", u"%b inner"));
	/* A set variable whose name starts with a loop letter wins; an unset one does not. */
	EXPECT(expands(&v, u"[%path%] [%ix%]", u"[fs0:\\] [7x%]"));
	{
		struct sh_for_var p_loop[] = {{'p', u"P"}};
		struct sh_vars pv = {fake_env, NULL, NULL, 0, p_loop, 1};
		EXPECT(expands(&pv, u"%path% %p %pa%", u"fs0:\\ P Pa%"));
	}
}
