/* EFI file path normalisation and name comparison (lib/path.c). */
#include "support/test.h"
#include <ember/lib/path.h>
#include <ember/lib/str.h>

static CHAR16 out[64];

static bool normalizes_to(const CHAR16 *base, const CHAR16 *name, const CHAR16 *want)
{
	mem_set(out, 0x55, sizeof(out));
	return path_normalize(base, name, out, ARRAY_SIZE(out)) == EFI_SUCCESS &&
	       str16_cmp(out, want) == 0;
}

TEST(path_normalize_relative_and_absolute)
{
	EXPECT(normalizes_to(u"\\", u"a", u"\\a"));
	EXPECT(normalizes_to(u"\\EFI", u"BOOT\\x.efi", u"\\EFI\\BOOT\\x.efi"));
	EXPECT(normalizes_to(u"\\EFI\\BOOT", u"\\other", u"\\other"));
	EXPECT(normalizes_to(u"\\EFI", u"", u"\\EFI"));
	EXPECT(normalizes_to(u"\\", u"", u"\\"));
	EXPECT(normalizes_to(u"\\EFI", u"\\", u"\\"));
}

TEST(path_normalize_dots_and_separators)
{
	EXPECT(normalizes_to(u"\\", u"a\\\\b\\\\\\c\\", u"\\a\\b\\c"));
	EXPECT(normalizes_to(u"\\a", u".\\b\\.\\.", u"\\a\\b"));
	EXPECT(normalizes_to(u"\\a\\b", u"..", u"\\a"));
	EXPECT(normalizes_to(u"\\a\\b", u"..\\..", u"\\"));
	EXPECT(normalizes_to(u"\\a", u"..\\b\\..\\c", u"\\c"));
	EXPECT(normalizes_to(u"\\", u"\\\\a\\.\\..\\b", u"\\b"));
	EXPECT(normalizes_to(u"\\", u"...", u"\\..."));
	EXPECT(normalizes_to(u"\\", u"a..b\\.x", u"\\a..b\\.x"));
}

TEST(path_normalize_never_leaves_the_root)
{
	EXPECT_STATUS(path_normalize(u"\\", u"..", out, ARRAY_SIZE(out)), EFI_NOT_FOUND);
	EXPECT_STATUS(path_normalize(u"\\a", u"..\\..", out, ARRAY_SIZE(out)), EFI_NOT_FOUND);
	EXPECT_STATUS(path_normalize(u"\\a\\b", u"\\..\\a", out, ARRAY_SIZE(out)), EFI_NOT_FOUND);
	EXPECT_STATUS(path_normalize(u"\\", u"a\\..\\..\\b", out, ARRAY_SIZE(out)), EFI_NOT_FOUND);
}

TEST(path_normalize_rejects_bad_names)
{
	static CHAR16 long_name[PATH_NAME_MAX + 2];

	EXPECT_STATUS(path_normalize(u"\\", u"a/b", out, ARRAY_SIZE(out)), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(path_normalize(u"\\", u"a\x01", out, ARRAY_SIZE(out)), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(path_normalize(u"\\", u"..\\a\x7f", out, ARRAY_SIZE(out)), EFI_NOT_FOUND);
	EXPECT_STATUS(path_normalize(u"\\a/..", u"b", out, ARRAY_SIZE(out)), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(path_normalize(u"a", u"b", out, ARRAY_SIZE(out)), EFI_INVALID_PARAMETER);
	for (size_t i = 0; i < PATH_NAME_MAX + 1; i++)
		long_name[i] = u'x';
	{
		CHAR16 big[PATH_NAME_MAX + 8];

		EXPECT_STATUS(path_normalize(u"\\", long_name, big, ARRAY_SIZE(big)),
			      EFI_INVALID_PARAMETER);
		long_name[PATH_NAME_MAX] = 0;
		EXPECT_STATUS(path_normalize(u"\\", long_name, big, ARRAY_SIZE(big)), EFI_SUCCESS);
		EXPECT_EQ(str16_len(big), PATH_NAME_MAX + 1);
	}
}

TEST(path_normalize_checks_the_output_size)
{
	CHAR16 small[6];

	EXPECT_STATUS(path_normalize(u"\\", u"abcd", small, ARRAY_SIZE(small)), EFI_SUCCESS);
	EXPECT_STATUS(path_normalize(u"\\", u"abcde", small, ARRAY_SIZE(small)),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_STATUS(path_normalize(u"\\abcdef", u"\\ab", small, ARRAY_SIZE(small)), EFI_SUCCESS);
	EXPECT_STATUS(path_normalize(u"\\", u"a", small, 1), EFI_BUFFER_TOO_SMALL);
	/* The documented bound is always enough. */
	{
		const CHAR16 *base = u"\\a\\b", *name = u"\\\\c\\.\\d\\";
		CHAR16 exact[4 + 8 + 2];

		EXPECT_STATUS(path_normalize(base, name, exact, ARRAY_SIZE(exact)), EFI_SUCCESS);
	}
}

TEST(path_iterates_components)
{
	const CHAR16 *cursor = u"\\EFI\\BOOT\\x.efi", *name;

	EXPECT_EQ(path_next(&cursor, &name), 3);
	EXPECT(str16_ncmp(name, u"EFI", 3) == 0);
	EXPECT_EQ(path_next(&cursor, &name), 4);
	EXPECT(str16_ncmp(name, u"BOOT", 4) == 0);
	EXPECT_EQ(path_next(&cursor, &name), 5);
	EXPECT(str16_ncmp(name, u"x.efi", 5) == 0);
	EXPECT_EQ(path_next(&cursor, &name), 0);
	cursor = u"\\";
	EXPECT_EQ(path_next(&cursor, &name), 0);
}

TEST(path_last_and_parent)
{
	EXPECT(str16_cmp(path_last(u"\\a\\bc"), u"bc") == 0);
	EXPECT(str16_cmp(path_last(u"\\a"), u"a") == 0);
	EXPECT(str16_cmp(path_last(u"\\"), u"") == 0);
	EXPECT_EQ(path_parent_len(u"\\a\\bc"), 2);
	EXPECT_EQ(path_parent_len(u"\\abc"), 1);
	EXPECT_EQ(path_parent_len(u"\\"), 0);
}

TEST(path_names_compare_without_case)
{
	EXPECT(path_name_equal(u"Readme.TXT", 10, u"README.txt", 10));
	EXPECT(path_name_equal(u"\u00e9t\u00e9", 3, u"\u00c9T\u00c9", 3));
	EXPECT(path_name_equal(u"\u0434\u0430", 2, u"\u0414\u0410", 2));
	EXPECT(path_name_equal(u"\u03c3\u03c2", 2, u"\u03a3\u03a3", 2));
	EXPECT(!path_name_equal(u"abc", 3, u"abd", 3));
	EXPECT(!path_name_equal(u"abc", 3, u"abcd", 4));
	EXPECT(!path_name_equal(u"\u00f7", 1, u"\u00d7", 1));
	EXPECT_EQ(path_upper(u'\u00ff'), 0x178);
	EXPECT_EQ(path_upper(u'['), u'[');
}

TEST(path_names_creatable_follow_fat_rules)
{
	EXPECT(path_name_creatable(u"A long name.with dots", 21));
	EXPECT(path_name_creatable(u".hidden", 7));
	EXPECT(!path_name_creatable(u"", 0));
	EXPECT(!path_name_creatable(u".", 1));
	EXPECT(!path_name_creatable(u"...", 3));
	EXPECT(!path_name_creatable(u"a:b", 3));
	EXPECT(!path_name_creatable(u"a*", 2));
	EXPECT(!path_name_creatable(u"a?", 2));
	EXPECT(!path_name_creatable(u"a|b", 3));
	EXPECT(!path_name_creatable(u"a\"b", 3));
	EXPECT(!path_name_creatable(u"<a>", 3));
	EXPECT(!path_name_creatable(u"a/b", 3));
	EXPECT(!path_name_creatable(u"a\\b", 3));
	EXPECT(!path_name_creatable(u"a\tb", 3));
	EXPECT(!path_name_creatable(u"x", PATH_NAME_MAX + 1));
}
