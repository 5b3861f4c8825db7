/* The SCSI disk driver (drivers/scsi/scsi_disk_*.c) over a fake channel: media from READ
 * CAPACITY (10) and (16), reads and writes with (10) and (16) commands cut to what the
 * channel moves, flush, write protection, DiskInfo, and the sense handling: unit
 * attentions, a unit becoming ready and a busy channel retried, a medium error reported,
 * a removable medium swapped, ejected and inserted. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fake_scsi_pass_thru.h"
#include "scsi_test_util.h"
#include <efi/protocol/disk_info.h>
#include <ember/core/core.h>
#include <ember/lib/guids.h>

#define DISK u"PciRoot(0x0)/Pci(0x3,0x0)/Scsi(0x0,0x0)"
#define BLOCKS 4096

static struct fake_scsi_pt *pt;
static struct fake_scsi_lu *lu;

static EFI_BLOCK_IO_PROTOCOL *start(UINT8 type, UINT32 block_size, UINT64 blocks)
{
	pt = fake_scsi_pt_create();
	lu = fake_scsi_add(&pt->scsi, 0, 0, type, block_size, blocks);
	driver_connect(pt->handle, NULL, NULL, true);
	return scsi_test_protocol(DISK, &efi_block_io_protocol_guid);
}

static void finish(void)
{
	EXPECT_EQ(pt->misaligned, 0);
	fake_scsi_pt_destroy(pt);
	EXPECT(scsi_test_handle(DISK) == NULL);
}

static EFI_BLOCK_IO_PROTOCOL *block_io(void)
{
	return scsi_test_protocol(DISK, &efi_block_io_protocol_guid);
}

TEST(scsi_disk_reads_writes_and_flushes)
{
	EFI_BLOCK_IO_PROTOCOL *bio = start(0, 512, BLOCKS);
	UINT8 *buf = aligned_alloc(64, 8192);

	ASSERT(bio != NULL);
	EXPECT(bio->Media->MediaPresent);
	EXPECT(!bio->Media->RemovableMedia && !bio->Media->ReadOnly);
	EXPECT_EQ(bio->Media->LastBlock, BLOCKS - 1);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_EQ(bio->Media->IoAlign, 4);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 10, 8192, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, lu->seed, 10 * 512, 8192));
	EXPECT_EQ(lu->last_op, 0x28);
	memset(buf, 0x5a, 1024);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 100, 1024, buf), EFI_SUCCESS);
	EXPECT(lu->medium[100 * 512] == 0x5a && lu->medium[101 * 512 + 511] == 0x5a);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(lu->syncs, 1);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, BLOCKS, 512, buf),
		      EFI_INVALID_PARAMETER);
	free(buf);
	finish();
}

TEST(scsi_disk_disk_info)
{
	EFI_DISK_INFO_PROTOCOL *info;
	UINT8 data[96];
	UINT32 size = 8;
	UINT32 a, b;

	ASSERT(start(0, 512, 64) != NULL);
	info = scsi_test_protocol(DISK, &efi_disk_info_protocol_guid);
	ASSERT(info != NULL);
	EXPECT(memcmp(&info->Interface, &efi_disk_info_scsi_interface_guid, sizeof(EFI_GUID)) == 0);
	EXPECT_STATUS(info->Inquiry(info, data, &size), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 96);
	EXPECT_STATUS(info->Inquiry(info, data, &size), EFI_SUCCESS);
	EXPECT(memcmp(data + 8, "EMBER", 5) == 0);
	EXPECT_STATUS(info->Inquiry(info, data, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(info->Identify(info, data, &size), EFI_NOT_FOUND);
	EXPECT_STATUS(info->WhichIde(info, &a, &b), EFI_UNSUPPORTED);
	finish();
}

TEST(scsi_disk_large_disk_uses_16_byte_commands)
{
	UINT64 blocks = 0x100000100ULL; /* beyond what (10) can address */
	EFI_BLOCK_IO_PROTOCOL *bio = start(0, 512, blocks);
	UINT8 *buf = aligned_alloc(64, 4096);

	ASSERT(bio != NULL);
	EXPECT_EQ(lu->cap10, 1);
	EXPECT_EQ(lu->cap16, 1);
	EXPECT_EQ(bio->Media->LastBlock, blocks - 1);
	EXPECT_EQ(bio->Media->LogicalBlocksPerPhysicalBlock, 8);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, blocks - 8, 4096, buf),
		      EFI_SUCCESS);
	EXPECT_EQ(lu->last_op, 0x88);
	EXPECT(scsi_test_holds(buf, lu->seed, (blocks - 8) * 512, 4096));
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 8, 4096, buf), EFI_SUCCESS);
	EXPECT_EQ(lu->last_op, 0x28);
	free(buf);
	finish();
}

TEST(scsi_disk_cuts_transfers_to_the_channel)
{
	EFI_BLOCK_IO_PROTOCOL *bio = start(0, 512, BLOCKS);
	UINT8 *buf = aligned_alloc(64, 65536);
	UINTN before;

	ASSERT(bio != NULL);
	before = lu->reads; /* the partition driver has had its look */
	pt->max_transfer = 4096;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 65536, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, lu->seed, 0, 65536));
	EXPECT_EQ(lu->last_transfer_blocks, 8);
	EXPECT_EQ(lu->reads - before, 16);
	free(buf);
	finish();
}

TEST(scsi_disk_retries_unit_attention_not_ready_and_busy)
{
	EFI_BLOCK_IO_PROTOCOL *bio = start(0, 512, BLOCKS);
	UINT8 *buf = aligned_alloc(64, 512);

	ASSERT(bio != NULL);
	lu->sense_count = 2;
	lu->sense_key = 0x6; /* UNIT ATTENTION: power on or reset */
	lu->sense_asc = 0x29;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 512, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, lu->seed, 512, 512));
	pt->scsi.descriptor_sense = true;
	lu->sense_count = 1;
	lu->not_ready_count = 2; /* LOGICAL UNIT IS IN PROCESS OF BECOMING READY */
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 2, 512, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, lu->seed, 1024, 512));
	pt->busy_count = 3;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(pt->busy_count, 0);
	/* A unit attention that never ends is not retried for ever. */
	lu->sense_count = 100;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, 512, buf), EFI_DEVICE_ERROR);
	EXPECT(lu->sense_count > 80);
	free(buf);
	finish();
}

TEST(scsi_disk_reports_medium_errors_and_write_protection)
{
	EFI_BLOCK_IO_PROTOCOL *bio = start(0, 512, BLOCKS);
	UINT8 *buf = aligned_alloc(64, 512);

	ASSERT(bio != NULL);
	lu->sense_count = 1;
	lu->sense_key = 0x3; /* MEDIUM ERROR */
	lu->sense_asc = 0x11;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 512, buf), EFI_DEVICE_ERROR);
	EXPECT_EQ(lu->sense_count, 0); /* not retried */
	lu->write_protected = true;
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 1, 512, buf), EFI_WRITE_PROTECTED);
	free(buf);
	finish();
	/* Write protection read from MODE SENSE when the disk starts. */
	pt = fake_scsi_pt_create();
	lu = fake_scsi_add(&pt->scsi, 0, 0, 0, 512, 64);
	lu->write_protected = true;
	driver_connect(pt->handle, NULL, NULL, true);
	bio = block_io();
	ASSERT(bio != NULL);
	EXPECT(bio->Media->ReadOnly);
	finish();
}

TEST(scsi_disk_removable_media_change)
{
	EFI_BLOCK_IO_PROTOCOL *bio = start(5, 2048, 64);
	UINT8 *buf = aligned_alloc(64, 2048);
	UINT32 id;

	ASSERT(bio != NULL);
	EXPECT(bio->Media->RemovableMedia && bio->Media->ReadOnly && bio->Media->MediaPresent);
	EXPECT_EQ(bio->Media->BlockSize, 2048);
	id = bio->Media->MediaId;
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 1, 2048, buf), EFI_SUCCESS);
	/* Swapped: the read that meets the unit attention says so; the media is the new one. */
	fake_scsi_change_medium(lu, 32, 9);
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 1, 2048, buf), EFI_MEDIA_CHANGED);
	bio = block_io();
	ASSERT(bio != NULL);
	EXPECT(bio->Media->MediaId != id);
	EXPECT_EQ(bio->Media->LastBlock, 31);
	id = bio->Media->MediaId;
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 1, 2048, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, 9, 2048, 2048));
	/* Ejected. */
	fake_scsi_change_medium(lu, 0, 0);
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 1, 2048, buf), EFI_NO_MEDIA);
	bio = block_io();
	EXPECT(!bio->Media->MediaPresent);
	/* Inserted into the empty drive: seen before the next request. */
	fake_scsi_change_medium(lu, 16, 4);
	id = bio->Media->MediaId;
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 1, 2048, buf), EFI_MEDIA_CHANGED);
	bio = block_io();
	EXPECT(bio->Media->MediaPresent);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 2048, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, 4, 2048, 2048));
	free(buf);
	finish();
}

TEST(scsi_disk_empty_drive_and_other_types)
{
	EFI_BLOCK_IO_PROTOCOL *bio = start(5, 2048, 0);

	ASSERT(bio != NULL); /* a drive without a disc still gets BlockIo */
	EXPECT(!bio->Media->MediaPresent);
	finish();
	/* A processor device is not a disk. */
	EXPECT(start(3, 512, 8) == NULL);
	EXPECT(scsi_test_handle(DISK) != NULL);
	finish();
}
