/* lib/: CRC32, formatting, UTF conversions, GUID text, calendar. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "support/test.h"
#include <ember/lib/crc32.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/lib/time.h>

TEST(crc32_known_vectors)
{
	EXPECT_EQ(crc32("123456789", 9), 0xcbf43926);
	EXPECT_EQ(crc32("", 0), 0);
	EXPECT_EQ(crc32("a", 1), 0xe8b7be43);
	/* Incremental equals one-shot, across the 8-byte fast path. */
	const char *text = "The quick brown fox jumps over the lazy dog";
	UINT32 c = crc32_update(0, text, 10);
	c = crc32_update(c, text + 10, strlen(text) - 10);
	EXPECT_EQ(c, 0x414fa339);
	EXPECT_EQ(crc32(text, strlen(text)), 0x414fa339);
}

/* Compares format_sn against the host's snprintf for standard conversions. */
#define SAME_AS_LIBC(...)                                                                          \
	do {                                                                                       \
		char ours[128], libc[128];                                                         \
		format_sn(ours, sizeof(ours), __VA_ARGS__);                                        \
		snprintf(libc, sizeof(libc), __VA_ARGS__);                                         \
		if (!EXPECT(strcmp(ours, libc) == 0))                                              \
			printf("    ours [%s] libc [%s]\n", ours, libc);                           \
	} while (0)

TEST(format_matches_libc)
{
	SAME_AS_LIBC("%d %i %u", -42, 17, 3000000000u);
	SAME_AS_LIBC("[%5d] [%-5d] [%05d] [%+d] [% d]", 42, 42, 42, 42, 42);
	SAME_AS_LIBC("%x %X %#x %08llx %lld", 0xbeefu, 0xbeefu, 255u, 0x1234ULL, -5LL);
	SAME_AS_LIBC("%s|%10s|%-10s|%.3s", "abc", "right", "left", "truncate");
	SAME_AS_LIBC("%c%c %% %zu %o", 'o', 'k', (size_t)99, 8u);
	SAME_AS_LIBC("%.5d %*d %-*d|", 42, 6, 7, 4, 3);
	SAME_AS_LIBC("%hhu %hd %lu", (unsigned char)44, (short)-2, 123456789012UL);
	SAME_AS_LIBC("%llu %lld", 18446744073709551615ULL, (-9223372036854775807LL - 1));
}

TEST(format_extensions)
{
	char buf[128];
	EFI_GUID g = {0x12345678, 0x9abc, 0xdef0, {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}};

	format_sn(buf, sizeof(buf), "%ls!", u"héllo ☃");
	EXPECT(strcmp(buf, "héllo ☃!") == 0);
	format_sn(buf, sizeof(buf), "%pG", &g);
	EXPECT(strcmp(buf, "12345678-9ABC-DEF0-0123-456789ABCDEF") == 0);
	format_sn(buf, sizeof(buf), "%r %r", EFI_NOT_FOUND, EFI_SUCCESS);
	EXPECT(strcmp(buf, "EFI_NOT_FOUND EFI_SUCCESS") == 0);
	/* Truncation keeps the terminator and reports the full length. */
	EXPECT_EQ(format_sn(buf, 4, "%s", "abcdef"), 6);
	EXPECT(strcmp(buf, "abc") == 0);
}

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

TEST(guid_text_round_trip)
{
	EFI_GUID g, back;
	char text[37];

	EXPECT(guid_from_str(&g, "8BE4DF61-93CA-11d2-AA0D-00E098032B8C", 36));
	EXPECT_EQ(g.Data1, 0x8be4df61);
	EXPECT_EQ(g.Data4[7], 0x8c);
	guid_to_str(text, &g);
	EXPECT(guid_from_str(&back, text, 36));
	EXPECT(guid_eq(&g, &back));
	EXPECT(!guid_from_str(&g, "8BE4DF61-93CA-11d2-AA0D-00E098032B8", 35));
	EXPECT(!guid_from_str(&g, "8BE4DF61x93CA-11d2-AA0D-00E098032B8C", 36));
	EXPECT(!guid_from_str(&g, "8BE4DF61-93CA-11d2-AA0D-00E098032BXC", 36));
}

TEST(calendar_against_libc)
{
	/* Every 7919th day from 1900 to 9999, compared with gmtime_r. */
	for (INT64 t = -2208988800LL; t < 253402300799LL; t += 86400LL * 7919 + 3599) {
		EFI_TIME e;
		struct tm tm;
		time_t tt = (time_t)t;
		efi_time_from_unix(t, &e);
		gmtime_r(&tt, &tm);
		if (!EXPECT(e.Year == tm.tm_year + 1900 && e.Month == tm.tm_mon + 1 &&
			    e.Day == tm.tm_mday && e.Hour == tm.tm_hour && e.Minute == tm.tm_min &&
			    e.Second == tm.tm_sec))
			break;
		EXPECT_EQ(efi_time_to_unix(&e), t);
	}
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

TEST(string_helpers_at_their_edges)
{
	char buf[16] = "abcdefghij";

	/* Overlapping copies in both directions, shorter than a word. */
	mem_copy(buf + 1, buf, 3);
	EXPECT(!memcmp(buf, "aabcefghij", 10));
	mem_copy(buf, buf + 1, 3);
	EXPECT(!memcmp(buf, "abccefghij", 10));
	/* Bounded comparisons stop at the terminator of equal strings. */
	EXPECT_EQ(str8_ncmp("ab", "ab", 10), 0);
	EXPECT(str8_ncmp("ab", "ac", 10) < 0);
	EXPECT_EQ(str8_ncmp("abc", "abd", 2), 0);
	EXPECT_EQ(str16_ncmp(u"ab", u"ab", 10), 0);
	EXPECT(str16_ncmp(u"ab", u"aa", 10) > 0);
	EXPECT_EQ(str16_ncmp(u"abc", u"abd", 2), 0);
}

TEST(guid_text_refuses_bad_digits_anywhere)
{
	static const char *const bad[] = {
	    "8BE4DF61-93CX-11d2-AA0D-00E098032B8C", "8BE4DF61-93CA-11X2-AA0D-00E098032B8C",
	    "8BE4DF61-93CA-11d2-AX0D-00E098032B8C", "8BE4DF61-93CA-11d2-AA0D-00E0980 2B8C",
	    "8BE4DF61-93CA-11d2-AA0D+00E098032B8C",
	};
	EFI_GUID g;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(!guid_from_str(&g, bad[i], 36));
}
