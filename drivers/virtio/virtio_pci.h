/* The virtio-pci transport (virtio 1.x, 4.1) over EFI_PCI_IO_PROTOCOL: the modern interface
 * found through vendor capabilities, or the legacy one in BAR 0's I/O space. */
#ifndef DRIVERS_VIRTIO_PCI_H
#define DRIVERS_VIRTIO_PCI_H

#include <efi/protocol/pci_io.h>
#include "virtio.h"

#define VIRTIO_PCI_NOTIFY_CACHE 4

/* A register block of the modern interface: where a capability points. */
struct virtio_pci_region {
	UINT8 bar;
	bool io; /* an I/O BAR rather than a memory BAR */
	UINT32 offset;
	UINT32 length; /* 0 when the capability is absent */
};

struct virtio_pci {
	struct virtio_dev dev;
	EFI_PCI_IO_PROTOCOL *pci_io;
	UINT16 device_id;
	struct virtio_pci_region common, notify, isr, device;
	UINT32 notify_multiplier;
	/* Where each of the first queues is notified (offset in the notify region), found
	 * when the queue is enabled; later queues are looked up at each notification. */
	UINT32 notify_offset[VIRTIO_PCI_NOTIFY_CACHE];
};

/* Finds the interface of the device behind pci_io (modern when its capabilities are there,
 * else legacy for a transitional device) and sets vp->dev.ops. EFI_UNSUPPORTED when it has
 * neither. */
EFI_STATUS virtio_pci_init(struct virtio_pci *vp, EFI_PCI_IO_PROTOCOL *pci_io);

/* The virtio device type (VIRTIO_ID_*) of a PCI function, or 0 when it is not virtio. */
UINT16 virtio_pci_device_type(EFI_PCI_IO_PROTOCOL *pci_io);

/* Supported()'s test of a PCI function for a virtio driver: vendor 0x1AF4, device ID the
 * modern one of type (0x1040 + type) or the transitional one given (0 when the type has
 * none), and a device type that agrees. */
bool virtio_pci_is(EFI_PCI_IO_PROTOCOL *pci_io, UINT16 type, UINT16 transitional_id);

/* Transports, set up by virtio_pci_init. */
extern const struct virtio_transport virtio_pci_modern_ops;
extern const struct virtio_transport virtio_pci_legacy_ops;

/* Modern-interface capability walk: fills common/notify/isr/device; true when the common
 * and notify regions were found (device configuration is optional). */
bool virtio_pci_find_caps(struct virtio_pci *vp);

/* DMA through PciIo, shared by both interfaces. */
EFI_STATUS virtio_pci_alloc_shared(struct virtio_dev *dev, UINTN pages, void **host,
				   UINT64 *dev_addr, void **mapping);
void virtio_pci_free_shared(struct virtio_dev *dev, UINTN pages, void *host, void *mapping);
EFI_STATUS virtio_pci_map(struct virtio_dev *dev, bool device_writes, void *host, UINTN *bytes,
			  UINT64 *dev_addr, void **mapping);
void virtio_pci_unmap(struct virtio_dev *dev, void *mapping);

#endif
