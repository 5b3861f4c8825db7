/* FFS sections (PI 1.8 volume 3, 2.2.4): the walk over a file's sections and the search
 * that looks into compression and GUID-defined ones. */
#include <ember/lib/crc32.h>
#include <ember/lib/fv.h>
#include <ember/lib/str.h>
#include <ember/lib/uefi_decompress.h>
#include <ember/lib/util.h>

/* Encapsulations inside encapsulations: a bound, so a crafted file cannot recurse deeply. */
#define MAX_NESTING 4
#define COMPRESSION_FIELDS 5
#define GUIDED_FIELDS 20

static const EFI_GUID crc32_section_guid = EFI_CRC32_GUIDED_SECTION_EXTRACTION_GUID;

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int fv_next_section(const uint8_t *buf, size_t size, size_t *offset, struct fv_section *s,
		    const char **why)
{
	size_t at = ALIGN_UP(*offset, 4), header = 4;
	uint32_t length;

	if (at >= size)
		return 0;
	if (size - at < 4) {
		*why = "a section header is truncated";
		return -1;
	}
	length = (uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8 | (uint32_t)buf[at + 2] << 16;
	if (length == 0xFFFFFF) {
		if (size - at < 8) {
			*why = "a section header is truncated";
			return -1;
		}
		header = 8;
		length = get32(buf + at + 4);
	}
	if (length < header || length > size - at) {
		*why = length < header ? "a section is shorter than its header"
				       : "a section is truncated (it ends past its file)";
		return -1;
	}
	s->type = buf[at + 3];
	s->start = buf + at;
	s->size = length;
	s->data = buf + at + header;
	s->data_size = length - header;
	*offset = at + length;
	return 1;
}

struct search {
	uint8_t type;
	size_t instance;
	const struct fv_memory *mem;
	struct fv_found *found;
};

static const char *search_in(struct search *q, const uint8_t *buf, size_t size, int depth);

/* A compression section: decoded into memory of its own, searched, kept only when the
 * section was found in it. */
static const char *search_compressed(struct search *q, const struct fv_section *s, int depth)
{
	uint32_t original, scratch_size, decoded_size;
	const char *why = "not found";
	uint8_t *out, *scratch;

	if (s->data_size < COMPRESSION_FIELDS)
		return "a compression section is truncated";
	original = get32(s->data);
	if (s->data[4] == EFI_NOT_COMPRESSED) {
		if (original != s->data_size - COMPRESSION_FIELDS)
			return "an uncompressed section's length is wrong";
		return search_in(q, s->data + COMPRESSION_FIELDS, original, depth + 1);
	}
	if (s->data[4] != EFI_STANDARD_COMPRESSION)
		return "an unknown compression type";
	if (uefi_decompress_get_info(s->data + COMPRESSION_FIELDS,
				     s->data_size - COMPRESSION_FIELDS, &decoded_size,
				     &scratch_size) != UEFI_DECOMPRESS_OK ||
	    decoded_size != original)
		return "a compressed section's header is wrong";
	out = q->mem->alloc(q->mem->ctx, original ? original : 1);
	scratch = q->mem->alloc(q->mem->ctx, scratch_size ? scratch_size : 1);
	if (!out || !scratch) {
		why = "no memory to decompress a section";
	} else if (uefi_decompress(s->data + COMPRESSION_FIELDS, s->data_size - COMPRESSION_FIELDS,
				   out, original, scratch, scratch_size) != UEFI_DECOMPRESS_OK) {
		why = "a compressed section does not decompress";
	} else {
		why = search_in(q, out, original, depth + 1);
		if (!why && !q->found->owned) {
			q->found->owned = out;
			out = NULL;
		}
	}
	if (scratch)
		q->mem->release(q->mem->ctx, scratch);
	if (out)
		q->mem->release(q->mem->ctx, out);
	return why;
}

/* A GUID-defined section: the CRC-32 one is checked; others are looked into only when they
 * need no processing (their data are plain sections). */
static const char *search_guided(struct search *q, const struct fv_section *s, int depth)
{
	const uint8_t *h = s->start;
	size_t header = (size_t)(s->data - s->start);
	uint16_t data_offset, attributes;
	EFI_GUID guid;

	if (s->data_size < GUIDED_FIELDS)
		return "a GUID-defined section is truncated";
	mem_copy(&guid, s->data, sizeof(guid));
	data_offset = (uint16_t)(s->data[16] | s->data[17] << 8);
	attributes = (uint16_t)(s->data[18] | s->data[19] << 8);
	if (data_offset < header + GUIDED_FIELDS || data_offset > s->size)
		return "a GUID-defined section's data offset is wrong";
	if (guid_eq(&guid, &crc32_section_guid)) {
		if (data_offset < header + GUIDED_FIELDS + 4)
			return "a CRC-32 section has no CRC";
		if (crc32(h + data_offset, s->size - data_offset) !=
		    get32(h + header + GUIDED_FIELDS))
			return "a CRC-32 section's CRC is wrong";
	} else if (attributes & EFI_GUIDED_SECTION_PROCESSING_REQUIRED) {
		return "not found"; /* a format Ember does not know */
	}
	return search_in(q, h + data_offset, s->size - data_offset, depth + 1);
}

static const char *search_in(struct search *q, const uint8_t *buf, size_t size, int depth)
{
	struct fv_section s;
	size_t offset = 0;
	const char *why = NULL;
	int r;

	if (depth > MAX_NESTING)
		return "sections nested too deep";
	while ((r = fv_next_section(buf, size, &offset, &s, &why)) > 0) {
		if (s.type == q->type) {
			if (q->instance == 0) {
				q->found->section = s;
				return NULL;
			}
			q->instance--;
			continue;
		}
		if (s.type == EFI_SECTION_COMPRESSION)
			why = search_compressed(q, &s, depth);
		else if (s.type == EFI_SECTION_GUID_DEFINED)
			why = search_guided(q, &s, depth);
		else
			continue;
		if (!why || str8_cmp(why, "not found") != 0)
			return why;
	}
	return r < 0 ? why : "not found";
}

const char *fv_find_section(const uint8_t *buf, size_t size, uint8_t type, size_t instance,
			    const struct fv_memory *mem, struct fv_found *found)
{
	struct search q = {type, instance, mem, found};

	mem_set(found, 0, sizeof(*found));
	return search_in(&q, buf, size, 0);
}
