/* The string functions mbedTLS calls beyond lib/freestanding's mem* ones, for the
 * freestanding firmware only (host builds take libc's): thin names over lib/string.c. */
#include <string.h>
#include <ember/lib/str.h>

size_t strlen(const char *s)
{
	return str8_len(s);
}

int strcmp(const char *a, const char *b)
{
	return str8_cmp(a, b);
}

int strncmp(const char *a, const char *b, size_t n)
{
	return str8_ncmp(a, b, n);
}

char *strchr(const char *s, int c)
{
	return str8_chr(s, c);
}
