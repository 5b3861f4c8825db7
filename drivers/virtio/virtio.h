/* A virtio device as its drivers see it: a transport (virtio-pci modern or legacy, or a fake
 * one in unit tests) behind a table of operations, and the generic steps of device
 * initialization (virtio 1.x, 3.1) and queue set-up on top of it. */
#ifndef DRIVERS_VIRTIO_H
#define DRIVERS_VIRTIO_H

#include <stdbool.h>
#include "virtqueue.h"

struct virtio_dev;

/* What a transport provides. DMA goes through it too, so that the device sees the addresses
 * the platform's DMA mapping gives (PciIo Map on PCI). */
struct virtio_transport {
	UINT8 (*get_status)(struct virtio_dev *dev);
	void (*set_status)(struct virtio_dev *dev, UINT8 status);
	/* The feature bits the device offers (only the low 32 on a legacy interface). */
	UINT64 (*get_features)(struct virtio_dev *dev);
	void (*set_features)(struct virtio_dev *dev, UINT64 features);
	/* Reads size (1, 2, 4 or 8) bytes of device-specific configuration at offset. */
	UINT64 (*read_config)(struct virtio_dev *dev, UINT32 offset, UINT32 size);
	/* The largest size queue index may have; 0 when the queue does not exist. */
	UINT16 (*queue_max)(struct virtio_dev *dev, UINT16 index);
	/* Gives the device a ring of vq->size entries and enables the queue. */
	EFI_STATUS (*queue_enable)(struct virtio_dev *dev, UINT16 index,
				   const struct virtqueue *vq);
	void (*notify)(struct virtio_dev *dev, UINT16 index);
	/* Memory both sides use (rings, request headers): pages zeroed by the caller. */
	EFI_STATUS (*alloc_shared)(struct virtio_dev *dev, UINTN pages, void **host,
				   UINT64 *dev_addr, void **mapping);
	void (*free_shared)(struct virtio_dev *dev, UINTN pages, void *host, void *mapping);
	/* Maps a caller's buffer for one transfer; *bytes may come back smaller. */
	EFI_STATUS (*map)(struct virtio_dev *dev, bool device_writes, void *host, UINTN *bytes,
			  UINT64 *dev_addr, void **mapping);
	void (*unmap)(struct virtio_dev *dev, void *mapping);
};

struct virtio_dev {
	const struct virtio_transport *ops;
	bool legacy;	 /* the legacy interface: fixed queue sizes, 4 KiB ring layout */
	UINT64 features; /* what was negotiated */
};

/* A queue with the shared memory that holds its ring. */
struct virtio_queue {
	struct virtqueue vq;
	UINT16 index;
	UINTN pages;
	void *ring;
	void *mapping;
};

/* Resets the device and waits (up to a second) for the reset to complete. */
EFI_STATUS virtio_reset(struct virtio_dev *dev);

/* Reset, ACKNOWLEDGE, DRIVER, then feature negotiation: accepts the bits of wanted the
 * device offers (VERSION_1 is required on a modern interface and added here) and checks
 * that FEATURES_OK sticks. The result is in dev->features. Marks the device FAILED when
 * negotiation fails. */
EFI_STATUS virtio_negotiate(struct virtio_dev *dev, UINT64 wanted);

/* Sets up queue index with at most max_size entries (legacy devices dictate their size). */
EFI_STATUS virtio_queue_create(struct virtio_dev *dev, UINT16 index, UINT16 max_size,
			       struct virtio_queue *q);

/* Releases a queue's memory; the device must be reset (or the queue never enabled). */
void virtio_queue_destroy(struct virtio_dev *dev, struct virtio_queue *q);

/* Sets DRIVER_OK: the device is live. */
void virtio_driver_ok(struct virtio_dev *dev);

/* Marks the device FAILED (the driver gives up on it). */
void virtio_fail(struct virtio_dev *dev);

/* An EXIT_BOOT_SERVICES event that resets dev, so that it stops all DMA into the memory the
 * OS now owns; nothing else is touched (the memory map is the OS's). Close it with
 * event_close when the driver stops. */
EFI_STATUS virtio_reset_at_exit(struct virtio_dev *dev, EFI_EVENT *event);

#endif
