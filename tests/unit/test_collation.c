/* EFI_UNICODE_COLLATION_PROTOCOL2 (drivers/unicode_collation): folding, StriColl,
 * MetaiMatch, FatToStr and StrToFat, through the protocol as programs call it. */
#include "support/test.h"
#include "../../drivers/unicode_collation/collation.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

static EFI_UNICODE_COLLATION_PROTOCOL *uc = &collation_english2;

static bool match(const CHAR16 *s, const CHAR16 *p)
{
	return uc->MetaiMatch(uc, (CHAR16 *)s, (CHAR16 *)p);
}

static INTN coll(const CHAR16 *a, const CHAR16 *b)
{
	return uc->StriColl(uc, (CHAR16 *)a, (CHAR16 *)b);
}

TEST(uc_languages)
{
	EXPECT(str8_cmp(collation_english2.SupportedLanguages, "en") == 0);
	EXPECT(str8_cmp(collation_english.SupportedLanguages, "eng") == 0);
}

TEST(uc_stri_coll)
{
	EXPECT(coll(u"abc", u"ABC") == 0);
	EXPECT(coll(u"", u"") == 0);
	EXPECT(coll(u"abc", u"abd") < 0);
	EXPECT(coll(u"ABD", u"abc") > 0);
	EXPECT(coll(u"ab", u"abc") < 0);
	EXPECT(coll(u"abc", u"ab") > 0);
	EXPECT(coll(u"\u00e9t\u00e9", u"\u00c9T\u00c9") == 0);
	EXPECT(coll(u"\u043f\u0440\u0438\u0432\u0435\u0442",
		    u"\u041f\u0420\u0418\u0412\u0415\u0422") == 0);
	EXPECT(coll(u"\u03c3", u"\u03a3") == 0);
	EXPECT(coll(u"x\u00ff", u"X\u0178") == 0);
	EXPECT(coll(u"a_", u"A@") > 0); /* '_' 0x5f sorts after '@' 0x40 */
}

TEST(uc_case_conversion)
{
	CHAR16 s[] = u"Hello, W\u00f6rld \u00df \u0451\u0436 \u03b1\u03c2 \u00ff";

	uc->StrUpr(uc, s);
	EXPECT(str16_cmp(s, u"HELLO, W\u00d6RLD \u00df \u0401\u0416 \u0391\u03a3 \u0178") == 0);
	uc->StrLwr(uc, s);
	EXPECT(str16_cmp(s, u"hello, w\u00f6rld \u00df \u0451\u0436 \u03b1\u03c3 \u00ff") == 0);
	for (CHAR16 c = 0; c < 0x500; c++) {
		CHAR16 up = collation_upper(c), lo = collation_lower(c);
		if (up != c && collation_lower(up) != c && c != 0x3c2)
			EXPECT_EQ(collation_lower(up), c);
		if (lo != c)
			EXPECT_EQ(collation_upper(lo), c);
	}
}

TEST(uc_match_literal_and_question)
{
	EXPECT(match(u"", u""));
	EXPECT(!match(u"a", u""));
	EXPECT(!match(u"", u"a"));
	EXPECT(match(u"readme.TXT", u"README.txt"));
	EXPECT(match(u"d1.", u"d?."));
	EXPECT(match(u"D9.", u"d?."));
	EXPECT(!match(u"d.", u"d?."));
	EXPECT(!match(u"d12.", u"d?."));
	EXPECT(match(u"abc", u"???"));
	EXPECT(!match(u"ab", u"???"));
}

TEST(uc_match_star)
{
	EXPECT(match(u"", u"*"));
	EXPECT(match(u"anything", u"*"));
	EXPECT(match(u"anything", u"**"));
	EXPECT(match(u"file.fw", u"*.FW"));
	EXPECT(match(u"FILE.Fw", u"*.fw"));
	EXPECT(!match(u"file.fwx", u"*.fw"));
	EXPECT(match(u"a.b.c.fw", u"*.fw"));
	EXPECT(match(u"abcbcd", u"a*bcd"));
	EXPECT(match(u"abcd", u"a*b*c*d"));
	EXPECT(match(u"axxbxxcxxd", u"a*b*c*d"));
	EXPECT(!match(u"axxbxxcxx", u"a*b*c*d"));
	EXPECT(match(u"mississippi", u"*sip*"));
	EXPECT(match(u"mississippi", u"m*iss*ppi"));
	EXPECT(!match(u"mississippi", u"m*iss*ppx"));
	EXPECT(match(u"abc", u"*?"));
	EXPECT(!match(u"", u"*?"));
	EXPECT(match(u"ab", u"a*?"));
	EXPECT(!match(u"a", u"a*?"));
	EXPECT(match(u"*", u"*"));
	EXPECT(match(u"a*b", u"a?b"));
}

TEST(uc_match_sets_and_ranges)
{
	EXPECT(match(u"q", u"[a-z]"));
	EXPECT(match(u"Q", u"[a-z]"));
	EXPECT(!match(u"1", u"[a-z]"));
	EXPECT(match(u"z", u"z"));
	EXPECT(match(u"b", u"[abc]"));
	EXPECT(match(u"B", u"[abc]"));
	EXPECT(!match(u"d", u"[abc]"));
	EXPECT(match(u"file7.efi", u"file[0-9].efi"));
	EXPECT(!match(u"filex.efi", u"file[0-9].efi"));
	EXPECT(match(u"x5", u"[a-cx-z][0-9]"));
	EXPECT(match(u"-", u"[-a]"));
	EXPECT(match(u"-", u"[a-]"));
	EXPECT(match(u"a", u"[a-]"));
	EXPECT(!match(u"b", u"[a-]"));
	EXPECT(!match(u"a", u"[]"));
	EXPECT(!match(u"a", u"[a"));
	EXPECT(!match(u"abc", u"*[a"));
	EXPECT(match(u"boot.efi", u"*.[eE][fF][iI]"));
	EXPECT(match(u"X", u"*[x]"));
	EXPECT(match(u"\u00e9", u"[\u00c0-\u00de]"));
	EXPECT(match(u"]", u"]"));
	EXPECT(match(u"a]", u"[a]]"));
}

TEST(uc_fat_to_str)
{
	CHAR16 out[16];
	CHAR8 fat[] = "HELLO\x82\x90\xe1";

	uc->FatToStr(uc, 8, fat, out);
	EXPECT(str16_cmp(out, u"HELLO\u00e9\u00c9\u00df") == 0);
	uc->FatToStr(uc, 3, fat, out);
	EXPECT(str16_cmp(out, u"HEL") == 0);
	uc->FatToStr(uc, 11, (CHAR8 *)"AB\0CD", out);
	EXPECT(str16_cmp(out, u"AB") == 0);
}

TEST(uc_str_to_fat)
{
	CHAR8 fat[16];

	mem_set(fat, 0x7f, sizeof(fat));
	EXPECT(!uc->StrToFat(uc, u"readme.txt", 11, fat));
	EXPECT(str8_cmp(fat, "READMETXT") == 0);
	EXPECT(!uc->StrToFat(uc, u"a b.c", 11, fat));
	EXPECT(str8_cmp(fat, "ABC") == 0);
	EXPECT(uc->StrToFat(uc, u"a+b[1]", 11, fat));
	EXPECT(str8_cmp(fat, "A_B_1_") == 0);
	EXPECT(uc->StrToFat(uc, u"\u263a\u2666x", 11, fat));
	EXPECT(str8_cmp(fat, "__X") == 0);
	EXPECT(!uc->StrToFat(uc, u"\u00e9t\u00e9\u00df", 11, fat));
	EXPECT(str8_cmp(fat, "\x90T\x90\xe1") == 0);
	EXPECT(uc->StrToFat(uc, u"\u00ff\u00ef", 11, fat)); /* no capital in code page 437 */
	EXPECT(str8_cmp(fat, "__") == 0);
	/* Stops at FatSize; no terminator when it is full. */
	mem_set(fat, 0x7f, sizeof(fat));
	EXPECT(!uc->StrToFat(uc, u"abcdefgh", 4, fat));
	EXPECT(mem_cmp(fat, "ABCD\x7f", 5) == 0);
	EXPECT(uc->StrToFat(uc, u"abc*", 4, fat));
	EXPECT(mem_cmp(fat, "ABC_\x7f", 5) == 0);
	EXPECT(!uc->StrToFat(uc, u"abcd*", 4, fat)); /* the '_' would not fit */
	EXPECT(!uc->StrToFat(uc, u"", 4, fat));
	EXPECT_EQ(fat[0], 0);
}

TEST(uc_published_once)
{
	static const EFI_GUID guid2 = EFI_UNICODE_COLLATION_PROTOCOL2_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	void *found = NULL;

	/* The unit-test platform runs no init steps; run ours as the platform would. */
	EXPECT_STATUS(collation_publish(), EFI_SUCCESS);
	EXPECT_STATUS(collation_publish(), EFI_SUCCESS);
	EXPECT_STATUS(protocol_locate(&guid2, &found), EFI_SUCCESS);
	EXPECT(found == &collation_english2);
	EXPECT_STATUS(handle_locate_buffer(ByProtocol, &guid2, NULL, &count, &handles),
		      EFI_SUCCESS);
	EXPECT_EQ(count, 1);
	pool_free(handles);
}
