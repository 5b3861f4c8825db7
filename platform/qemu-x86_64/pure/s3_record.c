/* Building and checking the S3 record (s3_record.h). */
#include "s3_record.h"
#include <stddef.h>

_Static_assert(sizeof(struct s3_record_header) == S3_HEADER_SIZE, "S3 header layout");
_Static_assert(offsetof(struct s3_record_header, length) == S3_LENGTH, "S3 length");
_Static_assert(offsetof(struct s3_record_header, checksum) == S3_CHECKSUM, "S3 checksum");
_Static_assert(offsetof(struct s3_record_header, count) == S3_COUNT, "S3 count");
_Static_assert(offsetof(struct s3_record_header, facs) == S3_FACS, "S3 FACS");
_Static_assert(sizeof(struct s3_record_entry) == S3_ENTRY_SIZE, "S3 entry layout");

static UINT32 word_sum(const void *p, UINT32 bytes)
{
	const UINT8 *b = p;
	UINT32 sum = 0;

	for (UINT32 i = 0; i + 4 <= bytes; i += 4)
		sum += (UINT32)b[i] | (UINT32)b[i + 1] << 8 | (UINT32)b[i + 2] << 16 |
		       (UINT32)b[i + 3] << 24;
	return sum;
}

void s3_record_begin(struct s3_record_builder *b, void *buffer, UINT32 capacity, UINT32 facs)
{
	struct s3_record_header *h = buffer;

	b->header = h;
	b->capacity = capacity;
	b->full = capacity < S3_HEADER_SIZE;
	if (b->full)
		return;
	/* No signature until finished: a wake meanwhile boots normally. */
	*h = (struct s3_record_header){{0, 0}, S3_HEADER_SIZE, 0, 0, facs, {0, 0}};
}

bool s3_record_add(struct s3_record_builder *b, UINT32 kind, UINT32 target, UINT64 value)
{
	struct s3_record_entry *e;
	UINT32 count;

	if (b->full)
		return false;
	count = b->header->count;
	if (count >= S3_MAX_ENTRIES ||
	    S3_HEADER_SIZE + (count + 1) * (UINT32)S3_ENTRY_SIZE > b->capacity) {
		b->full = true;
		return false;
	}
	e = (struct s3_record_entry *)(b->header + 1) + count;
	*e = (struct s3_record_entry){kind, target, value};
	b->header->count = count + 1;
	return true;
}

bool s3_record_finish(struct s3_record_builder *b)
{
	struct s3_record_header *h = b->header;

	if (b->full)
		return false;
	h->length = S3_HEADER_SIZE + h->count * S3_ENTRY_SIZE;
	h->checksum = 0;
	h->signature[0] = S3_SIGNATURE_LO;
	h->signature[1] = S3_SIGNATURE_HI;
	h->checksum = 0u - word_sum(h, h->length);
	return true;
}

bool s3_record_valid(const void *record, UINTN size)
{
	struct s3_record_header h;
	const UINT8 *p = record;

	if (size < S3_HEADER_SIZE)
		return false;
	for (UINTN i = 0; i < sizeof(h); i++)
		((UINT8 *)&h)[i] = p[i];
	if (h.signature[0] != S3_SIGNATURE_LO || h.signature[1] != S3_SIGNATURE_HI)
		return false;
	if (h.count > S3_MAX_ENTRIES || h.length != S3_HEADER_SIZE + h.count * S3_ENTRY_SIZE)
		return false;
	if (h.length > size || !h.facs)
		return false;
	return word_sum(record, h.length) == 0;
}
