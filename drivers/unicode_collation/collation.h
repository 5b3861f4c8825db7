/* The English Unicode collation behind EFI_UNICODE_COLLATION_PROTOCOL2 (UEFI 2.10, 19.1),
 * as pure functions: case folding (the letters lib/path.c folds: ASCII, Latin-1, Greek,
 * Cyrillic), comparison, wildcard matching and FAT 8.3 conversion with code page 437 as
 * the OEM character set (what Linux and mtools assume for short names). */
#ifndef EMBER_COLLATION_H
#define EMBER_COLLATION_H

#include <stdbool.h>
#include <efi/protocol/unicode_collation.h>

CHAR16 collation_upper(CHAR16 c);
CHAR16 collation_lower(CHAR16 c);

/* StriColl: <0, 0 or >0 as a sorts before, equal to or after b, ignoring case. */
INTN collation_compare(const CHAR16 *a, const CHAR16 *b);

/* MetaiMatch: '*' any run, '?' any one character, "[abc]" a set, "[a-z]" a range, else
 * the character itself, all ignoring case. A set without its ']' matches nothing. */
bool collation_match(const CHAR16 *string, const CHAR16 *pattern);

void collation_str_upper(CHAR16 *s);
void collation_str_lower(CHAR16 *s);

/* The OEM (code page 437) byte for c; false when c has none. */
bool collation_oem_from_unicode(CHAR16 c, UINT8 *byte);
CHAR16 collation_oem_to_unicode(UINT8 byte);

/* FatToStr: up to fat_size OEM bytes (stopping at a NUL) to a terminated string. */
void collation_fat_to_str(UINTN fat_size, const CHAR8 *fat, CHAR16 *string);

/* StrToFat: string to upper-case OEM bytes, at most fat_size of them (a NUL follows when
 * there is room). '.' and ' ' are skipped; a character with no OEM byte, or one that FAT
 * forbids in 8.3 names, becomes '_'. Returns true when any character became '_'. */
bool collation_str_to_fat(const CHAR16 *string, UINTN fat_size, CHAR8 *fat);

/* The protocol instances Ember publishes ("en" and, for the EFI 1.10 GUID, "eng"). */
extern EFI_UNICODE_COLLATION_PROTOCOL collation_english2;
extern EFI_UNICODE_COLLATION_PROTOCOL collation_english;

/* Installs both on a new handle, once (the EMBER_INIT step; later calls do nothing). */
EFI_STATUS collation_publish(void);

#endif
