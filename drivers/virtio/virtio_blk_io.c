/* virtio-blk's block operations: transfers are cut into requests no larger than the device
 * takes in one chain, each mapped for DMA only while it runs. */
#include "virtio_blk.h"
#include <ember/lib/util.h>

static struct virtio_blk *to_vb(struct blkdev *dev)
{
	return container_of(dev, struct virtio_blk, blk);
}

/* One request's worth of the buffer, mapped; *bytes comes back as a whole number of
 * blocks (the mapping may have covered less than asked). */
static EFI_STATUS map_chunk(struct virtio_blk *b, bool device_writes, UINT8 *p, UINTN *bytes,
			    UINT64 *addr, void **mapping)
{
	struct virtio_dev *dev = b->dev;
	UINT32 block = b->blk.media.BlockSize;
	EFI_STATUS status = dev->ops->map(dev, device_writes, p, bytes, addr, mapping);

	if (EFI_ERROR(status))
		return status;
	*bytes = ALIGN_DOWN(*bytes, (UINTN)block);
	if (!*bytes) {
		dev->ops->unmap(dev, *mapping);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS transfer(struct virtio_blk *b, UINT32 type, EFI_LBA lba, UINTN size, UINT8 *p)
{
	UINT64 max = (UINT64)b->max_segments * b->max_segment_bytes;
	UINT64 sector = lba * b->sectors_per_block;

	max = ALIGN_DOWN(MIN(max, 0x80000000ULL), (UINT64)b->blk.media.BlockSize);
	while (size) {
		UINTN bytes = (UINTN)MIN((UINT64)size, max);
		UINT64 addr;
		void *mapping;
		EFI_STATUS status =
		    map_chunk(b, type == VIRTIO_BLK_T_IN, p, &bytes, &addr, &mapping);

		if (EFI_ERROR(status))
			return status;
		status = virtio_blk_request(b, type, sector, addr, (UINT32)bytes);
		b->dev->ops->unmap(b->dev, mapping);
		if (EFI_ERROR(status))
			return status;
		p += bytes;
		size -= bytes;
		sector += bytes / VIRTIO_BLK_SECTOR_SIZE;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS blk_read(struct blkdev *dev, EFI_LBA lba, UINTN size, void *buffer)
{
	return transfer(to_vb(dev), VIRTIO_BLK_T_IN, lba, size, buffer);
}

static EFI_STATUS blk_write(struct blkdev *dev, EFI_LBA lba, UINTN size, const void *buffer)
{
	return transfer(to_vb(dev), VIRTIO_BLK_T_OUT, lba, size, (UINT8 *)buffer);
}

static EFI_STATUS blk_flush(struct blkdev *dev)
{
	struct virtio_blk *b = to_vb(dev);

	if (!(b->dev->features & VIRTIO_BLK_F_FLUSH))
		return b->broken ? EFI_DEVICE_ERROR : EFI_SUCCESS;
	return virtio_blk_request(b, VIRTIO_BLK_T_FLUSH, 0, 0, 0);
}

/* A reset brings a device that failed back; a working one is left alone. */
static EFI_STATUS blk_reset(struct blkdev *dev, bool extended)
{
	struct virtio_blk *b = to_vb(dev);

	if (!b->broken && !extended)
		return EFI_SUCCESS;
	/* A device that does not come back has lost its queue and request page with the
	 * restart: it stays broken, so that requests fail instead of using them. */
	if (EFI_ERROR(virtio_blk_restart(b))) {
		b->broken = true;
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

const struct blkdev_ops virtio_blk_ops = {
    .read = blk_read,
    .write = blk_write,
    .flush = blk_flush,
    .reset = blk_reset,
};
