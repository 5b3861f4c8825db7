/* UTF-8 and UCS-2 conversions (lib/utf.c): round trips, U+FFFD for malformed input, bounds. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/str.h>

TEST(utf_conversions)
{
	CHAR16 u[16];
	char s[32];

	EXPECT_EQ(utf8_to_ucs2(u, 16, "aé€", strlen("aé€")), 3);
	EXPECT(u[0] == 'a' && u[1] == 0xe9 && u[2] == 0x20ac && u[3] == 0);
	EXPECT_EQ(ucs2_to_utf8(s, sizeof(s), u, 16), strlen("aé€"));
	EXPECT(strcmp(s, "aé€") == 0);
	/* Outside the BMP and broken sequences become U+FFFD, one per bad byte. */
	EXPECT_EQ(utf8_to_ucs2(u, 16, "\xf0\x9f\x98\x80x", 5), 2);
	EXPECT(u[0] == 0xfffd && u[1] == 'x');
	EXPECT_EQ(utf8_to_ucs2(u, 16, "\xc3", 1), 1);
	EXPECT(u[0] == 0xfffd);
	EXPECT_EQ(utf8_to_ucs2(u, 3, "abcdef", 6), 2); /* bounded, terminated */
	EXPECT(u[2] == 0);
}

/* Each malformed UTF-8 form becomes U+FFFD for its first byte (the decoder resumes at the
 * next byte); UCS-2 surrogates, which cannot stand alone, are written as U+FFFD. */
TEST(utf_malformed_forms)
{
	static const struct {
		const char *in;
		size_t len;
		CHAR16 out[6];
	} cases[] = {
	    {"\x80z", 2, {0xfffd, 'z'}},		   /* a lone continuation byte */
	    {"\xf8\x88\x80\x80\x80", 1, {0xfffd}},	   /* a five-byte lead */
	    {"\xe2\x28\xa1", 3, {0xfffd, '(', 0xfffd}},	   /* a bad continuation */
	    {"\xc0\x80", 2, {0xfffd, 0xfffd}},		   /* overlong NUL */
	    {"\xe0\x80\xaf", 3, {0xfffd, 0xfffd, 0xfffd}}, /* overlong '/' */
	    {"\xed\xa0\x80", 3, {0xfffd, 0xfffd, 0xfffd}}, /* a surrogate */
	    {"\xf4\x90\x80\x80", 4, {0xfffd, 0xfffd, 0xfffd, 0xfffd}}, /* past U+10FFFF */
	    {"\xef\xbf\xbf", 3, {0xffff}},			       /* the last BMP code point */
	};
	CHAR16 u[8];
	char s[8];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = 0;
		while (n < 6 && cases[i].out[n])
			n++;
		if (!EXPECT_EQ(utf8_to_ucs2(u, 8, cases[i].in, cases[i].len), n) ||
		    !EXPECT(!memcmp(u, cases[i].out, n * sizeof(CHAR16)) && u[n] == 0))
			printf("    case %zu\n", i);
	}
	EXPECT_EQ(utf8_to_ucs2(u, 0, "abc", 3), 0);
	EXPECT_EQ(utf8_to_ucs2(u, 1, "abc", 3), 0);
	EXPECT_EQ(u[0], 0);
	/* UCS-2 to UTF-8: a lone surrogate is U+FFFD; a character that does not fit whole is
	 * left out; no room at all writes nothing. */
	EXPECT_EQ(ucs2_to_utf8(s, sizeof(s), (const CHAR16[]){'a', 0xd800, 0}, 2), 4);
	EXPECT(!strcmp(s, "a\xef\xbf\xbd"));
	EXPECT_EQ(ucs2_to_utf8(s, 4, (const CHAR16[]){'a', 0x20ac, 0}, 2), 1);
	EXPECT(!strcmp(s, "a"));
	s[0] = 'x';
	EXPECT_EQ(ucs2_to_utf8(s, 0, (const CHAR16[]){'a', 0}, 1), 0);
	EXPECT_EQ(s[0], 'x');
}
