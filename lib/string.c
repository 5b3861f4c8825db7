/* Memory and string routines without libc. */
#include <ember/lib/str.h>

/* x86-64 firmware and programs copy and fill long runs with `rep movsq` / `rep stosq`:
 * eight bytes a step, and each step counts as one instruction in QEMU's virtual time,
 * where the loops below take five (the start-up copies the variable store, fills pool
 * pages ...); processors run them as fast string operations. Not in hosted builds, whose
 * sanitizers do not see into assembly. */
#if defined(__x86_64__) && !__STDC_HOSTED__
#define STRING_STEPS_MIN 64
#endif

void mem_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return;
	if (d < s || d >= s + n) {
#ifdef STRING_STEPS_MIN
		if (n >= STRING_STEPS_MIN) {
			size_t steps = n / 8;
			__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(steps) : : "memory");
			n %= 8;
		}
#endif
		while (n >= 8) {
			uint64_t v;
			__builtin_memcpy(&v, s, 8);
			__builtin_memcpy(d, &v, 8);
			d += 8, s += 8, n -= 8;
		}
		while (n--)
			*d++ = *s++;
		return;
	}
	/* Destination overlaps the source's tail: copy backwards. */
	d += n, s += n;
	while (n >= 8) {
		uint64_t v;
		d -= 8, s -= 8, n -= 8;
		__builtin_memcpy(&v, s, 8);
		__builtin_memcpy(d, &v, 8);
	}
	while (n--)
		*--d = *--s;
}

void mem_set(void *dst, int value, size_t n)
{
	unsigned char *d = dst;
	uint64_t pattern = 0x0101010101010101ULL * (unsigned char)value;

#ifdef STRING_STEPS_MIN
	if (n >= STRING_STEPS_MIN) {
		size_t steps = n / 8;
		__asm__ volatile("rep stosq" : "+D"(d), "+c"(steps) : "a"(pattern) : "memory");
		n %= 8;
	}
#endif
	while (n >= 8) {
		__builtin_memcpy(d, &pattern, 8);
		d += 8, n -= 8;
	}
	while (n--)
		*d++ = (unsigned char)value;
}

int mem_cmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

bool mem_is_zero(const void *p, size_t n)
{
	const unsigned char *x = p;

	while (n--)
		if (*x++)
			return false;
	return true;
}

size_t str8_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int str8_cmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int str8_ncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *str8_chr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

size_t str16_len(const CHAR16 *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t str16_nlen(const CHAR16 *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

size_t str16_size(const CHAR16 *s)
{
	return (str16_len(s) + 1) * sizeof(CHAR16);
}

int str16_cmp(const CHAR16 *a, const CHAR16 *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (int)*a - (int)*b;
}

int str16_ncmp(const CHAR16 *a, const CHAR16 *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (int)*a - (int)*b;
		if (!*a)
			break;
	}
	return 0;
}

CHAR16 char16_upper(CHAR16 c)
{
	return (c >= 'a' && c <= 'z') ? (CHAR16)(c - 'a' + 'A') : c;
}

CHAR16 *str16_copy(CHAR16 *dst, const CHAR16 *src)
{
	CHAR16 *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

CHAR16 *str16_chr(const CHAR16 *s, CHAR16 c)
{
	for (;; s++) {
		if (*s == c)
			return (CHAR16 *)s;
		if (!*s)
			return NULL;
	}
}
