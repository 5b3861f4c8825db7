/* A partition's BlockIo and BlockIo2 (drivers/partition/partition_blockio.c) over a disk
 * that has both, as disk drivers make them (the drivers/blkdev front end over a GPT disk in
 * memory): requests shifted by the partition's start and bounded by its size, BlockIo2
 * with and without tokens, bad arguments, and the disk's medium going or changing. */
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "disk_builder.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/drivers/blkdev.h>
#include <ember/lib/util.h>

#define BLOCKS 4096
#define MEDIA_ID 7
#define START 100 /* the ESP: blocks 100-199 of the disk */
#define SIZE 100

static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static const EFI_GUID bio2_guid = EFI_BLOCK_IO2_PROTOCOL_GUID;
static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static const EFI_GUID info_guid = EFI_PARTITION_INFO_PROTOCOL_GUID;
static const EFI_GUID esp_guid = EFI_PART_TYPE_EFI_SYSTEM_PART_GUID;
static const EFI_GUID data_type = {
    0x0fc63daf, 0x8483, 0x4772, {0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4}};

/* The disk: a blkdev over a mem_disk, counting what reaches the device. */
struct test_disk {
	struct blkdev blk;
	struct mem_disk mem;
	struct test_block_dev_path path;
	UINTN reads, writes, flushes, resets;
	EFI_STATUS fail; /* what reads and writes return, when an error */
};

static struct test_disk disk;

static EFI_STATUS disk_read(struct blkdev *b, EFI_LBA lba, UINTN size, void *buffer)
{
	disk.reads++;
	if (EFI_ERROR(disk.fail))
		return disk.fail;
	memcpy(buffer, mem_disk_block(&disk.mem, lba), size);
	return EFI_SUCCESS;
}

static EFI_STATUS disk_write(struct blkdev *b, EFI_LBA lba, UINTN size, const void *buffer)
{
	disk.writes++;
	if (EFI_ERROR(disk.fail))
		return disk.fail;
	memcpy(mem_disk_block(&disk.mem, lba), buffer, size);
	return EFI_SUCCESS;
}

static EFI_STATUS disk_flush(struct blkdev *b)
{
	disk.flushes++;
	return EFI_SUCCESS;
}

static EFI_STATUS disk_reset(struct blkdev *b, bool extended)
{
	disk.resets++;
	return EFI_SUCCESS;
}

static const struct blkdev_ops disk_ops = {disk_read, disk_write, disk_flush, disk_reset, NULL};

static UINT64 block_tag(const UINT8 *block)
{
	UINT64 v;

	memcpy(&v, block + 500, sizeof(v));
	return v;
}

/* A GPT disk with the ESP at 100-199 and data at 300-999, each block tagged with its LBA;
 * installed and connected, so that the partition driver made its children. */
static void disk_setup(bool read_only)
{
	static const EFI_GUID vendor = {0xb10c0002, 0x5a17, 0x4e11, {0x9d, 1, 2, 3, 4, 5, 6, 7}};
	static UINT32 index;
	struct gpt_part parts[] = {{esp_guid, START, START + SIZE - 1, 0, 0},
				   {data_type, 300, 999, 0, 1}};
	EFI_HANDLE handle = NULL;

	memset(&disk, 0, sizeof(disk));
	mem_disk_init(&disk.mem, BLOCKS, 512);
	gpt_write(&disk.mem, parts, 2, 128, 128);
	for (UINT64 lba = START; lba < 1000; lba++)
		memcpy(mem_disk_block(&disk.mem, lba) + 500, &lba, sizeof(lba));
	blkdev_init(&disk.blk, &disk_ops);
	disk.blk.media = (EFI_BLOCK_IO_MEDIA){.MediaId = MEDIA_ID,
					      .MediaPresent = TRUE,
					      .ReadOnly = read_only,
					      .BlockSize = 512,
					      .IoAlign = 8,
					      .LastBlock = BLOCKS - 1,
					      .LogicalBlocksPerPhysicalBlock = 1};
	disk.path.vendor.Header = (EFI_DEVICE_PATH_PROTOCOL){
	    HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(disk.path.vendor) + 4, 0}};
	disk.path.vendor.Guid = vendor;
	disk.path.index = index++;
	disk.path.end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	test_install_builtin_drivers();
	blkdev_install(&disk.blk, &handle, &disk.path.vendor.Header);
	driver_connect(disk.blk.handle, NULL, NULL, true);
	disk.reads = disk.writes = disk.flushes = disk.resets = 0; /* the tests' own only */
}

static void disk_teardown(void)
{
	driver_disconnect(disk.blk.handle, NULL, NULL);
	blkdev_uninstall(&disk.blk, &disk.path.vendor.Header);
	mem_disk_free(&disk.mem);
}

/* The child handle of the partition starting at block start, or NULL. */
static EFI_HANDLE child_at(UINT64 start)
{
	EFI_HANDLE *handles, found = NULL;
	UINTN count;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &info_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		EFI_PARTITION_INFO_PROTOCOL *info;
		if (!EFI_ERROR(protocol_get(handles[i], &dp_guid, (void **)&path)) &&
		    dp_starts_with(path, &disk.path.vendor.Header) &&
		    !EFI_ERROR(protocol_get(handles[i], &info_guid, (void **)&info)) &&
		    info->Info.Gpt.StartingLBA == start)
			found = handles[i];
	}
	pool_free(handles);
	return found;
}

static EFI_BLOCK_IO2_PROTOCOL *child_bio2(void)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2 = NULL;
	EFI_HANDLE child = child_at(START);

	if (child)
		protocol_get(child, &bio2_guid, (void **)&bio2);
	return bio2;
}

static EFI_BLOCK_IO_PROTOCOL *child_bio(void)
{
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;
	EFI_HANDLE child = child_at(START);

	if (child)
		protocol_get(child, &bio_guid, (void **)&bio);
	return bio;
}

static void EFIAPI count_signal(EFI_EVENT event, void *context)
{
	(*(int *)context)++;
}

TEST(partition_blockio2_without_token)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO2_TOKEN no_event = {0};
	_Alignas(8) UINT8 buf[1024];

	disk_setup(false);
	bio2 = child_bio2();
	ASSERT(bio2 != NULL);
	EXPECT(bio2->Media->LogicalPartition);
	EXPECT_EQ(bio2->Media->LastBlock, SIZE - 1);
	EXPECT_EQ(bio2->Media->MediaId, MEDIA_ID);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(block_tag(buf), START);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, SIZE - 2, NULL, 1024, buf), EFI_SUCCESS);
	EXPECT_EQ(block_tag(buf), START + SIZE - 2);
	EXPECT_EQ(block_tag(buf + 512), START + SIZE - 1);
	/* A token without an event is a blocking request too (13.10). */
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 3, &no_event, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(block_tag(buf), START + 3);
	memset(buf, 0xab, sizeof(buf));
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 5, NULL, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(mem_disk_block(&disk.mem, START + 5)[0], 0xab);
	EXPECT_EQ(mem_disk_block(&disk.mem, START + 4)[0], 0);
	EXPECT_EQ(mem_disk_block(&disk.mem, START + 6)[0], 0);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, NULL), EFI_SUCCESS);
	EXPECT_EQ(disk.flushes, 1);
	EXPECT_STATUS(bio2->Reset(bio2, TRUE), EFI_SUCCESS);
	EXPECT_EQ(disk.resets, 1);
	/* Zero bytes: nothing reaches the disk. */
	disk.reads = 0;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, NULL, 0, buf), EFI_SUCCESS);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, NULL, 0, buf), EFI_SUCCESS);
	EXPECT_EQ(disk.reads, 0);
	/* The disk's errors come through. */
	disk.fail = EFI_DEVICE_ERROR;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_DEVICE_ERROR);
	disk_teardown();
}

TEST(partition_blockio2_tokens)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO2_TOKEN token = {0};
	_Alignas(8) UINT8 buf[512];
	int signalled = 0;

	disk_setup(false);
	bio2 = child_bio2();
	ASSERT(bio2 != NULL);
	ASSERT_STATUS(event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_signal, &signalled, NULL,
				   &token.Event),
		      EFI_SUCCESS);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 7, &token, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signalled, 1);
	EXPECT_EQ(block_tag(buf), START + 7);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 8, &token, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signalled, 2);
	EXPECT_EQ(block_tag(mem_disk_block(&disk.mem, START + 8)), START + 7);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, &token), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signalled, 3);
	EXPECT_EQ(disk.flushes, 1);
	/* Zero bytes complete at once, and the event is still signalled. */
	disk.reads = disk.writes = 0;
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, &token, 0, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signalled, 4);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, &token, 0, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signalled, 5);
	EXPECT_EQ(disk.reads + disk.writes, 0);
	/* A failure of an accepted request is the token's TransactionStatus. */
	disk.fail = EFI_DEVICE_ERROR;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, &token, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_DEVICE_ERROR);
	EXPECT_EQ(signalled, 6);
	event_close(token.Event);
	disk_teardown();
}

TEST(partition_blockio2_bad_event)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO2_TOKEN token = {0};
	_Alignas(8) UINT8 buf[512];
	int not_an_event;

	disk_setup(false);
	bio2 = child_bio2();
	ASSERT(bio2 != NULL);
	token.Event = (EFI_EVENT)&not_an_event;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, &token, 0, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, &token, 0, buf),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, &token, 512, buf),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, &token, 512, buf),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, &token), EFI_INVALID_PARAMETER);
	EXPECT_EQ(disk.reads + disk.writes + disk.flushes, 0);
	disk_teardown();
}

/* Rejected requests return their status, leave the token alone and reach nothing. */
TEST(partition_blockio2_bad_arguments)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO2_TOKEN token = {0};
	_Alignas(8) UINT8 buf[1024 + 8];
	int signalled = 0;

	disk_setup(false);
	bio2 = child_bio2();
	ASSERT(bio2 != NULL);
	ASSERT_STATUS(event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_signal, &signalled, NULL,
				   &token.Event),
		      EFI_SUCCESS);
	token.TransactionStatus = EFI_NOT_READY;
	for (int write = 0; write < 2; write++) {
		/* The two have the same signature. */
		EFI_BLOCK_READ_EX op =
		    write ? (EFI_BLOCK_READ_EX)bio2->WriteBlocksEx : bio2->ReadBlocksEx;
		EFI_BLOCK_IO2_TOKEN *tokens[] = {NULL, &token};
		for (int t = 0; t < 2; t++) {
			EFI_BLOCK_IO2_TOKEN *tk = tokens[t];
			EXPECT_STATUS(op(bio2, MEDIA_ID, SIZE, tk, 512, buf),
				      EFI_INVALID_PARAMETER);
			EXPECT_STATUS(op(bio2, MEDIA_ID, SIZE - 1, tk, 1024, buf),
				      EFI_INVALID_PARAMETER);
			EXPECT_STATUS(op(bio2, MEDIA_ID, ~0ull, tk, 512, buf),
				      EFI_INVALID_PARAMETER);
			EXPECT_STATUS(op(bio2, MEDIA_ID, 0, tk, 100, buf), EFI_BAD_BUFFER_SIZE);
			EXPECT_STATUS(op(bio2, MEDIA_ID, 0, tk, 512, NULL), EFI_INVALID_PARAMETER);
			EXPECT_STATUS(op(bio2, MEDIA_ID, 0, tk, 512, buf + 4),
				      EFI_INVALID_PARAMETER); /* the disk's IoAlign */
			EXPECT_STATUS(op(bio2, MEDIA_ID + 1, 0, tk, 512, buf), EFI_MEDIA_CHANGED);
		}
	}
	EXPECT_EQ(signalled, 0);
	EXPECT_STATUS(token.TransactionStatus, EFI_NOT_READY);
	EXPECT_EQ(disk.reads + disk.writes, 0);
	event_close(token.Event);
	disk_teardown();
}

TEST(partition_blockio_read_only_disk)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO_PROTOCOL *bio;
	_Alignas(8) UINT8 buf[512];

	disk_setup(true);
	bio2 = child_bio2();
	bio = child_bio();
	ASSERT(bio2 != NULL && bio != NULL);
	EXPECT(bio->Media->ReadOnly);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(bio->WriteBlocks(bio, MEDIA_ID, 0, 512, buf), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(bio->WriteBlocks(bio, MEDIA_ID, 0, 0, buf), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(disk.writes, 0);
	/* BlockIo's Reset goes to the disk too. */
	EXPECT_STATUS(bio->Reset(bio, FALSE), EFI_SUCCESS);
	EXPECT_EQ(disk.resets, 1);
	disk_teardown();
}

/* The disk's medium goes, or another one comes, while the partition is bound: the blocks
 * are not the partition's any more, whatever MediaId the caller passes. */
TEST(partition_blockio_media_go_and_change)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO_PROTOCOL *bio;
	_Alignas(8) UINT8 buf[512];

	disk_setup(false);
	bio2 = child_bio2();
	bio = child_bio();
	ASSERT(bio2 != NULL && bio != NULL);
	disk.blk.media.MediaPresent = FALSE;
	EXPECT_STATUS(bio->ReadBlocks(bio, MEDIA_ID, 0, 512, buf), EFI_NO_MEDIA);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_NO_MEDIA);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_NO_MEDIA);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, NULL), EFI_NO_MEDIA);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_NO_MEDIA);
	disk.blk.media.MediaPresent = TRUE;
	disk.blk.media.MediaId = MEDIA_ID + 1; /* not yet announced by the disk's driver */
	EXPECT_STATUS(bio->ReadBlocks(bio, MEDIA_ID, 0, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(bio->ReadBlocks(bio, MEDIA_ID + 1, 0, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID + 1, 0, NULL, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, MEDIA_ID, 0, NULL, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_EQ(disk.reads + disk.writes, 0);
	disk.blk.media.MediaId = MEDIA_ID;
	EXPECT_STATUS(bio->ReadBlocks(bio, MEDIA_ID, 0, 512, buf), EFI_SUCCESS);
	disk_teardown();
}

/* When the disk's driver announces a new medium (blkdev_media_changed reinstalls its
 * protocols), the partitions are found again on it, with its MediaId. */
TEST(partition_blockio_rebinds_after_media_change)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	_Alignas(8) UINT8 buf[512];

	disk_setup(false);
	ASSERT(child_bio2() != NULL);
	blkdev_media_changed(&disk.blk);
	bio2 = child_bio2();
	ASSERT(bio2 != NULL);
	EXPECT_EQ(bio2->Media->MediaId, MEDIA_ID + 1);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID + 1, 1, NULL, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(block_tag(buf), START + 1);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, MEDIA_ID, 1, NULL, 512, buf), EFI_MEDIA_CHANGED);
	disk_teardown();
}
