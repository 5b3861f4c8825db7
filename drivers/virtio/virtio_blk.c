/* virtio-blk bring-up (virtio 1.x, 5.2.5): features, the request queue, and the media
 * description from the device configuration. */
#include "virtio_blk.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define REQUEST_QUEUE 0

static UINT64 config(struct virtio_blk *b, UINT32 offset, UINT32 size)
{
	return b->dev->ops->read_config(b->dev, offset, size);
}

static bool has(struct virtio_blk *b, UINT64 feature)
{
	return (b->dev->features & feature) != 0;
}

/* The logical block size: BLK_SIZE when it is a sane multiple of 512, else 512. */
static UINT32 block_size(struct virtio_blk *b)
{
	UINT32 size =
	    has(b, VIRTIO_BLK_F_BLK_SIZE) ? (UINT32)config(b, VIRTIO_BLK_CFG_BLK_SIZE, 4) : 0;

	if (size < VIRTIO_BLK_SECTOR_SIZE || size > 65536 || (size & (size - 1)))
		return VIRTIO_BLK_SECTOR_SIZE;
	return size;
}

static void fill_topology(struct virtio_blk *b, EFI_BLOCK_IO_MEDIA *m)
{
	UINT8 exp;

	m->LogicalBlocksPerPhysicalBlock = 1;
	if (!has(b, VIRTIO_BLK_F_TOPOLOGY))
		return;
	exp = (UINT8)config(b, VIRTIO_BLK_CFG_PHYS_EXP, 1);
	m->LogicalBlocksPerPhysicalBlock = exp < 16 ? 1u << exp : 1;
	m->LowestAlignedLba = config(b, VIRTIO_BLK_CFG_ALIGN_OFFSET, 1);
	m->OptimalTransferLengthGranularity = (UINT32)config(b, VIRTIO_BLK_CFG_OPT_IO, 4);
}

static void fill_media(struct virtio_blk *b)
{
	EFI_BLOCK_IO_MEDIA *m = &b->blk.media;
	UINT64 blocks;

	m->BlockSize = block_size(b);
	b->sectors_per_block = m->BlockSize / VIRTIO_BLK_SECTOR_SIZE;
	blocks = config(b, VIRTIO_BLK_CFG_CAPACITY, 8) / b->sectors_per_block;
	m->MediaPresent = blocks != 0;
	m->LastBlock = blocks ? blocks - 1 : 0;
	m->RemovableMedia = FALSE;
	m->LogicalPartition = FALSE;
	m->ReadOnly = has(b, VIRTIO_BLK_F_RO);
	/* Without CONFIG_WCE a device offering FLUSH may cache writes; with it, it says so. */
	m->WriteCaching = has(b, VIRTIO_BLK_F_FLUSH) && (!has(b, VIRTIO_BLK_F_CONFIG_WCE) ||
							 config(b, VIRTIO_BLK_CFG_WRITEBACK, 1));
	m->IoAlign = 0;
	fill_topology(b, m);
}

static void set_limits(struct virtio_blk *b)
{
	UINT32 seg_max =
	    has(b, VIRTIO_BLK_F_SEG_MAX) ? (UINT32)config(b, VIRTIO_BLK_CFG_SEG_MAX, 4) : 0;
	UINT32 size_max =
	    has(b, VIRTIO_BLK_F_SIZE_MAX) ? (UINT32)config(b, VIRTIO_BLK_CFG_SIZE_MAX, 4) : 0;
	/* Two descriptors of every chain hold the header and the status byte. */
	UINT32 segments = MIN((UINT32)VIRTIO_BLK_MAX_SEGMENTS, b->queue.vq.size - 2u);

	if (seg_max)
		segments = MIN(segments, seg_max);
	b->max_segments = (UINT16)segments;
	b->max_segment_bytes = size_max ? size_max : VIRTIO_BLK_DEFAULT_SEGMENT;
	if (b->max_segment_bytes < b->blk.media.BlockSize)
		b->max_segment_bytes = b->blk.media.BlockSize;
}

/* Negotiation, the queue and the shared page; the device is live when this succeeds. */
static EFI_STATUS bring_up(struct virtio_blk *b)
{
	struct virtio_dev *dev = b->dev;
	EFI_STATUS status = virtio_negotiate(dev, VIRTIO_BLK_FEATURES);

	if (EFI_ERROR(status))
		return status;
	status = virtio_queue_create(dev, REQUEST_QUEUE, VIRTIO_BLK_QUEUE_SIZE, &b->queue);
	if (EFI_ERROR(status))
		goto err_fail;
	if (b->queue.vq.size < 3) {
		status = EFI_UNSUPPORTED;
		goto err_queue;
	}
	status = dev->ops->alloc_shared(dev, 1, (void **)&b->shared, &b->shared_addr,
					&b->shared_mapping);
	if (EFI_ERROR(status))
		goto err_queue;
	mem_set(b->shared, 0, 4096);
	virtio_driver_ok(dev);
	b->broken = false;
	return EFI_SUCCESS;

err_queue:
	virtio_reset(dev);
	virtio_queue_destroy(dev, &b->queue);
err_fail:
	virtio_fail(dev);
	return status;
}

/* Logs the device's serial number (VIRTIO_BLK_T_GET_ID), which helps tell disks apart. */
static void log_id(struct virtio_blk *b)
{
	char id[VIRTIO_BLK_ID_BYTES + 1];

	mem_set(b->shared + VIRTIO_BLK_ID_OFFSET, 0, VIRTIO_BLK_ID_BYTES);
	if (EFI_ERROR(virtio_blk_request(b, VIRTIO_BLK_T_GET_ID, 0,
					 b->shared_addr + VIRTIO_BLK_ID_OFFSET,
					 VIRTIO_BLK_ID_BYTES)))
		return;
	mem_copy(id, b->shared + VIRTIO_BLK_ID_OFFSET, VIRTIO_BLK_ID_BYTES);
	id[VIRTIO_BLK_ID_BYTES] = 0;
	if (id[0])
		log_debug("virtio-blk: serial \"%s\"\n", id);
}

EFI_STATUS virtio_blk_start(struct virtio_blk *b, struct virtio_dev *dev)
{
	EFI_STATUS status;

	b->dev = dev;
	blkdev_init(&b->blk, &virtio_blk_ops);
	status = bring_up(b);
	if (EFI_ERROR(status))
		return status;
	fill_media(b);
	set_limits(b);
	log_id(b);
	log_debug("virtio-blk: %llu blocks of %u bytes%s, features %#llx, %s interface\n",
		  (unsigned long long)b->blk.media.LastBlock + 1, b->blk.media.BlockSize,
		  b->blk.media.ReadOnly ? " (read-only)" : "", (unsigned long long)dev->features,
		  dev->legacy ? "legacy" : "modern");
	return EFI_SUCCESS;
}

/* Reset first: the device must not touch the rings or data once they are released. */
void virtio_blk_stop(struct virtio_blk *b)
{
	virtio_reset(b->dev);
	virtio_queue_destroy(b->dev, &b->queue);
	if (b->shared) {
		b->dev->ops->free_shared(b->dev, 1, b->shared, b->shared_mapping);
		b->shared = NULL;
	}
}

EFI_STATUS virtio_blk_restart(struct virtio_blk *b)
{
	virtio_blk_stop(b);
	return bring_up(b);
}
