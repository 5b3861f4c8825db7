/* printf-style formatting without libc.
 * Conversions: %d %i %u %x %X %o %c %s %p %%, flags "-0+ #", width and precision
 * (also '*'), length modifiers hh h l ll z j t. Extensions: %ls prints a CHAR16
 * string, %pG an EFI_GUID pointer, %r an EFI_STATUS as its name. */
#ifndef EMBER_FORMAT_H
#define EMBER_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <efi/types.h>

typedef void (*format_sink)(void *ctx, const char *s, size_t n);

/* Formats through a sink; returns the number of bytes produced. */
size_t format_v(format_sink sink, void *ctx, const char *fmt, va_list ap);

/* Like vsnprintf: always terminates when size > 0, returns the full length. */
size_t format_vsn(char *buf, size_t size, const char *fmt, va_list ap);
size_t format_sn(char *buf, size_t size, const char *fmt, ...);

/* The spec name of a status code ("EFI_NOT_FOUND"), or NULL for an unknown one. */
const char *efi_status_name(EFI_STATUS status);

#endif
