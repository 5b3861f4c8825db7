/* The string functions mbedTLS uses, for the freestanding firmware build of the library
 * (lib/freestanding/builtins.c and crypto/libc.c define them). Host builds use libc's. */
#ifndef EMBER_CRYPTO_LIBC_STRING_H
#define EMBER_CRYPTO_LIBC_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);

#endif
