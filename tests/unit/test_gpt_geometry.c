/* The GPT header geometry rules (drivers/partition/gpt_geometry.c, UEFI 2.10 section
 * 5.3.2), one rule at a time on the headers gpt_write() lays out, then through the parser:
 * a header that fails a rule is never used. */
#include <string.h>

#include "support/test.h"
#include "disk_builder.h"

#define BLOCKS 4096 /* 512-byte blocks: arrays at 2-33 and 4063-4094, usable 34-4062 */
#define LAST (BLOCKS - 1)

static struct mem_disk disk;
static struct part_disk view;
static EFI_PARTITION_TABLE_HEADER primary, backup;
static struct part_table table;

static void setup(void)
{
	mem_disk_init(&disk, BLOCKS, 512);
	gpt_write(&disk, NULL, 0, 128, 128);
	view = mem_disk_view(&disk);
	primary = *gpt_header(&disk, PART_GPT_PRIMARY_LBA);
	backup = *gpt_header(&disk, LAST);
}

/* Whether h fails the geometry rules for a reason that mentions word. */
static bool fails(const EFI_PARTITION_TABLE_HEADER *h, const char *word)
{
	const char *problem = part_gpt_check_geometry(&view, h);

	return problem && strstr(problem, word);
}

TEST(gpt_geometry_valid_headers)
{
	setup();
	EXPECT(part_gpt_check_geometry(&view, &primary) == NULL);
	EXPECT(part_gpt_check_geometry(&view, &backup) == NULL);
	EXPECT_EQ(part_gpt_array_blocks(&view, &primary), 32);
	/* A disk that grew: the headers still hold, the backup where the primary says. */
	view.last_block = 2 * BLOCKS - 1;
	EXPECT(part_gpt_check_geometry(&view, &primary) == NULL);
	EXPECT(part_gpt_check_geometry(&view, &backup) == NULL);
	mem_disk_free(&disk);

	mem_disk_init(&disk, 512, 4096);
	gpt_write(&disk, NULL, 0, 128, 128);
	view = mem_disk_view(&disk);
	EXPECT(part_gpt_check_geometry(&view, gpt_header(&disk, 1)) == NULL);
	EXPECT(part_gpt_check_geometry(&view, gpt_header(&disk, 511)) == NULL);
	EXPECT_EQ(part_gpt_array_blocks(&view, gpt_header(&disk, 1)), 4);
	mem_disk_free(&disk);
}

TEST(gpt_geometry_entry_size_is_128_times_a_power_of_two)
{
	static const UINT32 bad[] = {0, 64, 127, 192, 384, 640, 8192, 0x80000000};
	static const UINT32 good[] = {128, 256, 512, 1024, 4096};
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	for (UINTN i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h = primary;
		h.SizeOfPartitionEntry = bad[i];
		EXPECT(fails(&h, "SizeOfPartitionEntry"));
	}
	for (UINTN i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		h = primary; /* the same 16 KiB array */
		h.SizeOfPartitionEntry = good[i];
		h.NumberOfPartitionEntries = 128 * 128 / good[i];
		EXPECT(part_gpt_check_geometry(&view, &h) == NULL);
	}
	mem_disk_free(&disk);
}

TEST(gpt_geometry_entry_count_bounds)
{
	EFI_PARTITION_TABLE_HEADER h = {0};

	setup();
	h = primary;
	h.NumberOfPartitionEntries = 0;
	EXPECT(fails(&h, "NumberOfPartitionEntries is zero"));
	h.NumberOfPartitionEntries = 0xffffffff;
	EXPECT(fails(&h, "too large"));
	h.NumberOfPartitionEntries = PART_GPT_MAX_ARRAY / 128 + 1;
	EXPECT(fails(&h, "too large"));
	/* Fewer entries than the space reserved is fine. */
	h.NumberOfPartitionEntries = 4;
	EXPECT(part_gpt_check_geometry(&view, &h) == NULL);
	/* More than fit before the usable area is not. */
	h.NumberOfPartitionEntries = 129;
	EXPECT(fails(&h, "between the header and the usable area"));
	h = backup;
	h.NumberOfPartitionEntries = 129;
	EXPECT(fails(&h, "between the usable area and the header"));
	mem_disk_free(&disk);
}

TEST(gpt_geometry_my_lba)
{
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	h = primary;
	h.MyLBA = 0; /* the protective MBR */
	EXPECT(fails(&h, "MyLBA"));
	h = backup;
	h.MyLBA = BLOCKS;
	EXPECT(fails(&h, "MyLBA"));
	h.MyLBA = ~0ull;
	EXPECT(fails(&h, "MyLBA"));
	/* Neither LBA 1 nor past the usable area: before it, or in it. */
	h.MyLBA = 20;
	EXPECT(fails(&h, "MyLBA is neither"));
	h.MyLBA = 1000;
	EXPECT(fails(&h, "MyLBA is neither"));
	h.MyLBA = primary.LastUsableLBA;
	EXPECT(fails(&h, "MyLBA is neither"));
	mem_disk_free(&disk);
}

TEST(gpt_geometry_usable_area)
{
	const EFI_PARTITION_TABLE_HEADER *both[] = {&primary, &backup};
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	for (UINTN i = 0; i < 2; i++) {
		h = *both[i];
		h.FirstUsableLBA = 0;
		EXPECT(fails(&h, "usable LBA range"));
		h.FirstUsableLBA = 1; /* over the primary header */
		EXPECT(fails(&h, "usable LBA range"));
		h.FirstUsableLBA = h.LastUsableLBA + 1;
		EXPECT(fails(&h, "usable LBA range"));
		h = *both[i];
		h.LastUsableLBA = BLOCKS;
		EXPECT(fails(&h, "usable LBA range"));
	}
	/* The usable area may not run into either array or header, this copy's or the
	 * other's. */
	h = primary;
	h.FirstUsableLBA = 33;
	EXPECT(fails(&h, "between the header and the usable area"));
	h = primary;
	h.LastUsableLBA = LAST - 32;
	EXPECT(fails(&h, "AlternateLBA is not past the usable area and the backup's array"));
	h = backup;
	h.FirstUsableLBA = 33;
	EXPECT(fails(&h, "no room for the primary's array"));
	h.FirstUsableLBA = 34;
	EXPECT(part_gpt_check_geometry(&view, &h) == NULL);
	h.LastUsableLBA = LAST - 32;
	EXPECT(fails(&h, "between the usable area and the header"));
	h.LastUsableLBA = LAST - 1;
	EXPECT(fails(&h, "between the usable area and the header"));
	h.LastUsableLBA = LAST;
	EXPECT(fails(&h, "MyLBA is neither"));
	mem_disk_free(&disk);
}

TEST(gpt_geometry_primary_alternate_lba)
{
	static const UINT64 bad[] = {0, 1, 34, 1000, LAST - 33, LAST - 32, LAST - 1, BLOCKS, ~0ull};
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	for (UINTN i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h = primary;
		h.AlternateLBA = bad[i];
		EXPECT(fails(&h, "AlternateLBA is not past the usable area"));
	}
	/* Past the usable area and the backup's array, but not the last block: a disk that
	 * grew. */
	h.AlternateLBA = LAST - 1;
	h.LastUsableLBA = LAST - 34;
	EXPECT(part_gpt_check_geometry(&view, &h) == NULL);
	h.AlternateLBA = LAST - 2;
	EXPECT(fails(&h, "AlternateLBA"));
	mem_disk_free(&disk);
}

TEST(gpt_geometry_primary_entry_array)
{
	/* The array lies in [MyLBA + 1, FirstUsableLBA): not on the MBR or the header, not
	 * into the usable area, not where the backup's array goes (issue 10's hostile disk). */
	static const UINT64 bad[] = {0, 1, 3, 34, 40, LAST - 41, LAST - 32, LAST, ~0ull};
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	for (UINTN i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h = primary;
		h.PartitionEntryLBA = bad[i];
		EXPECT(fails(&h, "partition entry array is not between the header and the usable"));
	}
	/* A gap before the usable area is allowed. */
	h = primary;
	h.FirstUsableLBA = 40;
	h.PartitionEntryLBA = 8;
	EXPECT(part_gpt_check_geometry(&view, &h) == NULL);
	h.PartitionEntryLBA = 9;
	EXPECT(fails(&h, "partition entry array"));
	mem_disk_free(&disk);
}

TEST(gpt_geometry_backup_alternate_lba)
{
	static const UINT64 bad[] = {0, 2, 5, 34, LAST, ~0ull};
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	for (UINTN i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h = backup;
		h.AlternateLBA = bad[i];
		EXPECT(fails(&h, "AlternateLBA of a backup header is not LBA 1"));
	}
	mem_disk_free(&disk);
}

TEST(gpt_geometry_backup_entry_array)
{
	/* The array lies in (LastUsableLBA, MyLBA). */
	static const UINT64 bad[] = {0, 1, 2, 34, 1000, LAST - 33, LAST - 31, LAST, BLOCKS, ~0ull};
	EFI_PARTITION_TABLE_HEADER h;

	setup();
	for (UINTN i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h = backup;
		h.PartitionEntryLBA = bad[i];
		EXPECT(fails(&h, "partition entry array is not between the usable area and the"));
	}
	h = backup;
	h.LastUsableLBA = LAST - 40;
	h.PartitionEntryLBA = LAST - 40 + 1; /* a gap after it is allowed */
	EXPECT(part_gpt_check_geometry(&view, &h) == NULL);
	mem_disk_free(&disk);
}

/* The parser's own checks before the geometry: the header block and its CRC32. */
TEST(gpt_geometry_header_block_checks)
{
	EFI_PARTITION_TABLE_HEADER *h;

	setup();
	h = gpt_header(&disk, 1);
	h->MyLBA = 2;
	gpt_fix_header_crc(&disk, 1);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "MyLBA is not where"));
	h->MyLBA = 1;
	h->Header.CRC32 ^= 1;
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "header CRC32"));
	h->Header.HeaderSize = 600;
	gpt_fix_header_crc(&disk, 1); /* reads past the block: the CRC cannot cover it */
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "HeaderSize"));
	h->Header.HeaderSize = 91;
	gpt_fix_header_crc(&disk, 1);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "HeaderSize"));
	h->Header.HeaderSize = 92;
	h->Header.Signature ^= 1;
	gpt_fix_header_crc(&disk, 1);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "signature"));
	h->Header.Signature ^= 1;
	gpt_fix_header_crc(&disk, 1);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_problem == NULL && table.backup_problem == NULL);
	mem_disk_free(&disk);
}

/* A CRC-valid header that breaks a rule is not used: the parser takes the other copy, or
 * nothing. */
TEST(gpt_geometry_failing_header_is_not_used)
{
	struct gpt_part part = {{0x1234}, 100, 199, 0, 0};
	EFI_PARTITION_TABLE_HEADER *h;

	mem_disk_init(&disk, BLOCKS, 512);
	gpt_write(&disk, &part, 1, 128, 128);
	view = mem_disk_view(&disk);
	h = gpt_header(&disk, 1);
	h->PartitionEntryLBA = LAST - 32; /* the backup's array: its CRC32 matches */
	gpt_fix_header_crc(&disk, 1);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(!table.primary_valid && table.backup_valid);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "partition entry array"));
	EXPECT_EQ(table.header.MyLBA, LAST);
	ASSERT_EQ(table.count, 1);
	EXPECT_EQ(table.entries[0].start, 100);
	/* And with the backup's geometry broken too, no GPT at all. */
	h = gpt_header(&disk, LAST);
	h->AlternateLBA = 5;
	gpt_fix_header_crc(&disk, LAST);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_NOT_FOUND);
	EXPECT(table.backup_problem && strstr(table.backup_problem, "AlternateLBA"));
	EXPECT_EQ(table.count, 0);
	mem_disk_free(&disk);
}
