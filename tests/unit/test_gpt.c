/* The GPT parser (drivers/partition/gpt.c) on disks built in memory. */
#include <string.h>

#include "support/test.h"
#include "disk_builder.h"
#include <ember/lib/util.h>

#define BLOCKS 4096 /* 2 MiB of 512-byte blocks */

static const EFI_GUID esp_type = EFI_PART_TYPE_EFI_SYSTEM_PART_GUID;
static const EFI_GUID data_type = {
    0x0fc63daf, 0x8483, 0x4772, {0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4}};
static struct part_table table;

/* Three partitions: ESP in slot 0, data in slots 1 and 3 (slot 2 unused). */
static void make_disk(struct mem_disk *d, UINT32 block_size, UINT64 blocks)
{
	struct gpt_part parts[] = {
	    {esp_type, 100, 199, 0, 0},
	    {data_type, 200, 299, 0, 1},
	    {data_type, 400, 999, 0, 3},
	};
	mem_disk_init(d, blocks, block_size);
	gpt_write(d, parts, 3, 128, 128);
}

static void expect_standard_partitions(void)
{
	EFI_GUID unique = gpt_test_unique_guid(3);

	ASSERT_EQ(table.count, 3);
	EXPECT_EQ(table.scheme, PART_SCHEME_GPT);
	EXPECT_EQ(table.entries[0].start, 100);
	EXPECT_EQ(table.entries[0].blocks, 100);
	EXPECT(table.entries[0].system);
	EXPECT(!table.entries[1].system);
	EXPECT_EQ(table.entries[2].start, 400);
	EXPECT_EQ(table.entries[2].blocks, 600);
	EXPECT_EQ(table.entries[2].node.hd.PartitionNumber, 4);
	EXPECT_EQ(table.entries[2].node.hd.PartitionStart, 400);
	EXPECT_EQ(table.entries[2].node.hd.PartitionSize, 600);
	EXPECT_EQ(table.entries[2].node.hd.MBRType, MBR_TYPE_EFI_PARTITION_TABLE_HEADER);
	EXPECT_EQ(table.entries[2].node.hd.SignatureType, SIGNATURE_TYPE_GUID);
	EXPECT(!memcmp(table.entries[2].node.hd.Signature, &unique, 16));
	EXPECT_EQ(table.entries[2].node.header.Type, MEDIA_DEVICE_PATH);
	EXPECT_EQ(table.entries[2].node.header.SubType, MEDIA_HARDDRIVE_DP);
	EXPECT_EQ(table.entries[2].node.header.Length[0], 42);
	EXPECT_EQ(table.entries[0].info.Type, PARTITION_TYPE_GPT);
	EXPECT_EQ(table.entries[0].info.System, 1);
	EXPECT_EQ(table.entries[1].info.System, 0);
	EXPECT_EQ(table.entries[2].info.Info.Gpt.StartingLBA, 400);
	EXPECT_EQ(table.entries[2].info.Info.Gpt.PartitionName[0], 'P');
}

TEST(gpt_three_partitions)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	expect_standard_partitions();
	EXPECT(table.primary_valid);
	EXPECT(table.backup_valid);
	EXPECT(table.problem == NULL);
	EXPECT_STATUS(part_parse(&view, &table), EFI_SUCCESS);
	EXPECT_EQ(table.scheme, PART_SCHEME_GPT);
	mem_disk_free(&d);
}

TEST(gpt_4096_byte_blocks)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 4096, 2048);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	expect_standard_partitions();
	mem_disk_free(&d);
}

TEST(gpt_zeroed_primary_header_uses_backup)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	memset(mem_disk_block(&d, 1), 0, 512);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse(&view, &table), EFI_SUCCESS);
	expect_standard_partitions();
	EXPECT(!table.primary_valid);
	EXPECT(table.backup_valid);
	EXPECT(table.primary_problem != NULL);
	EXPECT_EQ(table.header.MyLBA, BLOCKS - 1);
	mem_disk_free(&d);
}

TEST(gpt_corrupt_primary_array_uses_backup)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	mem_disk_block(&d, 2)[128 + 40] ^= 1; /* slot 1's StartingLBA */
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	expect_standard_partitions();
	EXPECT(!table.primary_valid);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "array CRC32"));
	mem_disk_free(&d);
}

TEST(gpt_corrupt_array_crc_in_both_shows_nothing)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	mem_disk_block(&d, 2)[56] ^= 0x20;		 /* a name in the primary array */
	mem_disk_block(&d, BLOCKS - 1 - 32)[56] ^= 0x20; /* and in the backup's */
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_NOT_FOUND);
	EXPECT_EQ(table.count, 0);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "array CRC32"));
	EXPECT(table.backup_problem && strstr(table.backup_problem, "array CRC32"));
	/* The protective MBR is not taken for a legacy one, and the reasons survive. */
	EXPECT_STATUS(part_parse(&view, &table), EFI_NOT_FOUND);
	EXPECT_EQ(table.count, 0);
	EXPECT_EQ(table.scheme, PART_SCHEME_NONE);
	EXPECT(table.primary_problem != NULL);
	EXPECT(table.backup_problem != NULL);
	mem_disk_free(&d);
}

TEST(gpt_needs_protective_mbr)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	mem_disk_block(&d, 0)[446 + 4] = 0x83;
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_NOT_FOUND);
	EXPECT(table.problem == NULL);
	mem_disk_free(&d);
}

TEST(gpt_bad_entries_are_skipped)
{
	struct mem_disk d;
	struct part_disk view;
	struct gpt_part parts[] = {
	    {data_type, 100, 199, 0, 0},
	    {data_type, 150, 250, 0, 1},   /* overlaps slot 0 */
	    {data_type, 10, 50, 0, 2},	   /* before FirstUsableLBA (34)? starts at 10 */
	    {data_type, 300, 200, 0, 3},   /* ends before it starts */
	    {data_type, 3000, 9999, 0, 4}, /* past LastUsableLBA */
	    {data_type, 500, 599, EFI_PARTITION_ATTRIBUTE_NO_BLOCK_IO, 5},
	    {data_type, 600, 699, EFI_PARTITION_ATTRIBUTE_REQUIRED, 6},
	};

	mem_disk_init(&d, BLOCKS, 512);
	gpt_write(&d, parts, ARRAY_SIZE(parts), 128, 128);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	ASSERT_EQ(table.count, 2);
	EXPECT_EQ(table.entries[0].node.hd.PartitionNumber, 1);
	EXPECT_EQ(table.entries[1].node.hd.PartitionNumber, 7);
	EXPECT_EQ(table.skipped, 4);
	EXPECT(table.problem != NULL);
	mem_disk_free(&d);
}

TEST(gpt_larger_entries_and_odd_counts)
{
	struct mem_disk d;
	struct part_disk view;
	struct gpt_part parts[] = {{esp_type, 100, 199, 0, 0}, {data_type, 300, 399, 0, 40}};

	mem_disk_init(&d, BLOCKS, 512);
	gpt_write(&d, parts, 2, 45, 256);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	ASSERT_EQ(table.count, 2);
	EXPECT_EQ(table.entries[1].node.hd.PartitionNumber, 41);
	EXPECT_EQ(table.entries[1].start, 300);
	mem_disk_free(&d);
}

TEST(gpt_backup_alone_when_primary_missing_on_small_disk)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	/* Both headers broken: nothing, and no crash. */
	memset(mem_disk_block(&d, 1), 0, 512);
	memset(mem_disk_block(&d, BLOCKS - 1), 0xff, 512);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_NOT_FOUND);
	EXPECT(table.primary_problem && table.backup_problem);
	mem_disk_free(&d);
}

TEST(gpt_backup_found_through_alternate_lba)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	view = mem_disk_view(&d);
	view.last_block = BLOCKS * 2 - 1; /* the disk grew after it was partitioned */
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_valid);
	EXPECT(table.backup_valid);
	/* Without the primary, the backup is looked for on the last block only; reading it
	 * fails here, which is no crash and no partitions. */
	memset(mem_disk_block(&d, 1), 0, 512);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_NOT_FOUND);
	EXPECT(table.backup_problem && strstr(table.backup_problem, "cannot read"));
	mem_disk_free(&d);
}

/* A disk where one read fails, each in turn: the protective MBR unread is no GPT, a header
 * or array unread makes that copy invalid and the other is used, and the entries unread
 * are the parse's error with no partitions at all, never part of them. */
TEST(gpt_read_errors)
{
	struct mem_disk d;
	struct part_disk view;
	UINTN reads;

	make_disk(&d, 512, BLOCKS);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	reads = d.reads; /* MBR, header and 4 array reads for each copy, 4 entry reads */
	ASSERT_EQ(reads, 15);
	for (UINTN k = 1; k <= reads; k++) {
		EFI_STATUS status;
		d.reads = 0;
		d.fail_read = k;
		status = part_parse_gpt(&view, &table);
		if (k == 1) {
			EXPECT_STATUS(status, EFI_NOT_FOUND);
		} else if (k <= 11) {
			EXPECT_STATUS(status, EFI_SUCCESS);
			EXPECT(k <= 6 ? !table.primary_valid : !table.backup_valid);
			expect_standard_partitions();
		} else {
			EXPECT_STATUS(status, EFI_DEVICE_ERROR);
			EXPECT_EQ(table.count, 0);
			EXPECT(table.problem && strstr(table.problem, "cannot read"));
		}
	}
	mem_disk_free(&d);
}
