/* The string information blocks of an HII string package (UEFI 2.10, 33.3.6.2): each
 * string block gives the next StringId (from 1) its text, SKIP blocks leave ids without
 * one, DUPLICATE repeats an earlier id, EXT blocks (font definitions and others) carry
 * their own length. Bounded by the size given: a string must end before the blocks do. */
#include <ember/core/hii_packages.h>
#include <ember/lib/str.h>
#include "unaligned.h"

#define SCSU_TAG_LIMIT 0x20 /* bytes below are SCSU tags, but for these controls: */
#define REPLACEMENT_CHARACTER 0xfffd
#define FONT_ID_OFFSET 4    /* after the EXT2 header: FontId, FontSize, FontStyle */
#define FONT_NAME_OFFSET 11 /* then the name */

struct walk {
	const UINT8 *b;
	size_t size, at;
	UINT32 next_id;
	hii_string_fn fn;
	void *ctx;
	bool stopped;
	struct hii_font_ref *font; /* a FONT block wanted: font->id says which */
};

/* The length of a terminated string at w->at in bytes, without the terminator, or -1. */
static long text_length(const struct walk *w, bool ucs2)
{
	size_t unit = ucs2 ? 2 : 1;

	for (size_t at = w->at; w->size - at >= unit; at += unit) {
		if (ucs2 ? !read16(w->b + at) : !w->b[at])
			return (long)(at - w->at);
	}
	return -1;
}

/* Takes count strings from w->at, giving each the next id. */
static const char *take_strings(struct walk *w, UINT32 count, bool ucs2, bool has_font, UINT8 font)
{
	for (UINT32 i = 0; i < count; i++) {
		long length = text_length(w, ucs2);
		struct hii_string_ref ref = {.ucs2 = ucs2, .has_font = has_font, .font_id = font};

		if (length < 0)
			return "string not terminated inside its blocks";
		if (w->next_id > 0xffff)
			return "more than 65535 strings";
		ref.id = (EFI_STRING_ID)w->next_id++;
		ref.text = w->b + w->at;
		ref.bytes = (size_t)length;
		w->at += (size_t)length + (ucs2 ? 2 : 1);
		if (!w->stopped && w->fn && !w->fn(w->ctx, &ref))
			w->stopped = true;
	}
	return NULL;
}

/* A string block: the fixed part after the type (font, count), then the strings. */
static const char *string_block(struct walk *w, UINT8 type)
{
	bool ucs2 = type >= EFI_HII_SIBT_STRING_UCS2;
	bool font = type & 1, several = (type & 2) != 0;
	size_t fixed = 1 + (font ? 1 : 0) + (several ? 2 : 0);
	UINT8 font_id;
	UINT32 count = 1;

	if (w->size - w->at < fixed)
		return "string block outside its blocks";
	font_id = font ? w->b[w->at + 1] : 0;
	if (several)
		count = read16(w->b + w->at + fixed - 2);
	w->at += fixed;
	return take_strings(w, count, ucs2, font, font_id);
}

static const char *duplicate_block(struct walk *w)
{
	struct hii_string_ref ref = {0};

	if (w->size - w->at < 3)
		return "DUPLICATE block outside its blocks";
	ref.dup_of = read16(w->b + w->at + 1);
	if (!ref.dup_of || ref.dup_of >= w->next_id)
		return "DUPLICATE of a later or null StringId";
	if (w->next_id > 0xffff)
		return "more than 65535 strings";
	ref.id = (EFI_STRING_ID)w->next_id++;
	w->at += 3;
	if (!w->stopped && w->fn && !w->fn(w->ctx, &ref))
		w->stopped = true;
	return NULL;
}

/* A FONT block (EXT2 with BlockType2 FONT): FontId, FontSize, FontStyle, then the name. */
static void font_block(struct walk *w, size_t length)
{
	const UINT8 *b = w->b + w->at;

	if (!w->font || w->stopped || b[1] != EFI_HII_SIBT_FONT || length < FONT_NAME_OFFSET + 2 ||
	    b[FONT_ID_OFFSET] != w->font->id)
		return;
	for (size_t at = FONT_NAME_OFFSET; at + 2 <= length; at += 2) {
		if (!read16(b + at)) {
			w->font->size = read16(b + FONT_ID_OFFSET + 1);
			w->font->style = read32(b + FONT_ID_OFFSET + 3);
			w->font->name = b + FONT_NAME_OFFSET;
			w->font->name_bytes = at - FONT_NAME_OFFSET;
			w->stopped = true;
			return;
		}
	}
}

/* SKIP1, SKIP2 and the EXT blocks: no text, only their length to step over. */
static const char *other_block(struct walk *w, UINT8 type)
{
	size_t left = w->size - w->at, length;

	switch (type) {
	case EFI_HII_SIBT_SKIP1:
	case EFI_HII_SIBT_SKIP2:
		length = type == EFI_HII_SIBT_SKIP1 ? 2 : 3;
		if (left < length)
			return "SKIP block outside its blocks";
		w->next_id +=
		    type == EFI_HII_SIBT_SKIP1 ? w->b[w->at + 1] : read16(w->b + w->at + 1);
		break;
	case EFI_HII_SIBT_EXT1:
		length = left < 3 ? 0 : w->b[w->at + 2];
		break;
	case EFI_HII_SIBT_EXT2:
		length = left < 4 ? 0 : read16(w->b + w->at + 2);
		break;
	case EFI_HII_SIBT_EXT4:
		length = left < 6 ? 0 : read32(w->b + w->at + 2);
		break;
	default:
		return "unknown string block type";
	}
	if (length < 2 || length > left)
		return "string block of a bad length";
	if (w->next_id > 0x10000)
		return "SKIP past StringId 65535";
	if (type == EFI_HII_SIBT_EXT2)
		font_block(w, length);
	w->at += length;
	return NULL;
}

/* Takes the block at w->at (not END): NULL or the problem. */
static const char *step(struct walk *w)
{
	UINT8 type = w->b[w->at];

	if (type >= EFI_HII_SIBT_STRING_SCSU && type <= EFI_HII_SIBT_STRINGS_UCS2_FONT)
		return string_block(w, type);
	if (type == EFI_HII_SIBT_DUPLICATE)
		return duplicate_block(w);
	return other_block(w, type);
}

/* The one walk of the blocks: each block in turn up to END, or until a callback (or the
 * FONT block sought) stops it. NULL or the problem. */
static const char *walk_run(struct walk *w, EFI_STRING_ID *last_id)
{
	while (w->at < w->size && !w->stopped) {
		const char *problem;

		if (w->b[w->at] == EFI_HII_SIBT_END) {
			if (last_id)
				*last_id = (EFI_STRING_ID)(w->next_id - 1);
			return NULL;
		}
		problem = step(w);
		if (problem)
			return problem;
	}
	return w->stopped ? NULL : "string blocks without an END block";
}

/* Walks the blocks, calling fn for each string: NULL or the problem. */
const char *hii_string_blocks_walk(const UINT8 *blocks, size_t size, hii_string_fn fn, void *ctx,
				   EFI_STRING_ID *last_id)
{
	struct walk w = {.b = blocks, .size = size, .next_id = 1, .fn = fn, .ctx = ctx};

	return walk_run(&w, last_id);
}

/* Finds the FONT block defining a font id. */
bool hii_string_font(const UINT8 *blocks, size_t size, UINT8 font_id, struct hii_font_ref *out)
{
	struct walk w = {.b = blocks, .size = size, .next_id = 1, .font = out};

	out->id = font_id;
	out->name = NULL;
	walk_run(&w, NULL);
	return out->name != NULL;
}

struct find {
	EFI_STRING_ID id;
	struct hii_string_ref *out;
	bool found;
};

static bool find_one(void *ctx, const struct hii_string_ref *s)
{
	struct find *f = ctx;

	if (s->id < f->id)
		return true;
	if (s->id == f->id) {
		*f->out = *s;
		f->found = true;
	}
	return false;
}

/* Finds a string by id, following duplicates. */
bool hii_string_find(const UINT8 *blocks, size_t size, EFI_STRING_ID id, struct hii_string_ref *out)
{
	EFI_STRING_ID want = id;

	/* Each duplicate names a smaller id, so the chain ends. */
	while (want) {
		struct find f = {want, out, false};

		if (hii_string_blocks_walk(blocks, size, find_one, &f, NULL) || !f.found)
			return false;
		if (!out->dup_of) {
			out->id = id;
			return true;
		}
		want = out->dup_of;
	}
	return false;
}

/* Decodes a string's text into UCS-2; returns the units needed with the terminator. */
size_t hii_string_decode(const struct hii_string_ref *s, CHAR16 *out, size_t units)
{
	size_t n = s->ucs2 ? s->bytes / 2 : s->bytes;

	for (size_t i = 0; i < n && i < units; i++) {
		CHAR16 c;

		if (s->ucs2) {
			c = read16(s->text + 2 * i);
		} else {
			c = s->text[i];
			if (c < SCSU_TAG_LIMIT && c != '\t' && c != '\n' && c != '\r')
				c = REPLACEMENT_CHARACTER;
		}
		out[i] = c;
	}
	if (n < units)
		out[n] = 0;
	return n + 1;
}

/* The language of a checked string package. */
const char *hii_string_package_language(const UINT8 *package)
{
	return (const char *)package + EFI_HII_STRING_PACKAGE_FIXED_SIZE;
}

/* The blocks of a checked string package and their size. */
const UINT8 *hii_string_package_blocks(const UINT8 *package, size_t *size)
{
	UINT32 info = read32(package + EFI_HII_STRING_PACKAGE_INFO_OFFSET);

	*size = EFI_HII_PACKAGE_LENGTH(read32(package)) - info;
	return package + info;
}
