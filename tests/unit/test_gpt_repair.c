/* Restoring a damaged GPT copy (drivers/partition/gpt_repair.c): the primary from the
 * backup, the backup from the primary, nothing when both are bad, and nothing at all from
 * a header that breaks the geometry rules of UEFI 2.10, 5.3.2, such as issue 10's hostile
 * disk whose primary array lies where the backup array goes. */
#include <string.h>

#include "support/test.h"
#include "disk_builder.h"
#include <ember/lib/str.h>

#define BLOCKS 4096 /* 512-byte blocks: arrays at 2-33 and 4063-4094, usable 34-4062 */
#define LAST (BLOCKS - 1)

static const EFI_GUID data_type = {
    0x0fc63daf, 0x8483, 0x4772, {0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4}};
static struct part_table table;

static void make_disk(struct mem_disk *d, UINT32 block_size, UINT64 blocks)
{
	struct gpt_part parts[] = {{data_type, 100, 199, 0, 0}, {data_type, 300, 399, 0, 5}};

	mem_disk_init(d, blocks, block_size);
	gpt_write(d, parts, 2, 128, 128);
}

/* Parses, repairs, and checks that the disk is now the reference, both copies valid. */
static void expect_repaired(struct mem_disk *d, const struct mem_disk *reference,
			    const char *expected)
{
	struct part_disk view = mem_disk_view(d);
	const char *what = NULL;

	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT_EQ(table.count, 2);
	EXPECT_STATUS(part_gpt_repair(&view, &table, &what), EFI_SUCCESS);
	EXPECT(what && !strcmp(what, expected));
	EXPECT(!memcmp(d->data, reference->data, d->size));
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT(table.primary_valid && table.backup_valid);
	/* Nothing to do now. */
	d->writes = 0;
	EXPECT_STATUS(part_gpt_repair(&view, &table, &what), EFI_SUCCESS);
	EXPECT(what == NULL);
	EXPECT_EQ(d->writes, 0);
}

/* Parses and repairs, expecting the repair to write nothing (and status from it). */
static void expect_untouched(struct mem_disk *d, EFI_STATUS parse, EFI_STATUS repair)
{
	struct part_disk view = mem_disk_view(d);
	struct mem_disk before;
	const char *what = "?";

	mem_disk_init(&before, d->size / d->block_size, d->block_size);
	memcpy(before.data, d->data, d->size);
	d->writes = 0;
	EXPECT_STATUS(part_parse_gpt(&view, &table), parse);
	EXPECT_STATUS(part_gpt_repair(&view, &table, &what), repair);
	EXPECT(what == NULL);
	EXPECT_EQ(d->writes, 0);
	EXPECT(!memcmp(d->data, before.data, d->size));
	mem_disk_free(&before);
}

TEST(gpt_repair_restores_the_primary)
{
	struct mem_disk d, reference;

	make_disk(&reference, 512, BLOCKS);
	make_disk(&d, 512, BLOCKS);
	memset(mem_disk_block(&d, 1), 0, 512 * 33); /* header and array */
	expect_repaired(&d, &reference, "primary");
	mem_disk_free(&d);
	mem_disk_free(&reference);

	make_disk(&reference, 4096, 512);
	make_disk(&d, 4096, 512);
	memset(mem_disk_block(&d, 1), 0, 4096);
	expect_repaired(&d, &reference, "primary");
	mem_disk_free(&d);
	mem_disk_free(&reference);
}

TEST(gpt_repair_restores_the_backup)
{
	struct mem_disk d, reference;

	make_disk(&reference, 512, BLOCKS);
	make_disk(&d, 512, BLOCKS);
	mem_disk_block(&d, LAST)[20] ^= 1;     /* the backup header's CRC */
	mem_disk_block(&d, LAST - 32)[0] ^= 1; /* and its array */
	expect_repaired(&d, &reference, "backup");
	mem_disk_free(&d);
	mem_disk_free(&reference);
}

/* A CRC-valid primary whose geometry fails (its array is the backup's) is damaged like
 * any other: the backup restores it, array and all. */
TEST(gpt_repair_restores_a_primary_with_bad_geometry)
{
	struct mem_disk d, reference;
	EFI_PARTITION_TABLE_HEADER *h;

	make_disk(&reference, 512, BLOCKS);
	make_disk(&d, 512, BLOCKS);
	h = gpt_header(&d, 1);
	h->PartitionEntryLBA = LAST - 32;
	gpt_fix_header_crc(&d, 1);
	memset(mem_disk_block(&d, 2), 0, 512 * 32);
	expect_repaired(&d, &reference, "primary");
	mem_disk_free(&d);
	mem_disk_free(&reference);
}

TEST(gpt_repair_both_bad_writes_nothing)
{
	struct mem_disk d;

	make_disk(&d, 512, BLOCKS);
	memset(mem_disk_block(&d, 1), 0, 512);
	mem_disk_block(&d, LAST)[20] ^= 1;
	expect_untouched(&d, EFI_NOT_FOUND, EFI_SUCCESS);
	EXPECT(table.primary_problem && table.backup_problem);
	mem_disk_free(&d);
}

/* Issue 10: the primary header is CRC-valid, but its array lies nine blocks before where
 * the backup's goes (the usable area shrunk to leave room), and the backup header is
 * gone. Copying that array to the backup's place overwrote the array being copied. */
TEST(gpt_repair_hostile_primary_over_the_backup_array)
{
	struct mem_disk d;
	EFI_PARTITION_TABLE_HEADER *h;
	UINT64 moved = LAST - 32 - 9;

	make_disk(&d, 512, BLOCKS);
	memcpy(mem_disk_block(&d, moved), mem_disk_block(&d, 2), 32 * 512);
	h = gpt_header(&d, 1);
	h->PartitionEntryLBA = moved;
	h->LastUsableLBA = moved - 1;
	gpt_fix_header_crc(&d, 1);
	memset(mem_disk_block(&d, LAST), 0, 512);
	expect_untouched(&d, EFI_NOT_FOUND, EFI_SUCCESS);
	EXPECT(table.primary_problem && strstr(table.primary_problem, "partition entry array"));
	EXPECT(!table.primary_valid && !table.backup_valid);

	/* Even when a caller says that header is the valid one, it is no repair source. */
	table.scheme = PART_SCHEME_GPT;
	table.primary_valid = true;
	table.header = *h;
	{
		struct part_disk view = mem_disk_view(&d);
		d.writes = 0;
		EXPECT_STATUS(part_gpt_repair(&view, &table, NULL), EFI_UNSUPPORTED);
		EXPECT_EQ(d.writes, 0);
	}
	mem_disk_free(&d);
}

/* No primary, and a backup naming a block of the primary's array as its alternate: the
 * restored header would have been written over the restored array. */
TEST(gpt_repair_backup_with_bad_alternate_is_no_source)
{
	struct mem_disk d;

	make_disk(&d, 512, BLOCKS);
	memset(mem_disk_block(&d, 1), 0, 512);
	gpt_header(&d, LAST)->AlternateLBA = 5;
	gpt_fix_header_crc(&d, LAST);
	expect_untouched(&d, EFI_NOT_FOUND, EFI_SUCCESS);
	EXPECT(table.backup_problem && strstr(table.backup_problem, "AlternateLBA"));
	mem_disk_free(&d);
}

/* The disk grew: the backup belongs on the last block (5.3.2), not where the primary
 * says, and moving it means rewriting the primary too. That is left to partitioning
 * tools. */
TEST(gpt_repair_backup_not_on_the_last_block)
{
	struct mem_disk d, grown;

	make_disk(&d, 512, BLOCKS);
	mem_disk_block(&d, LAST)[20] ^= 1;
	mem_disk_init(&grown, 2 * BLOCKS, 512);
	memcpy(grown.data, d.data, d.size);
	expect_untouched(&grown, EFI_SUCCESS, EFI_UNSUPPORTED);
	EXPECT(table.primary_valid && !table.backup_valid);
	mem_disk_free(&grown);
	mem_disk_free(&d);
}

TEST(gpt_repair_needs_a_writable_disk)
{
	struct mem_disk d;
	struct part_disk view;

	make_disk(&d, 512, BLOCKS);
	memset(mem_disk_block(&d, 1), 0, 512);
	d.read_only = true;
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	EXPECT_STATUS(part_gpt_repair(&view, &table, NULL), EFI_WRITE_PROTECTED);
	EXPECT(mem_is_zero(mem_disk_block(&d, 1), 512));
	view.write = NULL;
	d.writes = 0;
	EXPECT_STATUS(part_gpt_repair(&view, &table, NULL), EFI_UNSUPPORTED);
	EXPECT_EQ(d.writes, 0);
	mem_disk_free(&d);
}

/* The array is read again to be copied: if it is not the array checked, the header that
 * would make the copy valid is not written. */
TEST(gpt_repair_array_changed_since_the_parse)
{
	struct mem_disk d;
	struct part_disk view;
	UINT8 backup_header[512];

	make_disk(&d, 512, BLOCKS);
	mem_disk_block(&d, LAST)[20] ^= 1;
	memcpy(backup_header, mem_disk_block(&d, LAST), 512);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
	mem_disk_block(&d, 2)[40] ^= 1;
	EXPECT_STATUS(part_gpt_repair(&view, &table, NULL), EFI_CRC_ERROR);
	EXPECT(!memcmp(mem_disk_block(&d, LAST), backup_header, 512));
	mem_disk_free(&d);
}

static struct part_disk failing_inner;
static UINTN writes_left;

static EFI_STATUS failing_write(void *ctx, UINT64 offset, UINTN size, const void *buffer)
{
	if (!writes_left)
		return EFI_DEVICE_ERROR;
	writes_left--;
	return failing_inner.write(ctx, offset, size, buffer);
}

/* A write failing half-way leaves the damaged copy's header unwritten: still damaged,
 * never pointing at half an array. */
TEST(gpt_repair_write_failure_leaves_the_copy_invalid)
{
	struct mem_disk d;
	struct part_disk view;

	for (UINTN allowed = 0; allowed < 5; allowed++) {
		make_disk(&d, 512, BLOCKS);
		memset(mem_disk_block(&d, 1), 0, 512);
		failing_inner = mem_disk_view(&d);
		view = failing_inner;
		view.write = failing_write;
		writes_left = allowed;
		EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
		/* 16 KiB of array in 4 KiB pieces, then the header. */
		EXPECT_STATUS(part_gpt_repair(&view, &table, NULL), EFI_DEVICE_ERROR);
		EXPECT(mem_is_zero(mem_disk_block(&d, 1), 512));
		EXPECT_STATUS(part_parse_gpt(&view, &table), EFI_SUCCESS);
		EXPECT(!table.primary_valid && table.backup_valid);
		mem_disk_free(&d);
	}
}
