/* The parsers of SCSI answers and the READ/WRITE builder (drivers/scsi/scsi_data.c): sense
 * data in both formats and cut short, INQUIRY bounded by its additional length, REPORT
 * LUNS with the addressing methods Ember takes and those it skips, READ CAPACITY block
 * sizes and topology, the WP bit, and where (10) stops and (16) starts. */
#include <string.h>

#include "support/test.h"
#include "../../drivers/scsi/scsi_data.h"

TEST(scsi_data_sense_formats)
{
	UINT8 fixed[18] = {0xf0, 0, 0x06, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x28, 0x01};
	UINT8 desc[8] = {0x72, 0x02, 0x3a, 0x02};
	struct scsi_sense s;

	ASSERT(scsi_data_sense(fixed, sizeof(fixed), &s)); /* the VALID bit is ignored */
	EXPECT_EQ(s.key, 6);
	EXPECT_EQ(s.asc, 0x28);
	EXPECT_EQ(s.ascq, 1);
	ASSERT(scsi_data_sense(desc, sizeof(desc), &s));
	EXPECT_EQ(s.key, 2);
	EXPECT_EQ(s.asc, 0x3a);
	EXPECT_EQ(s.ascq, 2);
	/* The additional length does not cover the ASC: only the key counts. */
	fixed[7] = 4;
	ASSERT(scsi_data_sense(fixed, sizeof(fixed), &s));
	EXPECT_EQ(s.key, 6);
	EXPECT_EQ(s.asc, 0);
	/* Cut before the ASC by the transfer. */
	fixed[7] = 10;
	ASSERT(scsi_data_sense(fixed, 8, &s));
	EXPECT_EQ(s.asc, 0);
	EXPECT(!scsi_data_sense(fixed, 2, &s));
	EXPECT(!scsi_data_sense(desc, 3, &s));
	EXPECT(!scsi_data_sense(fixed, 0, &s));
	fixed[0] = 0x00;
	EXPECT(!scsi_data_sense(fixed, sizeof(fixed), &s));
}

TEST(scsi_data_inquiry_bounds)
{
	UINT8 d[96] = {0x85, 0x80, 5, 2, 31};
	struct scsi_inquiry inq;

	memcpy(d + 8, "QEMU    QEMU HARD\x01ISK   2.5+", 28);
	ASSERT(scsi_data_inquiry(d, sizeof(d), &inq));
	EXPECT_EQ(inq.qualifier, 4);
	EXPECT_EQ(inq.type, 5);
	EXPECT(inq.removable);
	EXPECT(strcmp(inq.vendor, "QEMU") == 0);
	EXPECT(strcmp(inq.product, "QEMU HARD?ISK") == 0);
	EXPECT(strcmp(inq.revision, "2.5+") == 0);
	/* The device filled less than the identification. */
	d[4] = 20;
	ASSERT(scsi_data_inquiry(d, sizeof(d), &inq));
	EXPECT_EQ(inq.vendor[0], 0);
	ASSERT(scsi_data_inquiry(d, 5, &inq));
	EXPECT(!scsi_data_inquiry(d, 4, &inq));
}

TEST(scsi_data_report_luns_addressing)
{
	UINT8 d[8 + 8 * 6] = {0, 0, 0, 48};
	UINT16 luns[8];
	UINTN count;

	d[8 + 1] = 0;		    /* peripheral LUN 0 */
	d[16] = 0x40, d[17] = 0x2c; /* flat LUN 44 */
	d[24] = 0x01, d[25] = 3;    /* peripheral, bus 1: skipped */
	d[33] = 7, d[34] = 1;	    /* second level: skipped */
	d[40] = 0x40, d[41] = 0x2c; /* LUN 44 again */
	d[48] = 0x43, d[49] = 0x00; /* flat LUN 768: above max_lun */
	ASSERT(scsi_data_report_luns(d, sizeof(d), 255, luns, 8, &count));
	ASSERT_EQ(count, 2);
	EXPECT_EQ(luns[0], 0);
	EXPECT_EQ(luns[1], 44);
	/* Room for one. */
	ASSERT(scsi_data_report_luns(d, sizeof(d), 255, luns, 1, &count));
	EXPECT_EQ(count, 1);
	/* A list longer than what arrived is read as far as it arrived. */
	d[3] = 0x80;
	ASSERT(scsi_data_report_luns(d, 24, 1000, luns, 8, &count));
	EXPECT_EQ(count, 2);
	d[3] = 12;
	EXPECT(!scsi_data_report_luns(d, sizeof(d), 255, luns, 8, &count));
	EXPECT_EQ(count, 0);
	EXPECT(!scsi_data_report_luns(d, 7, 255, luns, 8, &count));
}

TEST(scsi_data_capacity_sizes)
{
	UINT8 c10[8] = {0, 0, 0xff, 0xff, 0, 0, 0x08, 0};
	UINT8 c16[32] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 3, 0, 5};
	struct scsi_capacity cap;

	ASSERT(scsi_data_capacity_10(c10, 8, &cap));
	EXPECT_EQ(cap.last_lba, 0xffff);
	EXPECT_EQ(cap.block_size, 2048);
	EXPECT(!scsi_data_capacity_10(c10, 7, &cap));
	c10[6] = 0x02, c10[7] = 0x08; /* 520 bytes */
	EXPECT(!scsi_data_capacity_10(c10, 8, &cap));
	c10[6] = 0, c10[7] = 0;
	EXPECT(!scsi_data_capacity_10(c10, 8, &cap));
	ASSERT(scsi_data_capacity_16(c16, 32, &cap));
	EXPECT_EQ(cap.last_lba, 0x100000000ULL);
	EXPECT_EQ(cap.block_size, 4096);
	EXPECT_EQ(cap.blocks_per_physical, 8);
	EXPECT_EQ(cap.lowest_aligned, 5);
	ASSERT(scsi_data_capacity_16(c16, 12, &cap));
	EXPECT_EQ(cap.blocks_per_physical, 1);
	c16[13] = 15; /* 2^15 logical blocks per physical one: not believed */
	ASSERT(scsi_data_capacity_16(c16, 32, &cap));
	EXPECT_EQ(cap.blocks_per_physical, 1);
	memset(c16, 0xff, 8);
	EXPECT(!scsi_data_capacity_16(c16, 32, &cap));
	EXPECT(!scsi_data_capacity_16(c16, 11, &cap));
}

TEST(scsi_data_write_protect_and_commands)
{
	UINT8 header[4] = {3, 0, 0x80, 0}, cdb[16];

	EXPECT(scsi_data_write_protected(header, 4));
	EXPECT(!scsi_data_write_protected(header, 3));
	header[2] = 0x10;
	EXPECT(!scsi_data_write_protected(header, 4));
	EXPECT_EQ(scsi_cdb_read_write(cdb, false, 0xfffffff0ULL, 16), 10);
	EXPECT_EQ(cdb[0], 0x28);
	EXPECT_EQ(scsi_be32(cdb + 2), 0xfffffff0ULL);
	EXPECT_EQ(cdb[8], 16);
	EXPECT_EQ(scsi_cdb_read_write(cdb, true, 0xfffffff0ULL, 17), 16);
	EXPECT_EQ(cdb[0], 0x8a);
	EXPECT_EQ(scsi_be32(cdb + 6), 0xfffffff0ULL);
	EXPECT_EQ(scsi_be32(cdb + 10), 17);
	EXPECT_EQ(scsi_cdb_read_write(cdb, false, 0, 0x10000), 16);
}
