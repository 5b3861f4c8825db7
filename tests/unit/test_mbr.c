/* The legacy MBR parser (drivers/partition/mbr.c): primary records, EBR chains, and the
 * checks that keep boot sectors and broken tables from becoming partitions. */
#include <string.h>

#include "support/test.h"
#include "disk_builder.h"

#define BLOCKS 20000

static struct part_table table;

static EFI_STATUS parse(struct mem_disk *d)
{
	struct part_disk view = mem_disk_view(d);

	return part_parse_mbr(&view, &table);
}

TEST(mbr_primary_partitions)
{
	struct mem_disk d;
	const MBR_PARTITION_RECORD *r;

	mem_disk_init(&d, BLOCKS, 512);
	mbr_set(&d, 0, 0, EFI_PARTITION, 2048, 4096);
	mbr_set(&d, 0, 2, 0x83, 8192, 1000);
	mbr_set_signature(&d, 0xdeadbeef);
	mem_disk_block(&d, 0)[446] = 0x80;
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	ASSERT_EQ(table.count, 2);
	EXPECT_EQ(table.scheme, PART_SCHEME_MBR);
	EXPECT_EQ(table.entries[0].start, 2048);
	EXPECT_EQ(table.entries[0].blocks, 4096);
	EXPECT(table.entries[0].system);
	EXPECT_EQ(table.entries[0].info.System, 1);
	EXPECT_EQ(table.entries[0].info.Type, PARTITION_TYPE_MBR);
	EXPECT_EQ(table.entries[0].info.Info.Mbr.BootIndicator, 0x80);
	EXPECT(!table.entries[1].system);
	EXPECT_EQ(table.entries[1].node.hd.PartitionNumber, 3);
	EXPECT_EQ(table.entries[1].node.hd.PartitionStart, 8192);
	EXPECT_EQ(table.entries[1].node.hd.PartitionSize, 1000);
	EXPECT_EQ(table.entries[1].node.hd.MBRType, MBR_TYPE_PCAT);
	EXPECT_EQ(table.entries[1].node.hd.SignatureType, SIGNATURE_TYPE_MBR);
	EXPECT_EQ(table.entries[1].node.hd.Signature[0], 0xef);
	EXPECT_EQ(table.entries[1].node.hd.Signature[3], 0xde);
	EXPECT_EQ(table.entries[1].node.hd.Signature[4], 0);
	r = &table.entries[1].info.Info.Mbr;
	EXPECT_EQ(r->OSIndicator, 0x83);
	mem_disk_free(&d);
}

/* An extended partition at 10000 with three logical partitions, each EBR pointing at
 * the next (links relative to the extended partition, logicals to their EBR). */
static void make_logicals(struct mem_disk *d)
{
	mem_disk_init(d, BLOCKS, 512);
	mbr_set(d, 0, 0, 0x0c, 2048, 2048);
	mbr_set(d, 0, 1, EXTENDED_DOS_PARTITION, 10000, 9000);
	mbr_set(d, 10000, 0, 0x83, 63, 937);
	mbr_set(d, 10000, 1, EXTENDED_DOS_PARTITION, 1000, 2000);
	mbr_set(d, 11000, 0, 0x07, 1, 999);
	mbr_set(d, 11000, 1, EXTENDED_WINDOWS_PARTITION, 3000, 2000);
	mbr_set(d, 13000, 0, EFI_PARTITION, 2048, 2000);
}

TEST(mbr_logical_partitions)
{
	struct mem_disk d;

	make_logicals(&d);
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	ASSERT_EQ(table.count, 4);
	EXPECT_EQ(table.entries[0].node.hd.PartitionNumber, 1);
	EXPECT_EQ(table.entries[1].node.hd.PartitionNumber, 5);
	EXPECT_EQ(table.entries[1].start, 10063);
	EXPECT_EQ(table.entries[1].blocks, 937);
	EXPECT_EQ(table.entries[2].node.hd.PartitionNumber, 6);
	EXPECT_EQ(table.entries[2].start, 11001);
	EXPECT_EQ(table.entries[3].node.hd.PartitionNumber, 7);
	EXPECT_EQ(table.entries[3].start, 15048);
	EXPECT(table.entries[3].system);
	/* PartitionInfo says where a logical partition is on the disk. */
	EXPECT_EQ(table.entries[3].info.Info.Mbr.StartingLBA[0], 15048 & 0xff);
	EXPECT_EQ(table.entries[3].info.Info.Mbr.StartingLBA[1], 15048 >> 8);
	mem_disk_free(&d);
}

TEST(mbr_ebr_loop_ends)
{
	struct mem_disk d;

	make_logicals(&d);
	/* The third EBR links back to the second: followed once, no duplicates. */
	mbr_set(&d, 13000, 1, EXTENDED_DOS_PARTITION, 1000, 2000);
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 4);
	/* A link to itself. */
	mbr_set(&d, 10000, 1, EXTENDED_DOS_PARTITION, 0, 2000);
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 2);
	mem_disk_free(&d);
}

TEST(mbr_logical_outside_extended_is_skipped)
{
	struct mem_disk d;

	make_logicals(&d);
	mbr_set(&d, 11000, 0, 0x07, 1, 8500); /* runs past the extended partition's end */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 3);
	EXPECT_EQ(table.skipped, 1);
	EXPECT_EQ(table.entries[2].node.hd.PartitionNumber, 6);
	mem_disk_free(&d);
}

TEST(mbr_invalid_tables)
{
	struct mem_disk d;

	mem_disk_init(&d, BLOCKS, 512);
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND); /* no 55 AA */
	mbr_set(&d, 0, 0, 0, 0, 0);
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND); /* a boot sector with an empty table */
	EXPECT(table.problem != NULL);
	mbr_set(&d, 0, 0, 0x83, 100, BLOCKS); /* past the end of the disk */
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND);
	mbr_set(&d, 0, 0, 0x83, 0, 100); /* over the MBR itself */
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND);
	mbr_set(&d, 0, 0, 0x83, 100, 100);
	mbr_set(&d, 0, 1, 0x83, 150, 100); /* overlapping */
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND);
	mbr_set(&d, 0, 1, 0x83, 200, 100);
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	mem_disk_block(&d, 0)[446] = 0x12; /* boot indicator: a FAT boot sector's code */
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND);
	mem_disk_block(&d, 0)[446] = 0;
	mbr_set(&d, 0, 3, PMBR_GPT_PARTITION, 1, BLOCKS - 1);
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND);
	EXPECT(table.problem && strstr(table.problem, "protective"));
	mem_disk_free(&d);
}

TEST(mbr_through_part_parse)
{
	struct mem_disk d;
	struct part_disk view;

	make_logicals(&d);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse(&view, &table), EFI_SUCCESS);
	EXPECT_EQ(table.scheme, PART_SCHEME_MBR);
	EXPECT_EQ(table.count, 4);
	mem_disk_free(&d);
}

/* The EBR chain ends at an EBR without the 55 AA signature; what came before it stays. */
TEST(mbr_ebr_without_signature_ends_the_chain)
{
	struct mem_disk d;

	make_logicals(&d);
	mem_disk_block(&d, 13000)[510] = 0;
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 3);
	EXPECT_EQ(table.entries[2].node.hd.PartitionNumber, 6);
	mem_disk_free(&d);
}

/* Read errors are the parse's errors: the MBR (read 1) and each EBR (reads 2 to 4). */
TEST(mbr_read_errors)
{
	struct mem_disk d;

	make_logicals(&d);
	for (UINTN k = 1; k <= 4; k++) {
		d.reads = 0;
		d.fail_read = k;
		EXPECT_STATUS(parse(&d), EFI_DEVICE_ERROR);
	}
	d.reads = 0;
	d.fail_read = 5;
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 4);
	mem_disk_free(&d);
}
