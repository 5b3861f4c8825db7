/* New and changed strings (UEFI 2.10, 34.2.1 NewString, SetString): a string package is
 * rebuilt with the string put in, every string as a UCS-2 block, gaps as SKIP blocks, so
 * that the StringIds of all other strings stay what they were. Font blocks are not kept:
 * an edited package's strings lose their font (Ember draws one font). */
#define LOG_PREFIX "hii: "
#include "hii.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define SKIP2_MAX 0xffff

struct table {
	struct hii_string_ref *refs; /* indexed by StringId; refs[i].id == i when present */
	UINT32 count;		     /* ids 0 .. count - 1 */
};

static bool collect(void *ctx, const struct hii_string_ref *s)
{
	struct table *t = ctx;

	if (s->id >= t->count)
		return false;
	if (!s->dup_of) {
		t->refs[s->id] = *s;
	} else if (t->refs[s->dup_of].id == s->dup_of) {
		t->refs[s->id] = t->refs[s->dup_of];
		t->refs[s->id].id = s->id;
	}
	return true;
}

static UINTN text_units(const struct hii_string_ref *s)
{
	return hii_string_decode(s, NULL, 0) - 1;
}

/* Bytes of the blocks for the table: strings, SKIPs for gaps, END. */
static UINTN blocks_size(const struct table *t)
{
	UINTN size = 1, gap = 0;

	for (UINT32 id = 1; id < t->count; id++) {
		if (t->refs[id].id != id) {
			gap++;
			continue;
		}
		size +=
		    (gap + SKIP2_MAX - 1) / SKIP2_MAX * 3 + 1 + 2 * text_units(&t->refs[id]) + 2;
		gap = 0;
	}
	return size;
}

static UINT8 *put_skips(UINT8 *out, UINTN gap)
{
	while (gap) {
		UINT16 n = gap > SKIP2_MAX ? SKIP2_MAX : (UINT16)gap;

		*out++ = EFI_HII_SIBT_SKIP2;
		mem_copy(out, &n, sizeof(n));
		out += sizeof(n);
		gap -= n;
	}
	return out;
}

/* Writes the blocks; the table's strings are decoded straight into the output. */
static void put_blocks(const struct table *t, UINT8 *out)
{
	UINTN gap = 0;

	for (UINT32 id = 1; id < t->count; id++) {
		const struct hii_string_ref *s = &t->refs[id];
		UINTN units;

		if (s->id != id) {
			gap++;
			continue;
		}
		out = put_skips(out, gap);
		gap = 0;
		*out++ = EFI_HII_SIBT_STRING_UCS2;
		units = text_units(s);
		for (UINTN i = 0; i <= units; i++) {
			CHAR16 c;
			struct hii_string_ref one = *s;

			/* One unit at a time: the output is not aligned for CHAR16. */
			if (i < units) {
				one.text = s->text + (s->ucs2 ? 2 * i : i);
				one.bytes = s->ucs2 ? 2 : 1;
				hii_string_decode(&one, &c, 1);
			} else {
				c = 0;
			}
			mem_copy(out, &c, sizeof(c));
			out += sizeof(c);
		}
	}
	*out = EFI_HII_SIBT_END;
}

/* The header of the new package: the old one's (or a new one for a language). */
static struct hii_package *new_package(const UINT8 *hdr, UINT32 hdr_size, UINTN blocks)
{
	UINT64 size = (UINT64)hdr_size + blocks;
	struct hii_package *package;
	UINT32 word;

	if (size > 0xffffff) {
		log_debug("string package would exceed 16 MiB\n");
		return NULL;
	}
	package = pool_alloc(sizeof(*package) + (UINTN)size);
	if (!package)
		return NULL;
	package->size = (UINT32)size;
	package->type = EFI_HII_PACKAGE_STRINGS;
	mem_copy(package->data, hdr, hdr_size);
	word = (UINT32)size | (UINT32)EFI_HII_PACKAGE_STRINGS << 24;
	mem_copy(package->data, &word, sizeof(word));
	mem_copy(package->data + EFI_HII_STRING_PACKAGE_HDR_SIZE_OFFSET, &hdr_size,
		 sizeof(hdr_size));
	mem_copy(package->data + EFI_HII_STRING_PACKAGE_INFO_OFFSET, &hdr_size, sizeof(hdr_size));
	return package;
}

/* A copy of a string package (old, or NULL for an empty one of a language) with string id
 * set to text. NULL without memory. */
struct hii_package *hii_string_package_edit(const struct hii_package *old, const char *language,
					    EFI_STRING_ID id, const CHAR16 *text)
{
	UINT8 fresh[EFI_HII_STRING_PACKAGE_FIXED_SIZE + 64] = {0};
	struct table t = {NULL, (UINT32)id + 1};
	EFI_STRING_ID last = 0;
	const UINT8 *blocks = NULL, *hdr = fresh;
	size_t blocks_bytes = 0;
	UINT32 hdr_size;
	struct hii_package *package = NULL;

	if (old) {
		blocks = hii_string_package_blocks(old->data, &blocks_bytes);
		hii_string_blocks_walk(blocks, blocks_bytes, NULL, NULL, &last);
		if (last >= t.count)
			t.count = (UINT32)last + 1;
		hdr = old->data;
		mem_copy(&hdr_size, hdr + EFI_HII_STRING_PACKAGE_HDR_SIZE_OFFSET, sizeof(hdr_size));
	} else {
		if (str8_len(language) >= sizeof(fresh) - EFI_HII_STRING_PACKAGE_FIXED_SIZE) {
			log_debug("language tag too long for a new string package\n");
			return NULL;
		}
		hdr_size = EFI_HII_STRING_PACKAGE_FIXED_SIZE + (UINT32)str8_len(language) + 1;
		mem_copy(fresh + EFI_HII_STRING_PACKAGE_FIXED_SIZE, language, str8_len(language));
	}
	t.refs = pool_alloc(t.count * sizeof(*t.refs));
	if (!t.refs)
		return NULL;
	if (old)
		hii_string_blocks_walk(blocks, blocks_bytes, collect, &t, NULL);
	t.refs[id] = (struct hii_string_ref){
	    .id = id, .ucs2 = true, .text = (const UINT8 *)text, .bytes = 2 * str16_len(text)};
	package = new_package(hdr, hdr_size, blocks_size(&t));
	if (package)
		put_blocks(&t, package->data + hdr_size);
	pool_free(t.refs);
	return package;
}
