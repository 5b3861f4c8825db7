/* The Start and Stop every virtio PCI driver without child handles shares (virtio-blk,
 * virtio-scsi, virtio-rng): open the PCI function (pci_driver), set up the virtio transport,
 * arrange the device's reset at ExitBootServices, then the driver's own set-up; Stop undoes
 * them in reverse. A driver's private structure begins with struct virtio_function. */
#ifndef DRIVERS_VIRTIO_FUNCTION_H
#define DRIVERS_VIRTIO_FUNCTION_H

#include <ember/drivers/pci_driver.h>
#include "virtio_pci.h"

struct virtio_function {
	struct pci_driver_dev pci;
	struct virtio_pci vp;
	EFI_EVENT exit_event;
};

struct virtio_function_ops {
	UINTN size;	   /* of the driver's structure, zeroed before start */
	UINT64 attributes; /* PCI attributes enabled where the function supports them */
	/* Sets the device up on its ready transport and publishes what it offers on
	 * controller; undoes its own steps when it fails. */
	EFI_STATUS (*start)(struct virtio_function *f, EFI_HANDLE controller);
	/* Withdraws what start published and takes the device down; an error (someone
	 * still holds a protocol) leaves everything as it was. */
	EFI_STATUS (*stop)(struct virtio_function *f, EFI_HANDLE controller);
};

/* The driver binding's Start for driver on controller. */
EFI_STATUS virtio_function_start(const struct virtio_function_ops *ops, EFI_HANDLE driver,
				 EFI_HANDLE controller);
/* The driver binding's Stop. */
EFI_STATUS virtio_function_stop(const struct virtio_function_ops *ops, EFI_HANDLE driver,
				EFI_HANDLE controller);
/* The function driver started on controller, or NULL. */
struct virtio_function *virtio_function_find(EFI_HANDLE driver, EFI_HANDLE controller);

#endif
