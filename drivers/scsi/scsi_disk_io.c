/* The SCSI disk's block operations: READ and WRITE (10), or (16) beyond 2 TiB blocks, cut
 * to what the channel moves in one command; SYNCHRONIZE CACHE; media changes noticed on the
 * way described anew (blkdev_media_changed). */
#include "scsi_disk.h"
#include <ember/lib/util.h>

/* 30 s for a transfer (100 ns units). */
#define TRANSFER_TIMEOUT 300000000ULL
#define FLUSH_TIMEOUT 600000000ULL

static struct scsi_disk *to_disk(struct blkdev *blk)
{
	return container_of(blk, struct scsi_disk, blk);
}

/* The medium came, went or changed under a request: the media says what is there now. */
static EFI_STATUS media_news(struct scsi_disk *d, EFI_STATUS status)
{
	scsi_disk_refresh(d);
	blkdev_media_changed(&d->blk);
	return d->blk.media.MediaPresent ? EFI_MEDIA_CHANGED : EFI_NO_MEDIA;
}

static EFI_STATUS chunk(struct scsi_disk *d, bool write, EFI_LBA lba, UINT32 *blocks, UINT8 *p)
{
	UINT32 block = d->blk.media.BlockSize;
	struct scsi_disk_cmd c = {
	    .data = p, .bytes = *blocks * block, .write = write, .timeout = TRANSFER_TIMEOUT};
	EFI_STATUS status;

	c.cdb_len = scsi_cdb_read_write(c.cdb, write, lba, *blocks);
	status = scsi_disk_command(d, &c);
	if (status == EFI_BAD_BUFFER_SIZE) {
		/* The channel moves less at once: remember it and send smaller commands (a
		 * channel that does not say less is not asked again). */
		UINT32 fits = c.bytes / block;

		if (!fits || fits >= *blocks)
			return EFI_DEVICE_ERROR;
		d->max_blocks = fits;
		*blocks = 0;
		return EFI_SUCCESS;
	}
	if (!EFI_ERROR(status) && c.bytes != *blocks * block)
		return EFI_DEVICE_ERROR; /* a short transfer leaves the buffer partly stale */
	return status;
}

static EFI_STATUS transfer(struct scsi_disk *d, bool write, EFI_LBA lba, UINTN size, UINT8 *p)
{
	UINT32 block = d->blk.media.BlockSize;
	UINT64 left = size / block;

	while (left) {
		UINT32 blocks = (UINT32)MIN(left, (UINT64)d->max_blocks);
		EFI_STATUS status = chunk(d, write, lba, &blocks, p);

		if (status == EFI_MEDIA_CHANGED || status == EFI_NO_MEDIA)
			return media_news(d, status);
		if (status == EFI_WRITE_PROTECTED)
			return status;
		if (EFI_ERROR(status))
			return EFI_DEVICE_ERROR;
		lba += blocks;
		left -= blocks;
		p += (UINTN)blocks * block;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS disk_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	return transfer(to_disk(blk), false, lba, size, buffer);
}

static EFI_STATUS disk_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	return transfer(to_disk(blk), true, lba, size, (UINT8 *)buffer);
}

/* SYNCHRONIZE CACHE (10) of the whole medium; a device without a cache may refuse it. */
static EFI_STATUS disk_flush(struct blkdev *blk)
{
	struct scsi_disk *d = to_disk(blk);
	struct scsi_disk_cmd c = {
	    .cdb = {SCSI_OP_SYNCHRONIZE_CACHE_10}, .cdb_len = 10, .timeout = FLUSH_TIMEOUT};
	EFI_STATUS status = scsi_disk_command(d, &c);

	if (status == EFI_MEDIA_CHANGED || status == EFI_NO_MEDIA)
		return media_news(d, status);
	return status == EFI_SUCCESS || status == EFI_UNSUPPORTED ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static EFI_STATUS disk_reset(struct blkdev *blk, bool extended)
{
	struct scsi_disk *d = to_disk(blk);

	if (extended) {
		EFI_STATUS status = d->io->ResetDevice(d->io);

		if (EFI_ERROR(status) && status != EFI_UNSUPPORTED)
			return EFI_DEVICE_ERROR;
	}
	if (scsi_disk_refresh(d))
		blkdev_media_changed(blk);
	return EFI_SUCCESS;
}

/* Before each request: a removable drive without a medium is asked whether one came. */
static void disk_check_media(struct blkdev *blk)
{
	struct scsi_disk *d = to_disk(blk);

	if (d->removable && !blk->media.MediaPresent && scsi_disk_refresh(d))
		blkdev_media_changed(blk);
}

const struct blkdev_ops scsi_disk_ops = {
    .read = disk_read,
    .write = disk_write,
    .flush = disk_flush,
    .reset = disk_reset,
    .check_media = disk_check_media,
};
