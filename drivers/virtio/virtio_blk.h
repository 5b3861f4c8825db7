/* virtio-blk (virtio 1.x, 5.2) as a block device: one request queue, requests made of a
 * header, data segments and a status byte, completed by polling the used ring. */
#ifndef DRIVERS_VIRTIO_BLK_H
#define DRIVERS_VIRTIO_BLK_H

#include <ember/drivers/blkdev.h>
#include "virtio.h"

/* Data descriptors per request, at most (the chain lives in an array on the stack). */
#define VIRTIO_BLK_MAX_SEGMENTS 64
/* Bytes per data descriptor when the device sets no limit (VIRTIO_BLK_F_SIZE_MAX). */
#define VIRTIO_BLK_DEFAULT_SEGMENT 0x100000
/* Entries in the request queue, at most (a legacy device may insist on more). */
#define VIRTIO_BLK_QUEUE_SIZE 256

/* Feature bits the driver accepts. */
#define VIRTIO_BLK_FEATURES                                                                        \
	(VIRTIO_BLK_F_SIZE_MAX | VIRTIO_BLK_F_SEG_MAX | VIRTIO_BLK_F_RO | VIRTIO_BLK_F_BLK_SIZE |  \
	 VIRTIO_BLK_F_FLUSH | VIRTIO_BLK_F_TOPOLOGY | VIRTIO_BLK_F_CONFIG_WCE)

/* Where the get-id answer goes in the shared page. */
#define VIRTIO_BLK_ID_OFFSET 32

struct virtio_blk {
	struct blkdev blk;
	struct virtio_dev *dev;
	struct virtio_queue queue;
	/* One shared page: the request header, the status byte and the get-id buffer. */
	UINT8 *shared;
	UINT64 shared_addr;
	void *shared_mapping;
	UINT32 sectors_per_block; /* BlockSize / 512 */
	UINT16 max_segments;
	UINT32 max_segment_bytes;
	bool broken; /* a request timed out: the device was reset and needs a BlockIo Reset */
};

/* Brings the device up (negotiation, queue, configuration) and fills b->blk (initialized
 * here with the virtio-blk operations) with its media. dev is the transport, kept. */
EFI_STATUS virtio_blk_start(struct virtio_blk *b, struct virtio_dev *dev);

/* Resets the device, so that it stops all DMA, and releases the queue and shared memory. */
void virtio_blk_stop(struct virtio_blk *b);

/* Sets up the device again after a failure (BlockIo Reset); the media keeps its MediaId. */
EFI_STATUS virtio_blk_restart(struct virtio_blk *b);

/* Runs one request on the queue and waits for it: type VIRTIO_BLK_T_*, data (a device
 * address, possibly 0 bytes) split into segments. */
EFI_STATUS virtio_blk_request(struct virtio_blk *b, UINT32 type, UINT64 sector, UINT64 data,
			      UINT32 bytes);

/* The blkdev operations (virtio_blk_io.c). */
extern const struct blkdev_ops virtio_blk_ops;

#endif
