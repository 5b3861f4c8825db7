/* The S3 record (platform/qemu-x86_64/pure/s3_record.c): a built record is valid, its
 * entries lie where the reset stage reads them and its 32-bit words sum to zero; any byte
 * changed, a record that did not fit, a missing FACS or an impossible count or length are
 * refused, as reset/s3_resume.S refuses them (a normal boot instead of a resume). */
#include <string.h>

#include "support/test.h"
#include "../../platform/qemu-x86_64/pure/s3_record.h"

static UINT32 word_at(const UINT8 *p, UINTN offset)
{
	UINT32 v;

	memcpy(&v, p + offset, 4);
	return v;
}

static UINT32 build(UINT8 *buffer, UINT32 capacity, UINT32 entries)
{
	struct s3_record_builder b;

	s3_record_begin(&b, buffer, capacity, 0x7ffe0000);
	for (UINT32 i = 0; i < entries; i++)
		s3_record_add(&b, S3_KIND_PCI, S3_PCI_ADDRESS(0xf8, 0x40 + 4 * i), 0x601 + i);
	s3_record_add(&b, S3_KIND_MSR, 0x2ff, 0x0000000100000c06ULL);
	s3_record_add(&b, S3_KIND_IO16, 0x604, 1);
	return s3_record_finish(&b) ? S3_HEADER_SIZE + (entries + 2) * S3_ENTRY_SIZE : 0;
}

TEST(s3_record_built_is_valid_and_laid_out_for_the_reset_stage)
{
	static UINT8 buffer[S3_RECORD_MAX];
	UINT32 length = build(buffer, sizeof(buffer), 3), sum = 0;

	ASSERT_EQ(length, S3_HEADER_SIZE + 5 * S3_ENTRY_SIZE);
	EXPECT(s3_record_valid(buffer, sizeof(buffer)));
	EXPECT(s3_record_valid(buffer, length));
	EXPECT(!s3_record_valid(buffer, length - 1));
	EXPECT_EQ(memcmp(buffer, "EmberS3R", 8), 0);
	EXPECT_EQ(word_at(buffer, S3_LENGTH), length);
	EXPECT_EQ(word_at(buffer, S3_COUNT), 5u);
	EXPECT_EQ(word_at(buffer, S3_FACS), 0x7ffe0000u);
	for (UINT32 i = 0; i < length; i += 4)
		sum += word_at(buffer, i);
	EXPECT_EQ(sum, 0u);
	/* The first entry: PMBASE of 00:1f.0 through 0xCF8; the MSR's high half at +12. */
	EXPECT_EQ(word_at(buffer, S3_HEADER_SIZE), (UINT32)S3_KIND_PCI);
	EXPECT_EQ(word_at(buffer, S3_HEADER_SIZE + 4), 0x8000f840u);
	EXPECT_EQ(word_at(buffer, S3_HEADER_SIZE + 8), 0x601u);
	EXPECT_EQ(word_at(buffer, S3_HEADER_SIZE + 3 * 16), (UINT32)S3_KIND_MSR);
	EXPECT_EQ(word_at(buffer, S3_HEADER_SIZE + 3 * 16 + 8), 0xc06u);
	EXPECT_EQ(word_at(buffer, S3_HEADER_SIZE + 3 * 16 + 12), 1u);
}

TEST(s3_record_any_changed_byte_is_refused)
{
	static UINT8 buffer[S3_RECORD_MAX];
	UINT32 length = build(buffer, sizeof(buffer), 4);

	for (UINT32 i = 0; i < length; i++) {
		buffer[i] ^= 0x20;
		EXPECT(!s3_record_valid(buffer, sizeof(buffer)));
		buffer[i] ^= 0x20;
	}
	EXPECT(s3_record_valid(buffer, sizeof(buffer)));
}

TEST(s3_record_that_does_not_fit_stays_invalid)
{
	static UINT8 buffer[S3_RECORD_MAX];
	struct s3_record_builder b;
	UINT32 added = 0;

	memset(buffer, 0xa5, sizeof(buffer));
	EXPECT_EQ(build(buffer, S3_HEADER_SIZE + 4 * S3_ENTRY_SIZE, 3), 0u);
	EXPECT(!s3_record_valid(buffer, sizeof(buffer)));
	/* The area holds S3_MAX_ENTRIES and not one more. */
	s3_record_begin(&b, buffer, sizeof(buffer), 0x1000);
	while (s3_record_add(&b, S3_KIND_IO16, 0x80, added))
		added++;
	EXPECT_EQ(added, (UINT32)S3_MAX_ENTRIES);
	EXPECT(!s3_record_finish(&b));
	EXPECT(!s3_record_valid(buffer, sizeof(buffer)));
	EXPECT_EQ(build(buffer, 8, 0), 0u);
}

TEST(s3_record_without_facs_or_with_a_forged_count_is_refused)
{
	static UINT8 buffer[S3_RECORD_MAX];
	struct s3_record_builder b;
	struct s3_record_header *h = (struct s3_record_header *)buffer;

	s3_record_begin(&b, buffer, sizeof(buffer), 0);
	s3_record_add(&b, S3_KIND_IO16, 0x604, 1);
	ASSERT(s3_record_finish(&b));
	EXPECT(!s3_record_valid(buffer, sizeof(buffer)));
	/* A count past the area, with length and checksum made to agree: still refused. */
	build(buffer, sizeof(buffer), 0);
	h->count = S3_MAX_ENTRIES + 1;
	h->length = S3_HEADER_SIZE + h->count * S3_ENTRY_SIZE;
	h->checksum = 0;
	h->checksum = 0u - (h->signature[0] + h->signature[1] + h->length + h->count + h->facs);
	EXPECT(!s3_record_valid(buffer, sizeof(buffer)));
	EXPECT(!s3_record_valid(buffer, S3_HEADER_SIZE - 1));
}
