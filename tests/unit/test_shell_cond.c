/* Conditions of if (apps/shell/pure/cond.c). */
#include "../../apps/shell/pure/cond.h"
#include "../../apps/shell/pure/parse.h"
#include "shell_test.h"

static bool exists(void *ctx, const CHAR16 *path)
{
	return str16_cmp(path, u"there.txt") == 0;
}

static const struct sh_cond_host host = {exists, NULL};
static struct sh_cond_error cerr;

/* Evaluates a condition written as one line; 1 true, 0 false, -1 error. */
static int eval(const CHAR16 *text)
{
	struct sh_strv w;
	bool result;
	EFI_STATUS status;

	shell_test_init();
	if (EFI_ERROR(sh_split_words(text, &w, NULL)))
		return -2;
	status = sh_cond_eval(w.v, w.count, &host, &result, &cerr);
	sh_strv_free(&w);
	return EFI_ERROR(status) ? -1 : result;
}

TEST(shell_cond_strings)
{
	EXPECT_EQ(eval(u"abc == abc"), 1);
	EXPECT_EQ(eval(u"abc == ABC"), 0);
	EXPECT_EQ(eval(u"/i abc == ABC"), 1);
	EXPECT_EQ(eval(u"\"\" == \"\""), 1);
	EXPECT_EQ(eval(u"a lt b"), 1);
	EXPECT_EQ(eval(u"/i B gt a"), 1);
	EXPECT_EQ(eval(u"B gt a"), 0);
}

TEST(shell_cond_numbers)
{
	EXPECT_EQ(eval(u"0x0 == 0"), 1);
	EXPECT_EQ(eval(u"/s 0x0 == 0"), 0);
	EXPECT_EQ(eval(u"10 gt 9"), 1); /* not as strings */
	EXPECT_EQ(eval(u"-1 lt 0"), 1);
	EXPECT_EQ(eval(u"0xff eq 255"), 1);
	EXPECT_EQ(eval(u"3 ne 3"), 0);
	EXPECT_EQ(eval(u"5 ge 5"), 1);
	EXPECT_EQ(eval(u"4 le 3"), 0);
	EXPECT_EQ(eval(u"0x8000000000000000 ugt 1"), 1);
	EXPECT_EQ(eval(u"0x8000000000000000 gt 1"), 0); /* negative when signed */
	EXPECT_EQ(eval(u"-1 gt 1"), 0);
	EXPECT_EQ(eval(u"2 ult 3"), 1);
	EXPECT_EQ(eval(u"3 uge 3"), 1);
	EXPECT_EQ(eval(u"4 ule 3"), 0);
	EXPECT_EQ(eval(u"0x800000000000000E == UefiError(14)"), 1);
	EXPECT_EQ(eval(u"0xA000000000000001 == PiError(1)"), 1);
	EXPECT_EQ(eval(u"0xC000000000000002 == OemError(2)"), 1);
}

TEST(shell_cond_logic)
{
	EXPECT_EQ(eval(u"exist there.txt"), 1);
	EXPECT_EQ(eval(u"not exist there.txt"), 0);
	EXPECT_EQ(eval(u"exists(there.txt)"), 1);
	EXPECT_EQ(eval(u"isint(42) and not isint(4x)"), 1);
	EXPECT_EQ(eval(u"1 == 2 or 2 == 2"), 1);
	EXPECT_EQ(eval(u"1 == 1 and 2 == 3"), 0);
	EXPECT_EQ(eval(u"1 == 2 or 2 == 2 and 3 == 4"), 0);
	EXPECT_EQ(eval(u"( 1 == 2 or 2 == 2 ) and 3 == 3"), 1);
	EXPECT_EQ(eval(u"not not a == a"), 1);
}

TEST(shell_cond_errors)
{
	EXPECT_EQ(eval(u""), -1);
	EXPECT_EQ(eval(u"a"), -1);
	EXPECT_EQ(eval(u"a zz b"), -1);
	EXPECT_EQ(cerr.word, 1);
	EXPECT_EQ(eval(u"a =="), -1);
	EXPECT_EQ(eval(u"a == b c"), -1);
	EXPECT_EQ(eval(u"( a == a"), -1);
	EXPECT_EQ(eval(u"exist"), -1);
	EXPECT_EQ(eval(u"/x a == a"), -1);
	EXPECT_EQ(eval(u"a == a and"), -1);
}
