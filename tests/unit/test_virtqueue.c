/* Split virtqueues (drivers/virtio/virtqueue.c) against a fake device that consumes the
 * available ring and fills the used ring: layout, free-list accounting, index wrap-around
 * and rejection of bad chains and bad completions. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/util.h>
#include "../../drivers/virtio/virtqueue.h"

struct ring {
	void *mem;
	struct virtqueue vq;
	UINT16 device_avail; /* the fake device's next avail index */
};

static void ring_setup(struct ring *r, UINT16 size, bool legacy)
{
	UINTN bytes = ALIGN_UP(virtq_ring_bytes(size, legacy), 4096);

	r->mem = aligned_alloc(4096, bytes);
	ASSERT(r->mem != NULL);
	memset(r->mem, 0xa5, bytes);
	r->device_avail = 0;
	ASSERT_STATUS(virtq_init(&r->vq, size, r->mem, (UINT64)(uintptr_t)r->mem, legacy),
		      EFI_SUCCESS);
}

static void ring_teardown(struct ring *r)
{
	virtq_free(&r->vq);
	free(r->mem);
}

/* The device takes the next available chain and returns it with len bytes written;
 * returns the head, after checking the chain has count buffers. */
static UINT16 device_complete(struct ring *r, UINT16 count, UINT32 len)
{
	struct virtqueue *vq = &r->vq;
	UINT16 head, index, n = 1;

	ASSERT(vq->avail->idx != r->device_avail);
	head = vq->avail->ring[r->device_avail % vq->size];
	r->device_avail++;
	for (index = head; vq->desc[index].flags & VIRTQ_DESC_F_NEXT; index = vq->desc[index].next)
		n++;
	EXPECT_EQ(n, count);
	vq->used->ring[vq->used->idx % vq->size].id = head;
	vq->used->ring[vq->used->idx % vq->size].len = len;
	vq->used->idx++;
	return head;
}

TEST(virtq_layout_modern_and_legacy)
{
	struct ring r;

	/* The used ring is 4-byte aligned: 2 bytes of padding after the avail ring. */
	EXPECT_EQ(virtq_ring_bytes(256, false), 256 * 16 + 6 + 512 + 2 + 6 + 8 * 256);
	/* Legacy: the used ring starts at the next 4 KiB boundary after the avail ring. */
	EXPECT_EQ(virtq_ring_bytes(256, true), 8192 + 6 + 8 * 256);
	ring_setup(&r, 256, true);
	EXPECT_EQ(r.vq.avail_addr - r.vq.desc_addr, 4096);
	EXPECT_EQ(r.vq.used_addr - r.vq.desc_addr, 8192);
	EXPECT_EQ(r.vq.num_free, 256);
	EXPECT_EQ(r.vq.avail->idx, 0);
	EXPECT_EQ(r.vq.used->idx, 0);
	ring_teardown(&r);
	ring_setup(&r, 8, false);
	EXPECT_EQ(r.vq.avail_addr - r.vq.desc_addr, 128);
	EXPECT_EQ(r.vq.used_addr - r.vq.desc_addr, ALIGN_UP(128 + 6 + 16, 4));
	ring_teardown(&r);
}

TEST(virtq_rejects_bad_sizes)
{
	struct virtqueue vq;
	UINT8 mem[4096];

	EXPECT_STATUS(virtq_init(&vq, 0, mem, 0, false), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(virtq_init(&vq, 12, mem, 0, false), EFI_INVALID_PARAMETER);
}

TEST(virtq_add_builds_chain_and_publishes)
{
	struct ring r;
	struct virtq_buf bufs[3] = {{0x1000, 16, false}, {0x2000, 512, true}, {0x3000, 1, true}};
	UINT16 head, used_head;
	UINT32 len;

	ring_setup(&r, 8, false);
	ASSERT_STATUS(virtq_add(&r.vq, bufs, 3, &head), EFI_SUCCESS);
	EXPECT_EQ(r.vq.avail->idx, 1);
	EXPECT_EQ(r.vq.avail->ring[0], head);
	EXPECT_EQ(r.vq.desc[head].addr, 0x1000);
	EXPECT_EQ(r.vq.desc[head].len, 16);
	EXPECT_EQ(r.vq.desc[head].flags, VIRTQ_DESC_F_NEXT);
	UINT16 second = r.vq.desc[head].next, third = r.vq.desc[second].next;
	EXPECT_EQ(r.vq.desc[second].flags, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE);
	EXPECT_EQ(r.vq.desc[third].flags, VIRTQ_DESC_F_WRITE);
	EXPECT_EQ(r.vq.desc[third].addr, 0x3000);
	EXPECT_EQ(virtq_in_flight(&r.vq), 3);
	EXPECT_STATUS(virtq_get_used(&r.vq, &used_head, &len), EFI_NOT_READY);
	device_complete(&r, 3, 513);
	ASSERT_STATUS(virtq_get_used(&r.vq, &used_head, &len), EFI_SUCCESS);
	EXPECT_EQ(used_head, head);
	EXPECT_EQ(len, 513);
	EXPECT_EQ(virtq_in_flight(&r.vq), 0);
	EXPECT_STATUS(virtq_get_used(&r.vq, &used_head, &len), EFI_NOT_READY);
	ring_teardown(&r);
}

TEST(virtq_runs_out_of_descriptors_and_recovers)
{
	struct ring r;
	struct virtq_buf bufs[5] = {
	    {1, 1, false}, {2, 1, false}, {3, 1, false}, {4, 1, true}, {5, 1, true}};
	UINT16 a, b, head;
	UINT32 len;

	ring_setup(&r, 8, false);
	ASSERT_STATUS(virtq_add(&r.vq, bufs, 5, &a), EFI_SUCCESS);
	EXPECT_STATUS(virtq_add(&r.vq, bufs, 4, &b), EFI_OUT_OF_RESOURCES);
	ASSERT_STATUS(virtq_add(&r.vq, bufs, 3, &b), EFI_SUCCESS);
	EXPECT_EQ(r.vq.num_free, 0);
	EXPECT_STATUS(virtq_add(&r.vq, bufs, 1, &head), EFI_OUT_OF_RESOURCES);
	/* Completion out of order: the second chain first. */
	r.device_avail = 1;
	device_complete(&r, 3, 0);
	ASSERT_STATUS(virtq_get_used(&r.vq, &head, &len), EFI_SUCCESS);
	EXPECT_EQ(head, b);
	EXPECT_EQ(r.vq.num_free, 3);
	r.device_avail = 0;
	device_complete(&r, 5, 0);
	ASSERT_STATUS(virtq_get_used(&r.vq, &head, &len), EFI_SUCCESS);
	EXPECT_EQ(head, a);
	EXPECT_EQ(r.vq.num_free, 8);
	ASSERT_STATUS(virtq_add(&r.vq, bufs, 5, &head), EFI_SUCCESS);
	ring_teardown(&r);
}

TEST(virtq_indexes_wrap_around)
{
	struct ring r;
	struct virtq_buf bufs[2] = {{0x10, 16, false}, {0x20, 1, true}};
	UINT16 head, used_head;
	UINT32 len;

	ring_setup(&r, 4, false);
	/* 70000 requests carry both free-running indexes past 65535. */
	for (UINT32 i = 0; i < 70000; i++) {
		if (EFI_ERROR(virtq_add(&r.vq, bufs, 2, &head)) ||
		    device_complete(&r, 2, i) != head ||
		    EFI_ERROR(virtq_get_used(&r.vq, &used_head, &len)) || used_head != head ||
		    len != i) {
			EXPECT(!"request failed");
			break;
		}
	}
	EXPECT_EQ(r.vq.avail->idx, (UINT16)70000);
	EXPECT_EQ(r.vq.last_used, (UINT16)70000);
	EXPECT_EQ(r.vq.num_free, 4);
	ring_teardown(&r);
}

TEST(virtq_rejects_bad_chains)
{
	struct ring r;
	struct virtq_buf bad[2] = {{1, 1, true}, {2, 1, false}};
	UINT16 head;

	ring_setup(&r, 4, false);
	EXPECT_STATUS(virtq_add(&r.vq, bad, 0, &head), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(virtq_add(&r.vq, bad, 2, &head), EFI_INVALID_PARAMETER);
	EXPECT_EQ(r.vq.num_free, 4);
	EXPECT_EQ(r.vq.avail->idx, 0);
	ring_teardown(&r);
}

TEST(virtq_rejects_completion_of_unknown_chain)
{
	struct ring r;
	struct virtq_buf bufs[1] = {{1, 1, false}};
	UINT16 head;
	UINT32 len;

	ring_setup(&r, 4, false);
	ASSERT_STATUS(virtq_add(&r.vq, bufs, 1, &head), EFI_SUCCESS);
	/* A head that was never handed out, then one out of range. */
	r.vq.used->ring[0].id = (UINT16)(head + 1);
	r.vq.used->idx = 1;
	EXPECT_STATUS(virtq_get_used(&r.vq, &head, &len), EFI_DEVICE_ERROR);
	r.vq.used->ring[0].id = 99;
	EXPECT_STATUS(virtq_get_used(&r.vq, &head, &len), EFI_DEVICE_ERROR);
	EXPECT_EQ(r.vq.num_free, 3);
	ring_teardown(&r);
}
