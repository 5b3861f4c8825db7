/* DMA for virtio-pci devices through EFI_PCI_IO_PROTOCOL (UEFI 2.10, 14.4: AllocateBuffer,
 * Map, Unmap): shared rings are common buffers, request data is mapped per transfer. */
#include "virtio_pci.h"
#include <ember/lib/util.h>

#define PAGE_SIZE 4096

static EFI_PCI_IO_PROTOCOL *pci_io_of(struct virtio_dev *dev)
{
	return container_of(dev, struct virtio_pci, dev)->pci_io;
}

EFI_STATUS virtio_pci_alloc_shared(struct virtio_dev *dev, UINTN pages, void **host,
				   UINT64 *dev_addr, void **mapping)
{
	EFI_PCI_IO_PROTOCOL *pci_io = pci_io_of(dev);
	UINTN bytes = pages * PAGE_SIZE;
	EFI_STATUS status;

	status =
	    pci_io->AllocateBuffer(pci_io, AllocateAnyPages, EfiBootServicesData, pages, host, 0);
	if (EFI_ERROR(status))
		return status;
	status = pci_io->Map(pci_io, EfiPciIoOperationBusMasterCommonBuffer, *host, &bytes,
			     dev_addr, mapping);
	if (!EFI_ERROR(status) && bytes != pages * PAGE_SIZE) {
		pci_io->Unmap(pci_io, *mapping);
		status = EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status))
		pci_io->FreeBuffer(pci_io, pages, *host);
	return status;
}

void virtio_pci_free_shared(struct virtio_dev *dev, UINTN pages, void *host, void *mapping)
{
	EFI_PCI_IO_PROTOCOL *pci_io = pci_io_of(dev);

	pci_io->Unmap(pci_io, mapping);
	pci_io->FreeBuffer(pci_io, pages, host);
}

EFI_STATUS virtio_pci_map(struct virtio_dev *dev, bool device_writes, void *host, UINTN *bytes,
			  UINT64 *dev_addr, void **mapping)
{
	EFI_PCI_IO_PROTOCOL *pci_io = pci_io_of(dev);
	/* BusMasterWrite: the device writes system memory (a disk read). */
	EFI_PCI_IO_PROTOCOL_OPERATION op =
	    device_writes ? EfiPciIoOperationBusMasterWrite : EfiPciIoOperationBusMasterRead;

	return pci_io->Map(pci_io, op, host, bytes, dev_addr, mapping);
}

void virtio_pci_unmap(struct virtio_dev *dev, void *mapping)
{
	EFI_PCI_IO_PROTOCOL *pci_io = pci_io_of(dev);

	pci_io->Unmap(pci_io, mapping);
}
