/* blk-test checks: the statuses UEFI 2.10 13.9 and 13.10 give to bad requests, and a
 * BlockIo2 read whose completion is signalled through the token's event. */
#include "blk_test.h"

static void media_checks(struct blk_disk *d, UINT8 *buf)
{
	EFI_BLOCK_IO_PROTOCOL *bio = d->bio;
	const EFI_BLOCK_IO_MEDIA *m = bio->Media;
	UINT32 bs = m->BlockSize, id = m->MediaId;

	CHECK_STATUS(bio->ReadBlocks(bio, id + 1, 0, bs, buf), EFI_MEDIA_CHANGED);
	CHECK_STATUS(bio->ReadBlocks(bio, id, 0, bs - 1, buf), EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(bio->ReadBlocks(bio, id, m->LastBlock + 1, bs, buf), EFI_INVALID_PARAMETER);
	CHECK_STATUS(bio->ReadBlocks(bio, id, m->LastBlock, 2 * bs, buf), EFI_INVALID_PARAMETER);
	CHECK_STATUS(bio->ReadBlocks(bio, id, 0, bs, NULL), EFI_INVALID_PARAMETER);
	if (m->IoAlign > 1)
		CHECK_STATUS(bio->ReadBlocks(bio, id, 0, bs, buf + 1), EFI_INVALID_PARAMETER);
	if (m->ReadOnly)
		CHECK_STATUS(bio->WriteBlocks(bio, id, 0, bs, buf), EFI_WRITE_PROTECTED);
	CHECK_STATUS(bio->ReadBlocks(bio, id, m->LastBlock, bs, buf), EFI_SUCCESS);
	/* Resets leave a working device working, with the same medium. */
	CHECK_STATUS(bio->Reset(bio, FALSE), EFI_SUCCESS);
	CHECK_STATUS(bio->Reset(bio, TRUE), EFI_SUCCESS);
	CHECK_EQ(m->MediaId, id);
	CHECK_STATUS(bio->ReadBlocks(bio, id, 0, bs, buf), EFI_SUCCESS);
}

static void no_media_checks(struct blk_disk *d, UINT8 *buf)
{
	EFI_BLOCK_IO_PROTOCOL *bio = d->bio;

	CHECK(bio->Media->RemovableMedia);
	CHECK_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, bio->Media->BlockSize, buf),
		     EFI_NO_MEDIA);
	app_print("disk %u: no media: reads give EFI_NO_MEDIA\n", (UINT32)d->number);
}

static void EFIAPI count_signal(EFI_EVENT event, void *context)
{
	(*(UINT32 *)context)++;
}

static void block_io2_checks(struct blk_disk *d, UINT8 *buf)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2 = d->bio2;
	EFI_BLOCK_IO2_TOKEN token = {NULL, EFI_NOT_READY};
	volatile UINT32 signalled = 0;

	if (!CHECK_STATUS(app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_signal,
					      (void *)&signalled, &token.Event),
			  EFI_SUCCESS))
		return;
	CHECK_STATUS(
	    bio2->ReadBlocksEx(bio2, bio2->Media->MediaId, 0, &token, bio2->Media->BlockSize, buf),
	    EFI_SUCCESS);
	/* Wait for the event (the notification may run when the TPL drops). */
	for (UINT32 i = 0; i < 1000 && !signalled; i++)
		app_bs->Stall(1000);
	CHECK_EQ(signalled, 1);
	CHECK_STATUS(token.TransactionStatus, EFI_SUCCESS);
	CHECK_STATUS(bio2->ReadBlocksEx(bio2, bio2->Media->MediaId + 1, 0, &token,
					bio2->Media->BlockSize, buf),
		     EFI_MEDIA_CHANGED);
	CHECK_STATUS(bio2->FlushBlocksEx(bio2, NULL), EFI_SUCCESS);
	app_bs->CloseEvent(token.Event);
}

void blk_checks(struct blk_disk *disks, UINTN count)
{
	for (UINTN i = 0; i < count; i++) {
		struct blk_disk *d = &disks[i];
		UINT32 bs = d->bio->Media->BlockSize;
		void *to_free;
		UINT8 *buf = blk_alloc_aligned(2 * bs + 8, d->bio->Media->IoAlign, &to_free);

		if (!CHECK(buf != NULL))
			continue;
		if (!d->bio->Media->MediaPresent) {
			no_media_checks(d, buf);
		} else {
			media_checks(d, buf);
			if (CHECK(d->bio2 != NULL))
				block_io2_checks(d, buf);
		}
		app_free(to_free);
	}
}
