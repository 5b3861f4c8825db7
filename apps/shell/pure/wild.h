/* Wildcard matching of file names, as EFI_UNICODE_COLLATION_PROTOCOL.MetaiMatch does it
 * (UEFI 2.10, 19.1): case-insensitive; '*' any run of characters, '?' one character,
 * "[chars]" one of the listed characters or ranges ("[a-z]"). The shell uses this when no
 * collation protocol exists. */
#ifndef SHELL_PURE_WILD_H
#define SHELL_PURE_WILD_H

#include <efi/types.h>
#include <stdbool.h>

/* Whether the whole of name matches the whole of pattern. */
bool sh_wild_match(const CHAR16 *name, const CHAR16 *pattern);

/* Whether text holds a wildcard character ('*', '?' or '['). */
bool sh_has_wildcards(const CHAR16 *text);

#endif
