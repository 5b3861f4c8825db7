/* Small text helpers of the shell's pure logic: character classes, comparisons with
 * ASCII names, numbers as the UEFI Shell writes them, and decoding file contents. */
#ifndef SHELL_PURE_TEXT_H
#define SHELL_PURE_TEXT_H

#include "mem.h"

static inline bool sh_is_blank(CHAR16 c)
{
	return c == ' ' || c == '\t';
}

/* Letters, digits and '_': the characters of a variable name. */
bool sh_is_name_char(CHAR16 c);

/* Case-insensitive (ASCII letters) equality of a string with an ASCII word. */
bool sh_eq_ascii(const CHAR16 *s, const char *word);
/* The same for the first n units of s against the whole word. */
bool sh_eqn_ascii(const CHAR16 *s, size_t n, const char *word);
/* Case-insensitive equality of two strings (ASCII letters fold; Latin-1 and other
 * letters as file names fold, through path_upper). */
bool sh_eq_nocase(const CHAR16 *a, const CHAR16 *b);
/* Whether the first n units of a equal all of b, ignoring case. */
bool sh_eqn_nocase(const CHAR16 *a, size_t n, const CHAR16 *b);
/* Case-insensitive ordering, for sorting names. */
int sh_cmp_nocase(const CHAR16 *a, const CHAR16 *b);

/* Parses all of s as an unsigned number: "0x" then hex digits, else decimal digits (or
 * hex digits when hex_default, as commands that take handle numbers do). False for
 * empty text, stray characters or overflow. */
bool sh_parse_u64(const CHAR16 *s, bool hex_default, UINT64 *out);
/* Signed: an optional '-' or '+', then as sh_parse_u64 without hex_default. */
bool sh_parse_i64(const CHAR16 *s, INT64 *out);

/* Decodes file contents to text: UCS-2 little-endian after a FF FE byte-order mark, else
 * UTF-8 (an EF BB BF mark is skipped; ASCII is UTF-8). *out is allocated and terminated;
 * NUL characters in the input become spaces. */
EFI_STATUS sh_text_decode(const void *data, size_t size, CHAR16 **out, size_t *len);

#endif
