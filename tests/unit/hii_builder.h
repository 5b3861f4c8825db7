/* Builds HII package lists and string blocks for the HII tests. */
#ifndef TESTS_UNIT_HII_BUILDER_H
#define TESTS_UNIT_HII_BUILDER_H

#include <efi/types.h>

struct hii_builder {
	UINT8 buf[4096];
	UINT32 len;
};

/* Starts a package list of a GUID. */
void hb_begin(struct hii_builder *b, const EFI_GUID *guid);
/* Appends a package of a type with its body (header written here). */
void hb_package(struct hii_builder *b, UINT8 type, const void *body, UINT32 size);
/* Appends a string package of a language (ASCII, may hold ";secondary") over blocks. */
void hb_strings(struct hii_builder *b, const char *language, const UINT8 *blocks, UINT32 size);
/* Appends the END package and sets PackageLength. */
void hb_end(struct hii_builder *b);

/* Writes a STRING_UCS2 block of an ASCII text at out; returns its size. */
UINT32 hb_ucs2_block(UINT8 *out, const char *text);

#endif
