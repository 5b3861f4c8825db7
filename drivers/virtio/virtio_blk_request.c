/* One virtio-blk request (virtio 1.x, 5.2.6): a readable header, the data split into
 * segments no longer than the device allows, and a writable status byte; the driver polls
 * the used ring for its completion. */
#include "virtio_blk.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define HEADER_OFFSET 0
#define STATUS_OFFSET 16
#define STATUS_PENDING 0xff
#define POLL_US 5
#define TIMEOUT_US 30000000ULL

/* Builds the chain: header, data segments, status. Returns the number of buffers. */
static UINT16 build_chain(struct virtio_blk *b, struct virtq_buf *bufs, UINT32 type, UINT64 data,
			  UINT32 bytes)
{
	bool device_writes = type == VIRTIO_BLK_T_IN || type == VIRTIO_BLK_T_GET_ID;
	UINT16 n = 0;

	bufs[n++] = (struct virtq_buf){b->shared_addr + HEADER_OFFSET,
				       sizeof(struct virtio_blk_req_header), false};
	while (bytes) {
		UINT32 len = MIN(bytes, b->max_segment_bytes);

		bufs[n++] = (struct virtq_buf){data, len, device_writes};
		data += len;
		bytes -= len;
	}
	bufs[n++] = (struct virtq_buf){b->shared_addr + STATUS_OFFSET, 1, true};
	return n;
}

/* Waits for the one request in flight. On a timeout the device still owns the buffers, so
 * it is reset (which ends its DMA) before the caller releases them. */
static EFI_STATUS wait_used(struct virtio_blk *b, UINT16 head)
{
	UINT16 used_head;
	UINT32 len;

	for (UINT64 waited = 0; waited < TIMEOUT_US; waited += POLL_US) {
		EFI_STATUS status = virtq_get_used(&b->queue.vq, &used_head, &len);

		if (status == EFI_SUCCESS)
			return used_head == head ? EFI_SUCCESS : EFI_DEVICE_ERROR;
		if (status != EFI_NOT_READY)
			break;
		core_stall_us(POLL_US);
	}
	log_error("virtio-blk: request timed out or the device broke the ring; resetting it\n");
	virtio_reset(b->dev);
	b->broken = true;
	return EFI_DEVICE_ERROR;
}

EFI_STATUS virtio_blk_request(struct virtio_blk *b, UINT32 type, UINT64 sector, UINT64 data,
			      UINT32 bytes)
{
	struct virtq_buf bufs[VIRTIO_BLK_MAX_SEGMENTS + 2];
	volatile struct virtio_blk_req_header *header;
	volatile UINT8 *status_byte;
	UINT16 head;
	EFI_STATUS status;

	/* A broken device may have no request page any more (a restart that failed). */
	if (b->broken)
		return EFI_DEVICE_ERROR;
	if ((UINT64)b->max_segments * b->max_segment_bytes < bytes)
		return EFI_INVALID_PARAMETER;
	header = (void *)(b->shared + HEADER_OFFSET);
	status_byte = b->shared + STATUS_OFFSET;
	header->type = type;
	header->reserved = 0;
	header->sector = sector;
	*status_byte = STATUS_PENDING;
	status = virtq_add(&b->queue.vq, bufs, build_chain(b, bufs, type, data, bytes), &head);
	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	b->dev->ops->notify(b->dev, b->queue.index);
	status = wait_used(b, head);
	if (EFI_ERROR(status))
		return status;
	if (*status_byte != VIRTIO_BLK_S_OK) {
		if (type != VIRTIO_BLK_T_GET_ID) /* optional: an old device may not know it */
			log_warn("virtio-blk: request type %u at sector %llu failed: status %u\n",
				 type, (unsigned long long)sector, *status_byte);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}
