/* Memory and string routines for code that has no libc (core, drivers, applications).
 * CHAR16 strings are UCS-2, as the UEFI specification uses them. */
#ifndef EMBER_STR_H
#define EMBER_STR_H

#include <efi/types.h>
#include <ember/lib/util.h>

void mem_copy(void *dst, const void *src, size_t n); /* overlapping ranges allowed */
void mem_set(void *dst, int value, size_t n);
int mem_cmp(const void *a, const void *b, size_t n);
bool mem_is_zero(const void *p, size_t n);

size_t str8_len(const char *s);
int str8_cmp(const char *a, const char *b);
int str8_ncmp(const char *a, const char *b, size_t n);
char *str8_chr(const char *s, int c);

size_t str16_len(const CHAR16 *s);
size_t str16_size(const CHAR16 *s); /* bytes, including the terminator */
int str16_cmp(const CHAR16 *a, const CHAR16 *b);
int str16_ncmp(const CHAR16 *a, const CHAR16 *b, size_t n);
CHAR16 *str16_copy(CHAR16 *dst, const CHAR16 *src);
CHAR16 *str16_chr(const CHAR16 *s, CHAR16 c);
CHAR16 char16_upper(CHAR16 c);

/* Bounded length: the count of CHAR16s before a terminator, or max if none is found. */
size_t str16_nlen(const CHAR16 *s, size_t max);

/* UTF-8 <-> UCS-2. Return the number of units written excluding the terminator; the
 * output is always terminated when its size is not zero. Characters outside the BMP
 * become U+FFFD; invalid UTF-8 bytes too. */
size_t utf8_to_ucs2(CHAR16 *dst, size_t dst_units, const char *src, size_t src_len);
size_t ucs2_to_utf8(char *dst, size_t dst_size, const CHAR16 *src, size_t src_units);

bool guid_eq(const EFI_GUID *a, const EFI_GUID *b);
/* Writes the registry format 8-4-4-4-12 (37 bytes with the terminator). */
void guid_to_str(char out[37], const EFI_GUID *guid);
/* Parses 8-4-4-4-12; returns false on malformed text. */
bool guid_from_str(EFI_GUID *guid, const char *text, size_t len);

#endif
