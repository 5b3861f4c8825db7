/* HII package lists and string blocks (UEFI 2.10, 33.3) as outside data: checking a package
 * list before the database keeps it, and walking a string package's blocks. Pure logic (no
 * allocation, no core calls), bounded by the sizes given, so the unit tests and fuzzers
 * call it with any bytes. */
#ifndef EMBER_CORE_HII_PACKAGES_H
#define EMBER_CORE_HII_PACKAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>
#include <efi/protocol/hii_package_list.h>

/* Reads a package header's length and type from unaligned bytes. */
UINT32 hii_package_length(const UINT8 *package);
UINT8 hii_package_type(const UINT8 *package);

/* Checks one package of size bytes (at least its header's Length, which must be size):
 * NULL when it is well formed, else a short phrase saying what is wrong. */
const char *hii_package_check(const UINT8 *package, size_t size);

/* Checks a package list given in size bytes: PackageLength within size, packages that fill
 * it exactly, each well formed, an END package last and only there. NULL or the problem. */
const char *hii_package_list_check(const void *list, size_t size);

/* A string package's language (ASCII, NUL-terminated inside its header) and its blocks;
 * only for a package hii_package_check accepted. */
const char *hii_string_package_language(const UINT8 *package);
const UINT8 *hii_string_package_blocks(const UINT8 *package, size_t *size);

/* One string of a string package, as its block holds it. */
struct hii_string_ref {
	EFI_STRING_ID id;
	EFI_STRING_ID dup_of; /* a DUPLICATE block: the earlier id it repeats (no text), else 0 */
	bool ucs2;	      /* UCS-2 text, else SCSU (bytes) */
	bool has_font;	      /* a *_FONT block: font_id says which font */
	UINT8 font_id;	      /* FontIdentifier of a *_FONT block */
	const UINT8 *text;    /* unaligned, inside the blocks */
	size_t bytes;	      /* of the text, without its terminator */
};

/* Calls fn (may be NULL) for each string of the blocks in order of StringId (skipped ids
 * not at all; a duplicate with dup_of set) until fn returns false. Returns NULL when the
 * blocks are well formed up to their END block (or up to where fn stopped), else the
 * problem; *last_id is the last StringId the blocks define (0 for none) when they are. */
typedef bool (*hii_string_fn)(void *ctx, const struct hii_string_ref *s);
const char *hii_string_blocks_walk(const UINT8 *blocks, size_t size, hii_string_fn fn, void *ctx,
				   EFI_STRING_ID *last_id);

/* Finds a string by id, duplicates followed to the text they repeat (out->id stays the id
 * asked for): true and *out filled when the blocks hold it. */
bool hii_string_find(const UINT8 *blocks, size_t size, EFI_STRING_ID id,
		     struct hii_string_ref *out);

/* A font of a string package: its FONT block's fields (33.3.6.2.9). */
struct hii_font_ref {
	UINT8 id;
	UINT16 size;
	UINT32 style;
	const UINT8 *name; /* UCS-2, unaligned, inside the blocks */
	size_t name_bytes; /* without the terminator */
};

/* Finds the FONT block (an EXT2 block) defining font_id in the blocks: true and *out
 * filled when there is one, its name terminated inside the block. */
bool hii_string_font(const UINT8 *blocks, size_t size, UINT8 font_id, struct hii_font_ref *out);

/* Writes a string's text as UCS-2 with its terminator into out (units CHAR16s, may be
 * 0) and returns the units it needs, terminator included. SCSU text is read in its
 * single-byte mode with the default windows (ASCII and Latin-1); tags become U+FFFD. */
size_t hii_string_decode(const struct hii_string_ref *s, CHAR16 *out, size_t units);

#endif
