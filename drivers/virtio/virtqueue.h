/* Split virtqueues (virtio 1.x, section 2.7), the driver's side: the descriptor table with its
 * free list, the available ring the driver publishes into and the used ring it consumes.
 * Indexes run free modulo 2^16. The ring memory is the caller's (DMA-able, zeroed here); the
 * bookkeeping is pool memory. No transport code: the caller notifies the device. */
#ifndef DRIVERS_VIRTQUEUE_H
#define DRIVERS_VIRTQUEUE_H

#include <stdbool.h>
#include <efi/status.h>
#include "virtio_spec.h"

struct virtqueue {
	UINT16 size;	   /* entries, a power of two */
	UINT16 num_free;   /* descriptors on the free list */
	UINT16 free_head;  /* first free descriptor */
	UINT16 avail_idx;  /* the next avail->idx to publish */
	UINT16 last_used;  /* the next used->idx entry to consume */
	UINT16 *chain_len; /* per head: descriptors in its chain, 0 when not in flight */
	volatile struct virtq_desc *desc;
	volatile struct virtq_avail *avail;
	volatile struct virtq_used *used;
	UINT64 desc_addr, avail_addr, used_addr; /* as the device sees them */
};

/* One buffer of a chain: a device address and a length; device_writes for buffers the
 * device fills (VIRTQ_DESC_F_WRITE), which must follow every buffer it reads. */
struct virtq_buf {
	UINT64 addr;
	UINT32 len;
	bool device_writes;
};

/* Bytes a ring of size entries needs. legacy places the used ring at the next 4 KiB
 * boundary (the legacy interface's fixed layout); otherwise the parts are packed with their
 * own alignments (desc 16, avail 2, used 4). */
UINTN virtq_ring_bytes(UINT16 size, bool legacy);

/* Lays a ring out in memory at host, which the device sees at dev_addr (both 4 KiB-aligned,
 * virtq_ring_bytes long), and zeroes it. size must be a power of two, at most 32768. */
EFI_STATUS virtq_init(struct virtqueue *vq, UINT16 size, void *host, UINT64 dev_addr, bool legacy);

/* Releases the bookkeeping (not the ring memory). */
void virtq_free(struct virtqueue *vq);

/* Chains count buffers and publishes the chain in the available ring; *head names it in the
 * used ring later. EFI_OUT_OF_RESOURCES when fewer than count descriptors are free,
 * EFI_INVALID_PARAMETER for an empty chain or a readable buffer after a writable one. */
EFI_STATUS virtq_add(struct virtqueue *vq, const struct virtq_buf *bufs, UINT16 count,
		     UINT16 *head);

/* Takes the next used element, if the device returned one: frees its chain and gives its
 * head and the byte count the device wrote. EFI_NOT_READY when none is pending;
 * EFI_DEVICE_ERROR when the device returned a head that is not in flight. */
EFI_STATUS virtq_get_used(struct virtqueue *vq, UINT16 *head, UINT32 *len);

/* Descriptors in flight (handed to the device and not yet returned). */
UINT16 virtq_in_flight(const struct virtqueue *vq);

#endif
