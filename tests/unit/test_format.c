/* lib/format.c's conversions, flags, widths, precisions and length modifiers against the
 * host's snprintf (C11 7.21.6.1) wherever the format means the same in both, and its own
 * extensions (%ls, %pG, %r) and edge cases where it does not. */
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/format.h>

/* Compares format_sn against snprintf: the text and the returned length. */
#define SAME_AS_LIBC(...)                                                                          \
	do {                                                                                       \
		char ours[160], libc[160];                                                         \
		size_t n = format_sn(ours, sizeof(ours), __VA_ARGS__);                             \
		int m = snprintf(libc, sizeof(libc), __VA_ARGS__);                                 \
		if (!EXPECT(strcmp(ours, libc) == 0 && n == (size_t)m))                            \
			printf("    ours [%s] libc [%s]\n", ours, libc);                           \
	} while (0)

static bool formats_as(const char *expect, const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_vsn(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (strcmp(buf, expect) == 0 && n == strlen(expect))
		return true;
	printf("    \"%s\" gave [%s], expected [%s]\n", fmt, buf, expect);
	return false;
}

TEST(format_length_modifiers_as_libc)
{
	SAME_AS_LIBC("%hhd %hhu %hhx", (signed char)-128, (unsigned char)255, (unsigned char)0xab);
	/* Values wider than the modifier are cut to it (C11 7.21.6.1: the argument is
	 * converted to the modifier's type). */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat"
	SAME_AS_LIBC("%hhd %hhu %hd %hu", 0x1ff, 0x1ff, 0x18000, 0x18000);
#pragma clang diagnostic pop
	SAME_AS_LIBC("%hd %hu %hx %ho", (short)-32768, (unsigned short)65535,
		     (unsigned short)0xbeef, (unsigned short)8);
	SAME_AS_LIBC("%ld %lu %lx %li", -1234567890123L, 1234567890123UL, 0xfeedfaceUL, 7L);
	SAME_AS_LIBC("%lld %llu %llx %llo", LLONG_MIN, ULLONG_MAX, ULLONG_MAX, ULLONG_MAX);
	SAME_AS_LIBC("%zd %zu %zx", (ptrdiff_t)-5, SIZE_MAX, (size_t)0x1000);
	SAME_AS_LIBC("%td %tu", (ptrdiff_t)-77, (ptrdiff_t)77);
	SAME_AS_LIBC("%jd %ju %jx", INTMAX_MIN, UINTMAX_MAX, (uintmax_t)0xabcdef);
	SAME_AS_LIBC("%d %i %d", INT_MIN, INT_MAX, 0);
}

TEST(format_flags_width_and_precision_as_libc)
{
	SAME_AS_LIBC("[%+5d] [% 5d] [%+-6d] [%- 6d] [%+d] [% d]", -3, -3, 3, 3, 0, 0);
	/* '-' overrides '0'; a precision turns '0' off. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat"
	SAME_AS_LIBC("[%-05d] [%05.3d] [%08.3x] [%-8.3x]", 42, 42, 0xau, 0xau);
#pragma clang diagnostic pop
	SAME_AS_LIBC("[%.0d] [%.0u] [%.0x] [%5.0d] [%.0d]", 0, 0u, 0u, 0, 7);
	SAME_AS_LIBC("[%*d] [%*d] [%-*d]", -6, 42, 6, -42, -4, 1);
	SAME_AS_LIBC("[%.*d] [%.*s] [%*.*d]", 5, 42, 2, "abcdef", 7, 4, -3);
	SAME_AS_LIBC("[%#x] [%#X] [%#08x] [%#-8x] [%#.4x]", 0x1fu, 0x1fu, 0x1fu, 0x1fu, 0x1fu);
	SAME_AS_LIBC("[%020llu] [%-20lld] [%+.3lld]", 12345ULL, -12345LL, 5LL);
	SAME_AS_LIBC("[%3c] [%-3c] [%c]", 'a', 'b', 0x41);
	SAME_AS_LIBC("[%5s] [%-5s] [%.0s] [%5.1s] [%-5.2s]", "ab", "ab", "ab", "ab", "abc");
	SAME_AS_LIBC("[%%] [%5%] 100%%");
	SAME_AS_LIBC("%s%s%s", "", "x", "");
	SAME_AS_LIBC("plain text, no conversions");
}

/* The '#' flag: 0x only before a nonzero hexadecimal value; for octal, a leading zero. */
TEST(format_alternate_forms_as_libc)
{
	SAME_AS_LIBC("[%#x] [%#X] [%#5x] [%#05x]", 0u, 0u, 0u, 0u);
	SAME_AS_LIBC("[%#o] [%#o] [%#o] [%#5o] [%#05o] [%#-5o]", 8u, 0u, 1u, 8u, 8u, 8u);
	SAME_AS_LIBC("[%#.0o] [%#.3o] [%#.1o] [%#llo]", 0u, 8u, 8u, 0777ULL);
}

/* '+' and ' ' concern signed conversions only. */
TEST(format_sign_flags_only_for_signed_conversions)
{
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat"
	SAME_AS_LIBC("[%+u] [% u] [%+x] [% X] [%+o] [%+5u] [% 05u]", 5u, 5u, 5u, 5u, 5u, 5u, 5u);
#pragma clang diagnostic pop
	SAME_AS_LIBC("[%+d] [% i] [%+lld]", 5, 5, 5LL);
}

TEST(format_pointers_and_extensions)
{
	const char *volatile no_string = NULL;
	const CHAR16 *volatile no_string16 = NULL;
	const EFI_GUID *volatile no_guid = NULL;
	char libc[32];

	/* %p: lower-case hexadecimal with 0x, as glibc prints a non-null pointer. */
	snprintf(libc, sizeof(libc), "%p", (void *)0x1234abcdUL);
	EXPECT(formats_as(libc, "%p", (void *)0x1234abcdUL));
	EXPECT(formats_as("[0x1234    ]", "[%-10p]", (void *)0x1234));
	/* NULL strings print as "(null)", padded like any string. */
	EXPECT(
	    formats_as("(null)|  (null)|(null)  ", "%s|%8s|%-8s", no_string, no_string, no_string));
	EXPECT(formats_as("(null)|  (null)", "%ls|%8ls", no_string16, no_string16));
	EXPECT(formats_as("(null)", "%pG", no_guid));
	/* %ls: width and precision count characters. */
	EXPECT(formats_as("[  abc] [abc  ] [ab] [   é]", "[%5ls] [%-5ls] [%.2ls] [%4ls]", u"abc",
			  u"abc", u"abc", u"é"));
	/* Strings longer than one conversion chunk. */
	EXPECT(formats_as("0123456789abcdefghijklmnopqrstuvwxyz", "%ls",
			  u"0123456789abcdefghijklmnopqrstuvwxyz"));
	/* %r: names, and the number of a status that has none. */
	EXPECT(
	    formats_as("[EFI_SUCCESS] [  EFI_TIMEOUT]", "[%r] [%13r]", EFI_SUCCESS, EFI_TIMEOUT));
	EXPECT(formats_as("status 0x3039", "%r", (EFI_STATUS)12345));
	EXPECT(formats_as("status 0x80000000000000ff", "%r", EFIERR(0xff)));
}

TEST(format_edge_cases)
{
	char buf[8];

	/* An unknown conversion is printed as it was written; a lone '%' at the end is dropped. */
	EXPECT(formats_as("a%yb", "a%yb"));
	EXPECT(formats_as("end", "end%"));
	EXPECT(formats_as("x", "x%-08"));
	/* Truncation: size 1 holds only the terminator, size 0 writes nothing. */
	memset(buf, 'z', sizeof(buf));
	EXPECT_EQ(format_sn(buf, 1, "%d", 12345), 5);
	EXPECT_EQ(buf[0], 0);
	memset(buf, 'z', sizeof(buf));
	EXPECT_EQ(format_sn(buf, 0, "%s", "hello"), 5);
	EXPECT_EQ(buf[0], 'z');
	/* Padding longer than the padding buffer, and output longer than the destination. */
	EXPECT_EQ(format_sn(buf, sizeof(buf), "%40d", 1), 40);
	EXPECT(strcmp(buf, "       ") == 0);
	SAME_AS_LIBC("[%40d] [%-40s] [%040x]", 1, "left", 0xabu);
}

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
