/* Device initialization (virtio 1.x, 3.1.1) and queue set-up over any transport. */
#include "virtio.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define RESET_POLL_US 10
#define RESET_TIMEOUT_US 1000000
#define PAGE_SIZE 4096

EFI_STATUS virtio_reset(struct virtio_dev *dev)
{
	dev->ops->set_status(dev, 0);
	/* A modern device is reset only once status reads back 0 (4.1.4.3.2). */
	for (UINT32 waited = 0; waited < RESET_TIMEOUT_US; waited += RESET_POLL_US) {
		if (dev->ops->get_status(dev) == 0)
			return EFI_SUCCESS;
		core_stall_us(RESET_POLL_US);
	}
	return EFI_TIMEOUT;
}

static void add_status(struct virtio_dev *dev, UINT8 bits)
{
	dev->ops->set_status(dev, (UINT8)(dev->ops->get_status(dev) | bits));
}

void virtio_fail(struct virtio_dev *dev)
{
	add_status(dev, VIRTIO_STATUS_FAILED);
}

void virtio_driver_ok(struct virtio_dev *dev)
{
	add_status(dev, VIRTIO_STATUS_DRIVER_OK);
}

EFI_STATUS virtio_negotiate(struct virtio_dev *dev, UINT64 wanted)
{
	EFI_STATUS status = virtio_reset(dev);
	UINT64 offered;

	if (EFI_ERROR(status))
		return status;
	add_status(dev, VIRTIO_STATUS_ACKNOWLEDGE);
	add_status(dev, VIRTIO_STATUS_DRIVER);
	offered = dev->ops->get_features(dev);
	if (dev->legacy) {
		dev->features = offered & wanted & 0xffffffffULL;
		dev->ops->set_features(dev, dev->features);
		return EFI_SUCCESS; /* legacy devices know no FEATURES_OK */
	}
	if (!(offered & VIRTIO_F_VERSION_1)) {
		virtio_fail(dev);
		return EFI_UNSUPPORTED;
	}
	/* Every DMA address goes through the platform's mapping, as ACCESS_PLATFORM asks. */
	dev->features = offered & (wanted | VIRTIO_F_VERSION_1 | VIRTIO_F_ACCESS_PLATFORM);
	dev->ops->set_features(dev, dev->features);
	add_status(dev, VIRTIO_STATUS_FEATURES_OK);
	if (!(dev->ops->get_status(dev) & VIRTIO_STATUS_FEATURES_OK)) {
		log_warn("virtio: device refused features %#llx\n",
			 (unsigned long long)dev->features);
		virtio_fail(dev);
		return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

/* The queue size to use: the device's own on legacy interfaces, else the largest power of
 * two within both limits. */
static UINT16 queue_size(struct virtio_dev *dev, UINT16 device_max, UINT16 max_size)
{
	UINT16 size = 1;

	if (dev->legacy)
		return device_max;
	while ((UINT32)size * 2 <= MIN(device_max, max_size))
		size = (UINT16)(size * 2);
	return size;
}

EFI_STATUS virtio_queue_create(struct virtio_dev *dev, UINT16 index, UINT16 max_size,
			       struct virtio_queue *q)
{
	UINT16 device_max = dev->ops->queue_max(dev, index), size;
	UINT64 dev_addr;
	EFI_STATUS status;

	mem_set(q, 0, sizeof(*q));
	if (!device_max)
		return EFI_NOT_FOUND;
	size = queue_size(dev, device_max, max_size);
	q->index = index;
	q->pages = ALIGN_UP(virtq_ring_bytes(size, dev->legacy), PAGE_SIZE) / PAGE_SIZE;
	status = dev->ops->alloc_shared(dev, q->pages, &q->ring, &dev_addr, &q->mapping);
	if (EFI_ERROR(status))
		return status;
	status = virtq_init(&q->vq, size, q->ring, dev_addr, dev->legacy);
	if (EFI_ERROR(status))
		goto err_free;
	status = dev->ops->queue_enable(dev, index, &q->vq);
	if (EFI_ERROR(status))
		goto err_vq;
	return EFI_SUCCESS;

err_vq:
	virtq_free(&q->vq);
err_free:
	dev->ops->free_shared(dev, q->pages, q->ring, q->mapping);
	q->ring = NULL;
	return status;
}

void virtio_queue_destroy(struct virtio_dev *dev, struct virtio_queue *q)
{
	if (!q->ring)
		return;
	virtq_free(&q->vq);
	dev->ops->free_shared(dev, q->pages, q->ring, q->mapping);
	q->ring = NULL;
}

/* ExitBootServices: no waiting for the reset to complete, no memory freed. */
static void EFIAPI reset_at_exit(EFI_EVENT event, void *context)
{
	struct virtio_dev *dev = context;

	dev->ops->set_status(dev, 0);
}

EFI_STATUS virtio_reset_at_exit(struct virtio_dev *dev, EFI_EVENT *event)
{
	return event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, reset_at_exit, dev, NULL,
			    event);
}
