/* virtio-scsi bring-up (virtio 1.x, 5.6.5): features, the control and request queues, the
 * shared page, and the channel's limits from the device configuration; and the wait for one
 * chain, which every command and task management function uses. */
#define LOG_PREFIX "virtio-scsi: "
#include "virtio_scsi.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define POLL_US 5
/* Virtio addresses LUNs as 0x4000 | lun in two bytes (flat space, 5.6.6.1). */
#define VIRTIO_SCSI_LUN_LIMIT 0x3fff

static UINT32 config(struct virtio_scsi *s, UINT32 offset, UINT32 size)
{
	return (UINT32)s->dev->ops->read_config(s->dev, offset, size);
}

/* The limits of the channel; false when the device asks for headers Ember cannot hold. */
static bool read_limits(struct virtio_scsi *s)
{
	UINT32 seg_max = config(s, VIRTIO_SCSI_CFG_SEG_MAX, 4);
	UINT32 max_sectors = config(s, VIRTIO_SCSI_CFG_MAX_SECTORS, 4);
	UINT32 max_lun = config(s, VIRTIO_SCSI_CFG_MAX_LUN, 4);

	s->cdb_size = config(s, VIRTIO_SCSI_CFG_CDB_SIZE, 4);
	s->sense_size = config(s, VIRTIO_SCSI_CFG_SENSE_SIZE, 4);
	if (s->cdb_size < 6 || s->cdb_size > VIRTIO_SCSI_MAX_CDB ||
	    s->sense_size > VIRTIO_SCSI_MAX_SENSE) {
		log_debug("header sizes the driver cannot hold: cdb %u, sense %u\n", s->cdb_size,
			  s->sense_size);
		return false;
	}
	s->pt.max_cdb = (UINT8)MIN(s->cdb_size, 255u);
	/* The target is one byte of the virtio LUN field, whatever max_target says. */
	s->pt.max_target = (UINT16)MIN(config(s, VIRTIO_SCSI_CFG_MAX_TARGET, 2), 255u);
	s->pt.max_lun = (UINT16)MIN(max_lun, (UINT32)VIRTIO_SCSI_LUN_LIMIT);
	/* Two descriptors hold the headers; the rest is shared by both directions. */
	s->segments = (UINT16)MIN((UINT32)VIRTIO_SCSI_MAX_SEGMENTS, (s->request.vq.size - 2u) / 2);
	if (seg_max)
		s->segments = (UINT16)MIN((UINT32)s->segments, seg_max);
	/* max_sectors counts 512-byte sectors; 0 would mean no data at all, so it is taken as
	 * the largest transfer a 32-bit length field allows. */
	s->pt.max_transfer = max_sectors && max_sectors < 0x7fffff ? max_sectors * 512 : 0xfffff000;
	s->pt.bidirectional = (s->dev->features & VIRTIO_SCSI_F_INOUT) != 0;
	return true;
}

static EFI_STATUS create_queues(struct virtio_scsi *s)
{
	EFI_STATUS status = virtio_queue_create(s->dev, VIRTIO_SCSI_CONTROL_QUEUE,
						VIRTIO_SCSI_QUEUE_SIZE, &s->control);

	if (EFI_ERROR(status)) {
		log_debug("control queue: %r\n", status);
		return status;
	}
	status = virtio_queue_create(s->dev, VIRTIO_SCSI_REQUEST_QUEUE, VIRTIO_SCSI_QUEUE_SIZE,
				     &s->request);
	if (EFI_ERROR(status)) {
		log_debug("request queue: %r\n", status);
		virtio_queue_destroy(s->dev, &s->control);
		return status;
	}
	if (s->request.vq.size < 4 || s->control.vq.size < 2) {
		log_debug("queues too small\n");
		virtio_queue_destroy(s->dev, &s->request);
		virtio_queue_destroy(s->dev, &s->control);
		return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS bring_up(struct virtio_scsi *s)
{
	struct virtio_dev *dev = s->dev;
	EFI_STATUS status = virtio_negotiate(dev, VIRTIO_SCSI_F_INOUT);

	if (EFI_ERROR(status)) {
		log_debug("feature negotiation: %r\n", status);
		return status;
	}
	status = create_queues(s);
	if (EFI_ERROR(status))
		goto err_fail;
	status = EFI_UNSUPPORTED;
	if (!read_limits(s))
		goto err_queues;
	status = dev->ops->alloc_shared(dev, 1, (void **)&s->shared, &s->shared_addr,
					&s->shared_mapping);
	if (EFI_ERROR(status)) {
		log_debug("shared page: %r\n", status);
		goto err_queues;
	}
	mem_set(s->shared, 0, 4096);
	virtio_driver_ok(dev);
	s->broken = false;
	return EFI_SUCCESS;

err_queues:
	virtio_reset(dev);
	virtio_queue_destroy(dev, &s->request);
	virtio_queue_destroy(dev, &s->control);
err_fail:
	virtio_fail(dev);
	return status;
}

EFI_STATUS virtio_scsi_start(struct virtio_scsi *s, struct virtio_dev *dev)
{
	EFI_STATUS status;

	s->dev = dev;
	scsi_pass_thru_init(&s->pt, &virtio_scsi_ops);
	/* Virtio has no initiator ID on the channel; any target number may be used. */
	s->pt.mode.AdapterId = 0xffffffff;
	/* Buffers are mapped through PciIo, which copies what the device cannot reach. */
	s->pt.mode.IoAlign = 0;
	status = bring_up(s);
	if (EFI_ERROR(status))
		return status;
	log_debug("targets 0-%u, LUNs 0-%u, CDB %u bytes, sense %u bytes, %s interface\n",
		  s->pt.max_target, s->pt.max_lun, s->cdb_size, s->sense_size,
		  dev->legacy ? "legacy" : "modern");
	return EFI_SUCCESS;
}

void virtio_scsi_stop(struct virtio_scsi *s)
{
	virtio_reset(s->dev);
	virtio_queue_destroy(s->dev, &s->request);
	virtio_queue_destroy(s->dev, &s->control);
	if (s->shared) {
		s->dev->ops->free_shared(s->dev, 1, s->shared, s->shared_mapping);
		s->shared = NULL;
	}
}

EFI_STATUS virtio_scsi_restart(struct virtio_scsi *s)
{
	EFI_STATUS status;

	virtio_scsi_stop(s);
	status = bring_up(s);
	/* A device that does not come back has no queues or page: requests must fail. */
	s->broken = EFI_ERROR(status);
	return status;
}

EFI_STATUS virtio_scsi_run(struct virtio_scsi *s, struct virtio_queue *q,
			   const struct virtq_buf *bufs, UINT16 count, UINT64 timeout_us)
{
	UINT16 head, used_head;
	UINT32 len;
	EFI_STATUS status = virtq_add(&q->vq, bufs, count, &head);

	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	s->dev->ops->notify(s->dev, q->index);
	for (UINT64 waited = 0; !timeout_us || waited < timeout_us; waited += POLL_US) {
		status = virtq_get_used(&q->vq, &used_head, &len);
		if (status == EFI_SUCCESS && used_head == head)
			return EFI_SUCCESS;
		if (status != EFI_NOT_READY)
			break;
		core_stall_us(POLL_US);
	}
	/* The device still owns the buffers: a reset ends its DMA before they are reused. */
	log_warn("command timed out or the device broke its ring; resetting the channel\n");
	virtio_scsi_restart(s);
	return status == EFI_NOT_READY ? EFI_TIMEOUT : EFI_DEVICE_ERROR;
}
