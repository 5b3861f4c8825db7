/* virtio-blk (drivers/virtio/virtio_blk*.c) over a fake transport: a device in memory that
 * serves requests from the virtqueue when notified. Checks feature negotiation, the media it
 * reports, request chains (header, segments no longer than SIZE_MAX, no more than SEG_MAX of
 * them, status), partial DMA mappings, flush, and the BlockIo statuses on top. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/util.h>
#include "../../drivers/virtio/virtio_blk.h"

#define DISK_SECTORS 2048

struct fake {
	struct virtio_dev dev;
	UINT8 status;
	UINT64 offered, accepted;
	bool refuse_features;
	UINT8 config[64];
	UINT16 queue_max;
	const struct virtqueue *vq;
	UINT16 seen_avail;
	UINT8 *disk;
	UINTN map_limit; /* bytes one Map covers at most (0: all) */
	int maps, unmaps, shared_allocs, requests, flushes, max_segments_seen;
	UINT32 max_segment_seen;
	bool corrupt_used; /* return a head that is not in flight */
};

static struct fake *to_fake(struct virtio_dev *dev)
{
	return container_of(dev, struct fake, dev);
}

static UINT8 get_status(struct virtio_dev *dev)
{
	return to_fake(dev)->status;
}

static void set_status(struct virtio_dev *dev, UINT8 status)
{
	struct fake *f = to_fake(dev);

	if (status & VIRTIO_STATUS_FEATURES_OK && f->refuse_features)
		status &= (UINT8)~VIRTIO_STATUS_FEATURES_OK;
	f->status = status;
	if (!status)
		f->seen_avail = 0;
}

static UINT64 get_features(struct virtio_dev *dev)
{
	return to_fake(dev)->offered;
}

static void set_features(struct virtio_dev *dev, UINT64 features)
{
	to_fake(dev)->accepted = features;
}

static UINT64 read_config(struct virtio_dev *dev, UINT32 offset, UINT32 size)
{
	UINT64 value = 0;

	memcpy(&value, to_fake(dev)->config + offset, size);
	return value;
}

static UINT16 queue_max(struct virtio_dev *dev, UINT16 index)
{
	return index == 0 ? to_fake(dev)->queue_max : 0;
}

static EFI_STATUS queue_enable(struct virtio_dev *dev, UINT16 index, const struct virtqueue *vq)
{
	to_fake(dev)->vq = vq;
	return EFI_SUCCESS;
}

static void *ptr(UINT64 addr)
{
	return (void *)(uintptr_t)addr;
}

/* Serves one chain: header, data descriptors, status. Returns the bytes written. */
static UINT32 serve(struct fake *f, UINT16 head)
{
	const struct virtqueue *vq = f->vq;
	const struct virtio_blk_req_header *h = ptr(vq->desc[head].addr);
	UINT64 offset = h->sector * 512;
	UINT16 index = vq->desc[head].next, segments = 0;
	UINT32 written = 1;

	f->requests++;
	f->flushes += h->type == VIRTIO_BLK_T_FLUSH;
	while (vq->desc[index].flags & VIRTQ_DESC_F_NEXT) {
		volatile const struct virtq_desc *d = &vq->desc[index];
		bool in = h->type == VIRTIO_BLK_T_IN || h->type == VIRTIO_BLK_T_GET_ID;

		EXPECT_EQ(!!(d->flags & VIRTQ_DESC_F_WRITE), in);
		if (offset + d->len > DISK_SECTORS * 512ULL)
			;
		else if (h->type == VIRTIO_BLK_T_IN)
			memcpy(ptr(d->addr), f->disk + offset, d->len);
		else if (h->type == VIRTIO_BLK_T_OUT)
			memcpy(f->disk + offset, ptr(d->addr), d->len);
		written += in ? d->len : 0;
		offset += d->len;
		segments++;
		f->max_segment_seen = MAX(f->max_segment_seen, d->len);
		index = d->next;
	}
	f->max_segments_seen = MAX(f->max_segments_seen, segments);
	EXPECT(vq->desc[index].flags & VIRTQ_DESC_F_WRITE);
	EXPECT_EQ(vq->desc[index].len, 1);
	*(UINT8 *)ptr(vq->desc[index].addr) =
	    offset <= DISK_SECTORS * 512ULL ? VIRTIO_BLK_S_OK : VIRTIO_BLK_S_IOERR;
	if (h->type == VIRTIO_BLK_T_FLUSH || h->type == VIRTIO_BLK_T_GET_ID)
		EXPECT_EQ(segments, h->type == VIRTIO_BLK_T_GET_ID);
	if (h->type == VIRTIO_BLK_T_GET_ID)
		*(UINT8 *)ptr(vq->desc[index].addr) = VIRTIO_BLK_S_UNSUPP;
	return written;
}

static void notify(struct virtio_dev *dev, UINT16 index)
{
	struct fake *f = to_fake(dev);
	const struct virtqueue *vq = f->vq;

	EXPECT(f->status & VIRTIO_STATUS_DRIVER_OK);
	while (f->seen_avail != vq->avail->idx) {
		UINT16 head = vq->avail->ring[f->seen_avail++ % vq->size];
		UINT32 len = serve(f, head);
		volatile struct virtq_used_elem *e = &vq->used->ring[vq->used->idx % vq->size];

		e->id = f->corrupt_used ? (UINT32)(head + 1) % vq->size : head;
		e->len = len;
		vq->used->idx++;
	}
}

static EFI_STATUS alloc_shared(struct virtio_dev *dev, UINTN pages, void **host, UINT64 *dev_addr,
			       void **mapping)
{
	*host = aligned_alloc(4096, pages * 4096);
	*dev_addr = (UINT64)(uintptr_t)*host;
	*mapping = *host;
	to_fake(dev)->shared_allocs++;
	return EFI_SUCCESS;
}

static void free_shared(struct virtio_dev *dev, UINTN pages, void *host, void *mapping)
{
	EXPECT(host == mapping);
	to_fake(dev)->shared_allocs--;
	free(host);
}

static EFI_STATUS map(struct virtio_dev *dev, bool device_writes, void *host, UINTN *bytes,
		      UINT64 *dev_addr, void **mapping)
{
	struct fake *f = to_fake(dev);

	if (f->map_limit && *bytes > f->map_limit)
		*bytes = f->map_limit;
	*dev_addr = (UINT64)(uintptr_t)host;
	*mapping = host;
	f->maps++;
	return EFI_SUCCESS;
}

static void unmap(struct virtio_dev *dev, void *mapping)
{
	to_fake(dev)->unmaps++;
}

static const struct virtio_transport fake_ops = {
    get_status,	  set_status, get_features, set_features, read_config, queue_max,
    queue_enable, notify,     alloc_shared, free_shared,  map,	       unmap,
};

static void fake_init(struct fake *f, UINT64 offered)
{
	memset(f, 0, sizeof(*f));
	f->dev.ops = &fake_ops;
	f->offered = offered;
	f->queue_max = 128;
	f->disk = malloc(DISK_SECTORS * 512);
	for (UINT32 i = 0; i < DISK_SECTORS * 512; i++)
		f->disk[i] = (UINT8)(i * 13 + i / 512);
	UINT64 capacity = DISK_SECTORS;
	memcpy(f->config + VIRTIO_BLK_CFG_CAPACITY, &capacity, 8);
}

static void set_config32(struct fake *f, UINT32 offset, UINT32 value)
{
	memcpy(f->config + offset, &value, 4);
}

static void fake_done(struct fake *f, struct virtio_blk *b)
{
	virtio_blk_stop(b);
	EXPECT_EQ(f->status, 0);
	EXPECT_EQ(f->shared_allocs, 0);
	EXPECT_EQ(f->maps, f->unmaps);
	free(f->disk);
}

TEST(virtio_blk_negotiates_and_describes_media)
{
	struct fake f;
	struct virtio_blk b;

	fake_init(&f, VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_RO | VIRTIO_BLK_F_FLUSH |
			  VIRTIO_BLK_F_TOPOLOGY | (1ULL << 29) /* EVENT_IDX: not taken */);
	f.config[VIRTIO_BLK_CFG_PHYS_EXP] = 3;
	f.config[VIRTIO_BLK_CFG_ALIGN_OFFSET] = 1;
	set_config32(&f, VIRTIO_BLK_CFG_OPT_IO, 64);
	ASSERT_STATUS(virtio_blk_start(&b, &f.dev), EFI_SUCCESS);
	EXPECT_EQ(f.accepted, VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_RO | VIRTIO_BLK_F_FLUSH |
				  VIRTIO_BLK_F_TOPOLOGY);
	EXPECT_EQ(f.status, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
				VIRTIO_STATUS_FEATURES_OK | VIRTIO_STATUS_DRIVER_OK);
	EXPECT_EQ(b.blk.media.BlockSize, 512);
	EXPECT_EQ(b.blk.media.LastBlock, DISK_SECTORS - 1);
	EXPECT(b.blk.media.MediaPresent);
	EXPECT(b.blk.media.ReadOnly);
	EXPECT(b.blk.media.WriteCaching);
	EXPECT(!b.blk.media.RemovableMedia);
	EXPECT_EQ(b.blk.media.LogicalBlocksPerPhysicalBlock, 8);
	EXPECT_EQ(b.blk.media.LowestAlignedLba, 1);
	EXPECT_EQ(b.blk.media.OptimalTransferLengthGranularity, 64);
	EXPECT_EQ(b.blk.block_io.Revision, EFI_BLOCK_IO_PROTOCOL_REVISION3);
	EXPECT_EQ(b.queue.vq.size, 128);
	fake_done(&f, &b);
}

TEST(virtio_blk_modern_needs_version_1_and_features_ok)
{
	struct fake f;
	struct virtio_blk b;

	fake_init(&f, VIRTIO_BLK_F_FLUSH);
	EXPECT_STATUS(virtio_blk_start(&b, &f.dev), EFI_UNSUPPORTED);
	EXPECT(f.status & VIRTIO_STATUS_FAILED);
	free(f.disk);
	fake_init(&f, VIRTIO_F_VERSION_1);
	f.refuse_features = true;
	EXPECT_STATUS(virtio_blk_start(&b, &f.dev), EFI_UNSUPPORTED);
	EXPECT(f.status & VIRTIO_STATUS_FAILED);
	EXPECT_EQ(f.shared_allocs, 0);
	free(f.disk);
}

TEST(virtio_blk_legacy_takes_low_features_and_device_queue_size)
{
	struct fake f;
	struct virtio_blk b;

	fake_init(&f, VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_SEG_MAX | VIRTIO_F_VERSION_1);
	f.dev.legacy = true;
	f.queue_max = 256;
	set_config32(&f, VIRTIO_BLK_CFG_BLK_SIZE, 4096);
	set_config32(&f, VIRTIO_BLK_CFG_SEG_MAX, 126);
	ASSERT_STATUS(virtio_blk_start(&b, &f.dev), EFI_SUCCESS);
	EXPECT_EQ(f.accepted, VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_SEG_MAX);
	EXPECT(!(f.status & VIRTIO_STATUS_FEATURES_OK));
	EXPECT_EQ(b.queue.vq.size, 256);
	EXPECT_EQ(b.queue.vq.used_addr - b.queue.vq.desc_addr, 8192);
	EXPECT_EQ(b.blk.media.BlockSize, 4096);
	EXPECT_EQ(b.blk.media.LastBlock, DISK_SECTORS / 8 - 1);
	EXPECT_EQ(b.max_segments, VIRTIO_BLK_MAX_SEGMENTS);
	fake_done(&f, &b);
}

TEST(virtio_blk_reads_and_writes_through_block_io)
{
	struct fake f;
	struct virtio_blk b;
	EFI_BLOCK_IO_PROTOCOL *bio = &b.blk.block_io;
	UINT8 *buf = malloc(64 * 512), *expect = malloc(64 * 512);

	fake_init(&f, VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_FLUSH);
	ASSERT_STATUS(virtio_blk_start(&b, &f.dev), EFI_SUCCESS);
	ASSERT_STATUS(bio->ReadBlocks(bio, 0, 10, 64 * 512, buf), EFI_SUCCESS);
	EXPECT(!memcmp(buf, f.disk + 10 * 512, 64 * 512));
	for (UINT32 i = 0; i < 64 * 512; i++)
		expect[i] = (UINT8)(i ^ 0x5a);
	ASSERT_STATUS(bio->WriteBlocks(bio, 0, 2000, 48 * 512, expect), EFI_SUCCESS);
	EXPECT(!memcmp(f.disk + 2000 * 512, expect, 48 * 512));
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(f.flushes, 1);
	/* The statuses of 13.9 come before the device is asked anything. */
	int before = f.requests;
	EXPECT_STATUS(bio->ReadBlocks(bio, 1, 0, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(bio->ReadBlocks(bio, 0, 0, 500, buf), EFI_BAD_BUFFER_SIZE);
	EXPECT_STATUS(bio->ReadBlocks(bio, 0, DISK_SECTORS, 512, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 0, DISK_SECTORS - 1, 1024, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 0, 0, 512, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 0, 5, 0, buf), EFI_SUCCESS);
	EXPECT_EQ(f.requests, before);
	fake_done(&f, &b);
	free(buf);
	free(expect);
}

TEST(virtio_blk_splits_into_segments_and_requests)
{
	struct fake f;
	struct virtio_blk b;
	UINTN size = 1024 * 512;
	UINT8 *buf = malloc(size);

	fake_init(&f, VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_SIZE_MAX | VIRTIO_BLK_F_SEG_MAX);
	set_config32(&f, VIRTIO_BLK_CFG_SIZE_MAX, 4096);
	set_config32(&f, VIRTIO_BLK_CFG_SEG_MAX, 5);
	ASSERT_STATUS(virtio_blk_start(&b, &f.dev), EFI_SUCCESS);
	f.requests = 0;
	ASSERT_STATUS(b.blk.block_io.ReadBlocks(&b.blk.block_io, 0, 1, size, buf), EFI_SUCCESS);
	EXPECT(!memcmp(buf, f.disk + 512, size));
	EXPECT_EQ(f.max_segment_seen, 4096);
	EXPECT_EQ(f.max_segments_seen, 5);
	/* 512 KiB in requests of 5 x 4 KiB. */
	EXPECT_EQ(f.requests, (size + 20479) / 20480);
	EXPECT_EQ(virtq_in_flight(&b.queue.vq), 0);
	fake_done(&f, &b);
	free(buf);
}

TEST(virtio_blk_follows_partial_mappings)
{
	struct fake f;
	struct virtio_blk b;
	UINTN size = 100 * 512;
	UINT8 *buf = malloc(size);

	fake_init(&f, VIRTIO_F_VERSION_1);
	ASSERT_STATUS(virtio_blk_start(&b, &f.dev), EFI_SUCCESS);
	f.map_limit = 3 * 512 + 100; /* not a whole number of blocks */
	f.requests = 0;
	ASSERT_STATUS(b.blk.block_io.ReadBlocks(&b.blk.block_io, 0, 7, size, buf), EFI_SUCCESS);
	EXPECT(!memcmp(buf, f.disk + 7 * 512, size));
	EXPECT_EQ(f.requests, (100 + 2) / 3);
	f.map_limit = 100; /* less than a block: nothing can move */
	EXPECT_STATUS(b.blk.block_io.ReadBlocks(&b.blk.block_io, 0, 7, 512, buf),
		      EFI_OUT_OF_RESOURCES);
	fake_done(&f, &b);
	free(buf);
}

TEST(virtio_blk_device_error_and_broken_ring)
{
	struct fake f;
	struct virtio_blk b;
	UINT8 buf[512];

	fake_init(&f, VIRTIO_F_VERSION_1);
	ASSERT_STATUS(virtio_blk_start(&b, &f.dev), EFI_SUCCESS);
	/* The device reports an I/O error for a request past its end. */
	EXPECT_STATUS(
	    virtio_blk_request(&b, VIRTIO_BLK_T_IN, DISK_SECTORS, (UINT64)(uintptr_t)buf, 512),
	    EFI_DEVICE_ERROR);
	EXPECT(!b.broken);
	/* A completion naming a chain that is not in flight: reset, then Reset revives it. */
	f.corrupt_used = true;
	EXPECT_STATUS(b.blk.block_io.ReadBlocks(&b.blk.block_io, 0, 0, 512, buf), EFI_DEVICE_ERROR);
	EXPECT(b.broken);
	EXPECT_EQ(f.status, 0);
	EXPECT_STATUS(b.blk.block_io.ReadBlocks(&b.blk.block_io, 0, 0, 512, buf), EFI_DEVICE_ERROR);
	f.corrupt_used = false;
	EXPECT_STATUS(b.blk.block_io.Reset(&b.blk.block_io, FALSE), EFI_SUCCESS);
	EXPECT(!b.broken);
	EXPECT_STATUS(b.blk.block_io.ReadBlocks(&b.blk.block_io, 0, 0, 512, buf), EFI_SUCCESS);
	EXPECT(!memcmp(buf, f.disk, 512));
	fake_done(&f, &b);
}
