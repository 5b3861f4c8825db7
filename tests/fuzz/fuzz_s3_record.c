/* Fuzzes the S3 record's check (platform/qemu-x86_64/pure/s3_record.c) on any bytes: it
 * reads nothing past the size it is given, and whatever it accepts, built again from its
 * FACS and entries, is the same record (but for its reserved words and so its checksum):
 * the check and the builder agree on the format the reset stage replays. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../platform/qemu-x86_64/pure/s3_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static UINT8 again[S3_RECORD_MAX];
	const struct s3_record_header *h;
	struct s3_record_builder b;
	UINT8 *copy;

	if (size > S3_RECORD_MAX)
		size = S3_RECORD_MAX;
	copy = malloc(size ? size : 1); /* exactly size bytes, for the sanitizers */
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (s3_record_valid(copy, size)) {
		const struct s3_record_entry *e = (const void *)(copy + S3_HEADER_SIZE);
		h = (const void *)copy;
		s3_record_begin(&b, again, sizeof(again), h->facs);
		for (UINT32 i = 0; i < h->count; i++)
			if (!s3_record_add(&b, e[i].kind, e[i].target, e[i].value))
				abort();
		if (!s3_record_finish(&b) || memcmp(again, copy, S3_CHECKSUM) != 0 ||
		    memcmp(again + S3_COUNT, copy + S3_COUNT, 8) != 0 ||
		    memcmp(again + S3_HEADER_SIZE, copy + S3_HEADER_SIZE,
			   h->length - S3_HEADER_SIZE) != 0)
			abort();
	}
	free(copy);
	return 0;
}
