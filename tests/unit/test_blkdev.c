/* The block-device front end (drivers/blkdev): the checks and statuses of UEFI 2.10
 * 13.9/13.10 in front of a driver's operations, BlockIo2 tokens, media changes. */
#include <string.h>

#include "support/test.h"
#include <ember/drivers/blkdev.h>
#include <ember/core/core.h>
#include <ember/lib/util.h>

struct mem_dev {
	struct blkdev blk;
	UINT8 data[16 * 512];
	int reads, writes, flushes;
	EFI_STATUS fail; /* what read/write return, when an error */
	bool insert;	 /* check_media: a medium arrives */
};

static struct mem_dev *to_mem(struct blkdev *b)
{
	return container_of(b, struct mem_dev, blk);
}

static EFI_STATUS mem_read(struct blkdev *b, EFI_LBA lba, UINTN size, void *buffer)
{
	to_mem(b)->reads++;
	if (EFI_ERROR(to_mem(b)->fail))
		return to_mem(b)->fail;
	memcpy(buffer, to_mem(b)->data + lba * 512, size);
	return EFI_SUCCESS;
}

static EFI_STATUS mem_write(struct blkdev *b, EFI_LBA lba, UINTN size, const void *buffer)
{
	to_mem(b)->writes++;
	memcpy(to_mem(b)->data + lba * 512, buffer, size);
	return EFI_SUCCESS;
}

static EFI_STATUS mem_flush(struct blkdev *b)
{
	to_mem(b)->flushes++;
	return EFI_SUCCESS;
}

static void mem_check_media(struct blkdev *b)
{
	if (to_mem(b)->insert && !b->media.MediaPresent) {
		b->media.MediaPresent = TRUE;
		blkdev_media_changed(b);
	}
}

static const struct blkdev_ops mem_ops = {mem_read, mem_write, mem_flush, NULL, mem_check_media};

static void mem_init(struct mem_dev *d)
{
	memset(d, 0, sizeof(*d));
	blkdev_init(&d->blk, &mem_ops);
	d->blk.media = (EFI_BLOCK_IO_MEDIA){.MediaId = 5,
					    .MediaPresent = TRUE,
					    .BlockSize = 512,
					    .IoAlign = 4,
					    .LastBlock = 15,
					    .LogicalBlocksPerPhysicalBlock = 1};
}

TEST(blkdev_read_write_statuses)
{
	static struct mem_dev d;
	EFI_BLOCK_IO_PROTOCOL *bio = &d.blk.block_io;
	_Alignas(8) UINT8 buf[1024 + 8];

	mem_init(&d);
	EXPECT_EQ(bio->Media, &d.blk.media);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 14, 1024, buf), EFI_SUCCESS);
	EXPECT_STATUS(bio->ReadBlocks(bio, 4, 0, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 0, 511, buf), EFI_BAD_BUFFER_SIZE);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 0, 512, buf + 2), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 16, 512, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 15, 1024, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, ~0ULL, 512, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 0, 512, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 3, 0, buf), EFI_SUCCESS);
	EXPECT_EQ(d.reads, 1);
	d.blk.media.ReadOnly = TRUE;
	EXPECT_STATUS(bio->WriteBlocks(bio, 5, 0, 512, buf), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(d.flushes, 0);
	d.blk.media.ReadOnly = FALSE;
	EXPECT_STATUS(bio->WriteBlocks(bio, 5, 2, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(d.writes, 1);
	EXPECT_EQ(d.flushes, 1);
	d.blk.media.MediaPresent = FALSE;
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 0, 512, buf), EFI_NO_MEDIA);
	EXPECT_STATUS(bio->WriteBlocks(bio, 5, 0, 512, buf), EFI_NO_MEDIA);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_NO_MEDIA);
}

static void EFIAPI count_signal(EFI_EVENT event, void *context)
{
	(*(int *)context)++;
}

TEST(blkdev_block_io2_tokens)
{
	static struct mem_dev d;
	EFI_BLOCK_IO2_PROTOCOL *bio2 = &d.blk.block_io2;
	EFI_BLOCK_IO2_TOKEN token = {0};
	_Alignas(8) UINT8 buf[512];
	int signalled = 0;

	mem_init(&d);
	ASSERT_STATUS(event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_signal, &signalled, NULL,
				   &token.Event),
		      EFI_SUCCESS);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, 5, 1, &token, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signalled, 1);
	/* Rejected requests return their status and leave the token alone. */
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, 6, 1, &token, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(token.TransactionStatus, EFI_NOT_READY);
	EXPECT_EQ(signalled, 1);
	/* A device failure is the transaction's status. */
	d.fail = EFI_DEVICE_ERROR;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, 5, 1, &token, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_DEVICE_ERROR);
	EXPECT_EQ(signalled, 2);
	/* Without an event, or without a token, the call is synchronous. */
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, 5, 1, NULL, 512, buf), EFI_DEVICE_ERROR);
	d.fail = EFI_SUCCESS;
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, 5, 1, &(EFI_BLOCK_IO2_TOKEN){0}, 512, buf),
		      EFI_SUCCESS);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, &token), EFI_SUCCESS);
	EXPECT_EQ(signalled, 3);
	EXPECT_EQ(d.flushes, 1);
	event_close(token.Event);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, 5, 1, &token, 512, buf), EFI_INVALID_PARAMETER);
}

TEST(blkdev_install_and_media_change)
{
	static struct mem_dev d;
	static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_HANDLE handle = NULL;
	_Alignas(8) UINT8 buf[512];

	mem_init(&d);
	d.blk.media.MediaPresent = FALSE;
	ASSERT_STATUS(blkdev_install(&d.blk, &handle, NULL), EFI_SUCCESS);
	EXPECT_EQ(d.blk.handle, handle);
	ASSERT_STATUS(protocol_get(handle, &bio_guid, (void **)&bio), EFI_SUCCESS);
	EXPECT(blkdev_from_block_io(bio) == &d.blk);
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 0, 512, buf), EFI_NO_MEDIA);
	d.insert = true;
	EXPECT_STATUS(bio->ReadBlocks(bio, 5, 0, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_EQ(d.blk.media.MediaId, 6);
	EXPECT_STATUS(bio->ReadBlocks(bio, 6, 0, 512, buf), EFI_SUCCESS);
	EXPECT_STATUS(blkdev_uninstall(&d.blk, NULL), EFI_SUCCESS);
	EXPECT(!handle_is_valid(handle));
}
