/* blk-test media: waits for a key while the test changes removable media from outside
 * (QEMU's blockdev-change-medium or eject), then reads with the old MediaId, which must fail
 * with EFI_MEDIA_CHANGED or EFI_NO_MEDIA, and shows the media as they are now. */
#include "blk_test.h"

#define MAX_REMOVABLE BLK_TEST_MAX_DISKS

static void wait_for_key(void)
{
	EFI_INPUT_KEY key;
	UINTN index;

	app_print("blk-test: change the media, then press a key\n");
	app_bs->WaitForEvent(1, &app_st->ConIn->WaitForKey, &index);
	app_st->ConIn->ReadKeyStroke(app_st->ConIn, &key);
}

static void after_change(struct blk_disk *d, UINT32 old_id)
{
	const EFI_BLOCK_IO_MEDIA *m = d->bio->Media;
	void *to_free;
	UINT8 *buf = blk_alloc_aligned(m->BlockSize, m->IoAlign, &to_free);
	EFI_STATUS status;

	if (!CHECK(buf != NULL))
		return;
	status = d->bio->ReadBlocks(d->bio, old_id, 0, m->BlockSize, buf);
	app_print("disk %u: after change: %r\n", (UINT32)d->number, status);
	/* Whatever happened, the old MediaId is no longer good. */
	CHECK(status == EFI_MEDIA_CHANGED || status == EFI_NO_MEDIA);
	if (m->MediaPresent)
		CHECK(m->MediaId != old_id);
	if (m->MediaPresent)
		CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId, 0, m->BlockSize, buf),
			     EFI_SUCCESS);
	app_free(to_free);
}

void blk_media(struct blk_disk *disks, UINTN count)
{
	UINT32 ids[MAX_REMOVABLE];

	for (UINTN i = 0; i < count; i++)
		ids[i] = disks[i].bio->Media->MediaId;
	wait_for_key();
	for (UINTN i = 0; i < count; i++)
		if (disks[i].bio->Media->RemovableMedia)
			after_change(&disks[i], ids[i]);
	blk_list(disks, count);
}
