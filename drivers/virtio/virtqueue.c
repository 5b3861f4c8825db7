/* Split virtqueue bookkeeping (virtio 1.x, 2.7). */
#include "virtqueue.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

static UINTN avail_bytes(UINT16 size)
{
	return 2 * sizeof(UINT16) + size * sizeof(UINT16) + sizeof(UINT16);
}

static UINTN used_bytes(UINT16 size)
{
	return 2 * sizeof(UINT16) + size * sizeof(struct virtq_used_elem) + sizeof(UINT16);
}

/* Offset of the used ring from the start of the ring memory. */
static UINTN used_offset(UINT16 size, bool legacy)
{
	UINTN end_of_avail = size * sizeof(struct virtq_desc) + avail_bytes(size);

	return ALIGN_UP(end_of_avail, legacy ? (UINTN)VIRTIO_LEGACY_QUEUE_ALIGN : 4);
}

UINTN virtq_ring_bytes(UINT16 size, bool legacy)
{
	return used_offset(size, legacy) + used_bytes(size);
}

EFI_STATUS virtq_init(struct virtqueue *vq, UINT16 size, void *host, UINT64 dev_addr, bool legacy)
{
	UINT8 *base = host;

	if (!size || (size & (size - 1)) || size > 32768)
		return EFI_INVALID_PARAMETER;
	mem_set(vq, 0, sizeof(*vq));
	vq->chain_len = pool_alloc(size * sizeof(UINT16));
	if (!vq->chain_len)
		return EFI_OUT_OF_RESOURCES;
	mem_set(host, 0, virtq_ring_bytes(size, legacy));
	vq->size = size;
	vq->desc = (volatile struct virtq_desc *)base;
	vq->avail = (volatile struct virtq_avail *)(base + size * sizeof(struct virtq_desc));
	vq->used = (volatile struct virtq_used *)(base + used_offset(size, legacy));
	vq->desc_addr = dev_addr;
	vq->avail_addr = dev_addr + size * sizeof(struct virtq_desc);
	vq->used_addr = dev_addr + used_offset(size, legacy);
	/* Every descriptor starts on the free list, linked through its next field. */
	for (UINT16 i = 0; i < size; i++)
		vq->desc[i].next = (UINT16)(i + 1);
	vq->free_head = 0;
	vq->num_free = size;
	return EFI_SUCCESS;
}

void virtq_free(struct virtqueue *vq)
{
	pool_free(vq->chain_len);
	vq->chain_len = NULL;
	vq->num_free = 0;
}

static bool chain_is_ordered(const struct virtq_buf *bufs, UINT16 count)
{
	for (UINT16 i = 1; i < count; i++)
		if (bufs[i - 1].device_writes && !bufs[i].device_writes)
			return false;
	return true;
}

EFI_STATUS virtq_add(struct virtqueue *vq, const struct virtq_buf *bufs, UINT16 count, UINT16 *head)
{
	UINT16 first = vq->free_head, index = first, last = first;

	if (!count || !chain_is_ordered(bufs, count))
		return EFI_INVALID_PARAMETER;
	if (count > vq->num_free)
		return EFI_OUT_OF_RESOURCES;
	for (UINT16 i = 0; i < count; i++) {
		volatile struct virtq_desc *d = &vq->desc[index];

		d->addr = bufs[i].addr;
		d->len = bufs[i].len;
		d->flags = (UINT16)((bufs[i].device_writes ? VIRTQ_DESC_F_WRITE : 0) |
				    (i + 1 < count ? VIRTQ_DESC_F_NEXT : 0));
		last = index;
		index = d->next;
	}
	vq->free_head = vq->desc[last].next;
	vq->num_free = (UINT16)(vq->num_free - count);
	vq->chain_len[first] = count;
	vq->avail->ring[vq->avail_idx & (vq->size - 1)] = first;
	/* The descriptors and the ring entry must be visible before the index that
	 * publishes them (2.7.13). */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	vq->avail_idx++;
	vq->avail->idx = vq->avail_idx;
	*head = first;
	return EFI_SUCCESS;
}

/* Puts a returned chain back on the free list. */
static void free_chain(struct virtqueue *vq, UINT16 head)
{
	UINT16 last = head;

	for (UINT16 i = 1; i < vq->chain_len[head]; i++)
		last = vq->desc[last].next;
	vq->desc[last].next = vq->free_head;
	vq->free_head = head;
	vq->num_free = (UINT16)(vq->num_free + vq->chain_len[head]);
	vq->chain_len[head] = 0;
}

EFI_STATUS virtq_get_used(struct virtqueue *vq, UINT16 *head, UINT32 *len)
{
	volatile struct virtq_used_elem *elem;
	UINT32 id;

	if (vq->used->idx == vq->last_used)
		return EFI_NOT_READY;
	/* Read the element only after seeing the index that published it. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	elem = &vq->used->ring[vq->last_used & (vq->size - 1)];
	id = elem->id;
	if (id >= vq->size || !vq->chain_len[id])
		return EFI_DEVICE_ERROR;
	*head = (UINT16)id;
	*len = elem->len;
	vq->last_used++;
	free_chain(vq, (UINT16)id);
	return EFI_SUCCESS;
}

UINT16 virtq_in_flight(const struct virtqueue *vq)
{
	return (UINT16)(vq->size - vq->num_free);
}
