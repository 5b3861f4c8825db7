/* The El Torito parser (drivers/partition/eltorito.c) on ISO 9660 volumes built in memory. */
#include <string.h>

#include "support/test.h"
#include "disk_builder.h"

#define SECTORS 2000
#define PLATFORM_X86 0x00
#define PLATFORM_EFI 0xef
#define BOOTABLE 0x88

static struct part_table table;

static EFI_STATUS parse(struct mem_disk *d)
{
	struct part_disk view = mem_disk_view(d);

	return part_parse_eltorito(&view, &table);
}

/* BIOS default entry, then a final section for EFI with one no-emulation image. */
TEST(eltorito_efi_section_entry)
{
	struct mem_disk d;
	const struct part_entry *e;

	mem_disk_init(&d, SECTORS, 2048);
	iso_write(&d, PLATFORM_X86, true);
	iso_entry(&d, 1, BOOTABLE, 0, 4, 30);
	iso_section_header(&d, 2, true, PLATFORM_EFI, 1);
	iso_entry(&d, 3, BOOTABLE, 0, 2880, 40); /* 1.44 MB: 720 CD sectors */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.scheme, PART_SCHEME_ELTORITO);
	ASSERT_EQ(table.count, 1);
	e = &table.entries[0];
	EXPECT_EQ(e->start, 40);
	EXPECT_EQ(e->blocks, 720);
	EXPECT(e->system);
	EXPECT_EQ(e->node.header.Type, MEDIA_DEVICE_PATH);
	EXPECT_EQ(e->node.header.SubType, MEDIA_CDROM_DP);
	EXPECT_EQ(e->node.header.Length[0], sizeof(CDROM_DEVICE_PATH));
	EXPECT_EQ(e->node.cd.BootEntry, 1);
	EXPECT_EQ(e->node.cd.PartitionStart, 40);
	EXPECT_EQ(e->node.cd.PartitionSize, 720);
	EXPECT_EQ(e->info.Type, PARTITION_TYPE_OTHER);
	EXPECT_EQ(e->info.System, 1);
	mem_disk_free(&d);
}

TEST(eltorito_efi_default_entry)
{
	struct mem_disk d;

	mem_disk_init(&d, SECTORS, 2048);
	iso_write(&d, PLATFORM_EFI, true);
	iso_entry(&d, 1, BOOTABLE, 0, 5, 30); /* 5 virtual sectors round up to 1 CD sector */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	ASSERT_EQ(table.count, 1);
	EXPECT_EQ(table.entries[0].node.cd.BootEntry, 0);
	EXPECT_EQ(table.entries[0].blocks, 2);
	mem_disk_free(&d);
}

TEST(eltorito_sizes)
{
	struct mem_disk d;

	mem_disk_init(&d, SECTORS, 2048);
	iso_write(&d, PLATFORM_EFI, true);
	iso_entry(&d, 1, BOOTABLE, 0, 1, 100); /* size unknown: up to the end of the medium */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	ASSERT_EQ(table.count, 1);
	EXPECT_EQ(table.entries[0].blocks, SECTORS - 100);
	iso_entry(&d, 1, BOOTABLE, 2, 0, 100); /* 1.44 MB floppy emulation */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.entries[0].blocks, 720);
	iso_entry(&d, 1, BOOTABLE, 0, 40000, 1900); /* runs past the end: clipped */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.entries[0].blocks, 100);
	iso_entry(&d, 1, BOOTABLE, 0, 4, SECTORS); /* starts past the end */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 0);
	EXPECT_EQ(table.skipped, 1);
	mem_disk_free(&d);
}

TEST(eltorito_numbering_over_sections_and_extensions)
{
	struct mem_disk d;

	mem_disk_init(&d, SECTORS, 2048);
	iso_write(&d, PLATFORM_X86, true);
	iso_entry(&d, 1, BOOTABLE, 0, 4, 30); /* entry 0 (BIOS) */
	iso_section_header(&d, 2, false, PLATFORM_X86, 1);
	iso_entry(&d, 3, BOOTABLE, 0, 4, 31); /* entry 1 (BIOS) */
	iso_entry(&d, 4, 0x44, 0, 0, 0);      /* an extension of entry 1 */
	iso_section_header(&d, 5, true, PLATFORM_EFI, 2);
	iso_entry(&d, 6, 0x00, 0, 4, 50);     /* entry 2: not bootable */
	iso_entry(&d, 7, BOOTABLE, 0, 8, 60); /* entry 3 */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	ASSERT_EQ(table.count, 1);
	EXPECT_EQ(table.entries[0].node.cd.BootEntry, 3);
	EXPECT_EQ(table.entries[0].start, 60);
	EXPECT_EQ(table.entries[0].blocks, 2);
	mem_disk_free(&d);
}

TEST(eltorito_not_an_efi_cd)
{
	struct mem_disk d;
	struct part_disk view;

	mem_disk_init(&d, SECTORS, 2048);
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND); /* not ISO 9660 */
	iso_write(&d, PLATFORM_X86, false);
	/* ISO 9660 without a boot record: a table with nothing in it, so that an isohybrid
	 * MBR (counting 512-byte sectors) is not misread on the CD. */
	mbr_set(&d, 0, 0, EFI_PARTITION, 64, 100);
	view = mem_disk_view(&d);
	EXPECT_STATUS(part_parse(&view, &table), EFI_SUCCESS);
	EXPECT_EQ(table.scheme, PART_SCHEME_ELTORITO);
	EXPECT_EQ(table.count, 0);
	iso_write(&d, PLATFORM_X86, true);
	iso_entry(&d, 1, BOOTABLE, 0, 4, 30); /* BIOS only */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 0);
	EXPECT(table.problem && strstr(table.problem, "no EFI boot image"));
	mem_disk_block(&d, ISO_CATALOG_SECTOR)[28] ^= 1; /* checksum */
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 0);
	EXPECT(table.problem && strstr(table.problem, "catalogue"));
	mem_disk_free(&d);
}

TEST(eltorito_only_on_cd_blocks)
{
	struct mem_disk d;

	mem_disk_init(&d, SECTORS * 4, 512);
	memcpy(d.data + 16 * 2048,
	       "\x01"
	       "CD001\x01",
	       7);
	EXPECT_STATUS(parse(&d), EFI_NOT_FOUND);
	mem_disk_free(&d);
}

TEST(eltorito_catalogue_outside_disk)
{
	struct mem_disk d;

	mem_disk_init(&d, 30, 2048);
	iso_write(&d, PLATFORM_EFI, true);
	memcpy(mem_disk_block(&d, 17) + 0x47, "\xff\xff\x00\x00", 4);
	EXPECT_STATUS(parse(&d), EFI_SUCCESS);
	EXPECT_EQ(table.count, 0);
	mem_disk_free(&d);
}
