/* ATA and ATAPI command building (drivers/ata: ata_cmd.c, ata_identify.c, atapi.c): the
 * Register H2D FIS byte by byte, command choice at the 28/48-bit limits, IDENTIFY DEVICE
 * decoding, SCSI CDBs, sense data and READ CAPACITY answers. */
#include <string.h>

#include "support/test.h"
#include <ember/drivers/ata.h>

TEST(ata_fis_read_dma_ext)
{
	struct ata_command cmd;
	UINT8 fis[ATA_FIS_BYTES];
	const UINT8 want[ATA_FIS_BYTES] = {0x27, 0x80, 0x25, 0x00, 0xbc, 0x9a, 0x78,
					   0x40, 0x56, 0x34, 0x12, 0x00, 0x34, 0x12,
					   0x00, 0x00, 0,    0,	   0,	 0};

	ASSERT(ata_rw_command(&cmd, false, true, 0x123456789abcULL, 0x1234));
	memset(fis, 0xee, sizeof(fis));
	ata_encode_fis(fis, &cmd);
	EXPECT(!memcmp(fis, want, sizeof(want)));
}

TEST(ata_fis_write_dma_28bit_puts_high_lba_in_device)
{
	struct ata_command cmd;
	UINT8 fis[ATA_FIS_BYTES];

	ASSERT(ata_rw_command(&cmd, true, false, 0x0abcdef1, 256));
	ata_encode_fis(fis, &cmd);
	EXPECT_EQ(fis[2], ATA_CMD_WRITE_DMA);
	EXPECT_EQ(fis[4], 0xf1);
	EXPECT_EQ(fis[5], 0xde);
	EXPECT_EQ(fis[6], 0xbc);
	EXPECT_EQ(fis[7], 0x40 | 0x0a);
	EXPECT_EQ(fis[8], 0);
	EXPECT_EQ(fis[12], 0); /* 256 sectors are encoded as 0 */
}

TEST(ata_rw_command_limits)
{
	struct ata_command cmd;

	EXPECT(!ata_rw_command(&cmd, false, true, 0, 0));
	EXPECT(ata_rw_command(&cmd, false, true, 0, 65536));
	EXPECT_EQ(cmd.count, 0);
	EXPECT(!ata_rw_command(&cmd, false, true, 0, 65537));
	EXPECT(!ata_rw_command(&cmd, false, false, 0, 257));
	EXPECT(ata_rw_command(&cmd, false, false, (1u << 28) - 1, 1));
	EXPECT(!ata_rw_command(&cmd, false, false, (1u << 28) - 1, 2));
	EXPECT(!ata_rw_command(&cmd, false, true, (1ULL << 48) - 1, 2));
	ata_flush_command(&cmd, true);
	EXPECT_EQ(cmd.command, ATA_CMD_FLUSH_CACHE_EXT);
	ata_flush_command(&cmd, false);
	EXPECT_EQ(cmd.command, ATA_CMD_FLUSH_CACHE);
}

TEST(atapi_packet_fis)
{
	struct ata_command cmd;
	UINT8 fis[ATA_FIS_BYTES];

	atapi_packet_command(&cmd, true);
	ata_encode_fis(fis, &cmd);
	EXPECT_EQ(fis[0], 0x27);
	EXPECT_EQ(fis[1], 0x80);
	EXPECT_EQ(fis[2], 0xa0);
	EXPECT_EQ(fis[3], 0x01);	       /* DMA */
	EXPECT_EQ(fis[5] | fis[6] << 8, 2048); /* byte count limit */
}

static void put_string(UINT16 *id, UINT32 first, UINT32 words, const char *s)
{
	char padded[80];

	memset(padded, ' ', sizeof(padded));
	memcpy(padded, s, strlen(s));
	for (UINT32 i = 0; i < words; i++)
		id[first + i] = (UINT16)((UINT8)padded[2 * i] << 8 | (UINT8)padded[2 * i + 1]);
}

TEST(ata_identify_lba48_disk_with_4k_physical_sectors)
{
	UINT16 id[256] = {0};
	struct ata_disk_info info;

	id[49] = 1u << 9;
	id[60] = 0xffff;
	id[61] = 0x0fff;
	id[83] = 0x4000 | 1u << 10;
	id[85] = 1u << 5;
	id[87] = 0x4000;
	id[100] = 0x5678;
	id[101] = 0x1234;
	id[102] = 0x0001;
	id[106] = 0x4000 | 1u << 13 | 3; /* 8 logical per physical */
	id[209] = 0x4000 | 1;		 /* LBA 0 is the second logical sector of one */
	put_string(id, 27, 20, "QEMU HARDDISK");
	ASSERT_STATUS(ata_parse_identify(id, &info), EFI_SUCCESS);
	EXPECT(info.lba48);
	EXPECT_EQ(info.sectors, 0x000112345678ULL);
	EXPECT_EQ(info.sector_size, 512);
	EXPECT_EQ(info.logical_per_physical, 8);
	EXPECT_EQ(info.lowest_aligned, 7);
	EXPECT(info.write_cache);
	EXPECT(!strcmp(info.model, "QEMU HARDDISK"));
}

TEST(ata_identify_28bit_disk_and_long_sectors)
{
	UINT16 id[256] = {0};
	struct ata_disk_info info;

	id[49] = 1u << 9;
	id[60] = 0x1000;
	id[61] = 0x0001;
	id[106] = 0x4000 | 1u << 12;
	id[117] = 2048; /* words per logical sector: 4096 bytes */
	ASSERT_STATUS(ata_parse_identify(id, &info), EFI_SUCCESS);
	EXPECT(!info.lba48);
	EXPECT_EQ(info.sectors, 0x11000);
	EXPECT_EQ(info.sector_size, 4096);
	EXPECT_EQ(info.logical_per_physical, 1);
	EXPECT(!info.write_cache);
	/* Words whose validity bits are not 01 are ignored. */
	id[106] = 0xc000 | 1u << 12;
	ASSERT_STATUS(ata_parse_identify(id, &info), EFI_SUCCESS);
	EXPECT_EQ(info.sector_size, 512);
}

TEST(ata_identify_rejects_atapi_and_chs_only)
{
	UINT16 id[256] = {0};
	struct ata_disk_info info;

	id[0] = 0x8000;
	id[49] = 1u << 9;
	id[60] = 1;
	EXPECT_STATUS(ata_parse_identify(id, &info), EFI_DEVICE_ERROR);
	id[0] = 0;
	id[49] = 0;
	EXPECT_STATUS(ata_parse_identify(id, &info), EFI_UNSUPPORTED);
	id[49] = 1u << 9;
	id[60] = 0;
	EXPECT_STATUS(ata_parse_identify(id, &info), EFI_DEVICE_ERROR);
}

/* Words 117-118 are the device's word: a logical sector of 2^31 words once came out as 0
 * bytes (32-bit overflow), and anything above 64 KiB is no real disk's. */
TEST(ata_identify_refuses_huge_logical_sectors)
{
	UINT16 id[256] = {0};
	struct ata_disk_info info;

	id[49] = 1u << 9;
	id[60] = 0x1000;
	id[106] = 0x4000 | 1u << 12;
	id[118] = 0x8000; /* 2^31 words */
	EXPECT_STATUS(ata_parse_identify(id, &info), EFI_DEVICE_ERROR);
	id[118] = 0;
	id[117] = 0x8001; /* one word above 64 KiB */
	EXPECT_STATUS(ata_parse_identify(id, &info), EFI_DEVICE_ERROR);
	id[117] = 0x8000; /* 64 KiB */
	ASSERT_STATUS(ata_parse_identify(id, &info), EFI_SUCCESS);
	EXPECT_EQ(info.sector_size, 65536);
}

TEST(atapi_identify_packet_device)
{
	UINT16 id[256] = {0};

	id[0] = 0x85c0; /* ATAPI, CD-ROM, removable, 12-byte packets */
	EXPECT(atapi_parse_identify(id));
	id[0] = 0x8580; /* direct access */
	EXPECT(atapi_parse_identify(id));
	id[0] = 0x85c1; /* 16-byte packets */
	EXPECT(!atapi_parse_identify(id));
	id[0] = 0x81c0; /* sequential access (tape) */
	EXPECT(!atapi_parse_identify(id));
	id[0] = 0x0040; /* an ATA disk */
	EXPECT(!atapi_parse_identify(id));
}

TEST(ata_pio_commands)
{
	struct ata_command cmd;

	ASSERT(ata_pio_rw_command(&cmd, false, true, 0x123456789aULL, 65536));
	EXPECT_EQ(cmd.command, 0x24);
	EXPECT_EQ(cmd.count, 0);
	ASSERT(ata_pio_rw_command(&cmd, true, true, 1, 1));
	EXPECT_EQ(cmd.command, 0x34);
	ASSERT(ata_pio_rw_command(&cmd, false, false, 0x0abcdef1, 2));
	EXPECT_EQ(cmd.command, 0x20);
	EXPECT_EQ(cmd.device, 0x40 | 0x0a);
	ASSERT(ata_pio_rw_command(&cmd, true, false, 0, 256));
	EXPECT_EQ(cmd.command, 0x30);
	EXPECT(!ata_pio_rw_command(&cmd, true, false, 0, 257));
}

TEST(scsi_cdbs)
{
	UINT8 cdb[ATAPI_CDB_BYTES];
	const UINT8 read10[ATAPI_CDB_BYTES] = {0x28, 0,	   0x12, 0x34, 0x56, 0x78,
					       0,    0xab, 0xcd, 0,    0,    0};

	scsi_read_10(cdb, 0x12345678, 0xabcd);
	EXPECT(!memcmp(cdb, read10, sizeof(cdb)));
	scsi_request_sense(cdb);
	EXPECT_EQ(cdb[0], 0x03);
	EXPECT_EQ(cdb[4], 18);
	scsi_read_capacity_10(cdb);
	EXPECT_EQ(cdb[0], 0x25);
	scsi_test_unit_ready(cdb);
	EXPECT(cdb[0] == 0 && cdb[4] == 0);
}

TEST(scsi_sense_and_capacity)
{
	UINT8 sense_data[SCSI_SENSE_BYTES] = {0x70, 0, 0x02, 0, 0, 0,	 0,
					      10,   0, 0,    0, 0, 0x3a, 0x01};
	UINT8 capacity[8] = {0x00, 0x00, 0x12, 0x34, 0x00, 0x00, 0x08, 0x00};
	struct scsi_sense sense;
	UINT32 last, block;

	ASSERT(scsi_parse_sense(sense_data, &sense));
	EXPECT_EQ(sense.key, 2);
	EXPECT_EQ(sense.asc, 0x3a);
	EXPECT_EQ(sense.ascq, 1);
	EXPECT_STATUS(scsi_sense_status(&sense), EFI_NO_MEDIA);
	sense = (struct scsi_sense){SCSI_SENSE_UNIT_ATTENTION, SCSI_ASC_MEDIUM_CHANGED, 0};
	EXPECT_STATUS(scsi_sense_status(&sense), EFI_MEDIA_CHANGED);
	sense = (struct scsi_sense){SCSI_SENSE_NOT_READY, SCSI_ASC_BECOMING_READY, 1};
	EXPECT_STATUS(scsi_sense_status(&sense), EFI_NOT_READY);
	sense = (struct scsi_sense){SCSI_SENSE_MEDIUM_ERROR, 0x11, 0};
	EXPECT_STATUS(scsi_sense_status(&sense), EFI_DEVICE_ERROR);
	sense_data[0] = 0x72; /* descriptor format: not parsed */
	EXPECT(!scsi_parse_sense(sense_data, &sense));
	ASSERT(scsi_parse_capacity_10(capacity, &last, &block));
	EXPECT_EQ(last, 0x1234);
	EXPECT_EQ(block, 2048);
	capacity[6] = 0;
	EXPECT(!scsi_parse_capacity_10(capacity, &last, &block));
}
