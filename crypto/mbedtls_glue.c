/* What crypto/mbedtls_config.h asks the platform for: memory from the core's pool (the
 * firmware has no malloc), or from crypto/arena.c once boot services are gone, and text
 * formatting from lib/format.c. */
#include "mbedtls_config.h"
#include "arena.h"
#include <stdarg.h>
#include <stdint.h>
#include <ember/core/core.h>
#include <ember/lib/format.h>

/* Zero-filled memory for count objects of size bytes; NULL on overflow or exhaustion. */
void *crypto_calloc(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size)
		return NULL;
	/* Both zero-fill; the library asks for 0 bytes at times and wants a pointer. */
	if (core_boot_services_exited)
		return crypto_arena_alloc(count * size ? count * size : 1);
	return pool_alloc(count * size ? count * size : 1);
}

/* Frees what crypto_calloc returned (NULL is ignored). */
void crypto_free(void *buffer)
{
	if (crypto_arena_owns(buffer))
		crypto_arena_free(buffer);
	else
		pool_free(buffer);
}

/* snprintf for the library's text of names and numbers (x509_dn_gets and the like). */
int crypto_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_vsn(buf, size, fmt, ap);
	va_end(ap);
	return n > INT32_MAX ? -1 : (int)n;
}
