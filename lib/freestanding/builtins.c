/* The four functions compilers may emit calls to even in freestanding code.
 * Linked only into images without libc (firmware, PE32+ applications). */
#include <ember/lib/str.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
	mem_copy(dst, src, n);
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	mem_copy(dst, src, n);
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	mem_set(dst, c, n);
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	return mem_cmp(a, b, n);
}
