/* Character classes, comparisons, numbers and text decoding for the pure shell code. */
#include <ember/lib/path.h>

#include "text.h"

bool sh_is_name_char(CHAR16 c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static CHAR16 fold(CHAR16 c)
{
	return path_upper(c);
}

bool sh_eqn_ascii(const CHAR16 *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n && word[i]; i++)
		if (fold(s[i]) != fold((CHAR16)(unsigned char)word[i]))
			return false;
	return i == n && !word[i];
}

bool sh_eq_ascii(const CHAR16 *s, const char *word)
{
	return sh_eqn_ascii(s, str16_len(s), word);
}

int sh_cmp_nocase(const CHAR16 *a, const CHAR16 *b)
{
	for (;; a++, b++) {
		CHAR16 x = fold(*a), y = fold(*b);
		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			return 0;
	}
}

bool sh_eqn_nocase(const CHAR16 *a, size_t n, const CHAR16 *b)
{
	size_t i;

	for (i = 0; i < n && b[i]; i++)
		if (fold(a[i]) != fold(b[i]))
			return false;
	return i == n && !b[i];
}

bool sh_eq_nocase(const CHAR16 *a, const CHAR16 *b)
{
	return sh_cmp_nocase(a, b) == 0;
}

static int digit_value(CHAR16 c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

bool sh_parse_u64(const CHAR16 *s, bool hex_default, UINT64 *out)
{
	UINT64 v = 0;
	unsigned base = hex_default ? 16 : 10;

	if (!s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		int d = digit_value(*s);
		if (d >= (int)base || mul_overflows(v, (UINT64)base, &v) ||
		    add_overflows(v, (UINT64)d, &v))
			return false;
	}
	*out = v;
	return true;
}

bool sh_parse_i64(const CHAR16 *s, INT64 *out)
{
	bool negative = false;
	UINT64 v;

	if (!s)
		return false;
	if (*s == '-' || *s == '+')
		negative = *s++ == '-';
	if (!sh_parse_u64(s, false, &v))
		return false;
	if (negative ? v > (UINT64)INT64_MAX + 1 : v > (UINT64)INT64_MAX)
		return false;
	*out = negative ? (INT64)(0 - v) : (INT64)v;
	return true;
}

static EFI_STATUS decode_ucs2(const UINT8 *p, size_t size, CHAR16 **out, size_t *len)
{
	size_t n = size / 2;
	CHAR16 *s = sh_alloc((n + 1) * sizeof(CHAR16));

	if (!s)
		return EFI_OUT_OF_RESOURCES;
	for (size_t i = 0; i < n; i++) {
		s[i] = (CHAR16)(p[2 * i] | (p[2 * i + 1] << 8));
		if (!s[i])
			s[i] = ' ';
	}
	s[n] = 0;
	*out = s;
	*len = n;
	return EFI_SUCCESS;
}

EFI_STATUS sh_text_decode(const void *data, size_t size, CHAR16 **out, size_t *len)
{
	const UINT8 *p = data;
	CHAR16 *s;
	size_t n;

	if (size >= 2 && p[0] == 0xff && p[1] == 0xfe)
		return decode_ucs2(p + 2, size - 2, out, len);
	if (size >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
		p += 3;
		size -= 3;
	}
	/* UTF-8 never yields more units than bytes. */
	s = sh_alloc((size + 1) * sizeof(CHAR16));
	if (!s)
		return EFI_OUT_OF_RESOURCES;
	n = utf8_to_ucs2(s, size + 1, (const char *)p, size);
	for (size_t i = 0; i < n; i++)
		if (!s[i])
			s[i] = ' ';
	*out = s;
	*len = n;
	return EFI_SUCCESS;
}
