/* Mapping callers' buffers for AHCI transfers through PciIo (UEFI 2.10, 14.4.2 Map). */
#include "ahci.h"
#include <ember/lib/util.h>

EFI_STATUS ahci_map(struct ahci_hba *hba, bool device_reads, void *host, UINTN *bytes,
		    UINT64 *dev_addr, void **mapping)
{
	EFI_PCI_IO_PROTOCOL *pci_io = hba->pci_io;
	/* BusMasterRead: the HBA reads system memory (a disk write). */
	EFI_PCI_IO_PROTOCOL_OPERATION op =
	    device_reads ? EfiPciIoOperationBusMasterRead : EfiPciIoOperationBusMasterWrite;
	EFI_STATUS status = pci_io->Map(pci_io, op, host, bytes, dev_addr, mapping);

	if (EFI_ERROR(status))
		return status;
	/* An HBA without 64-bit addressing cannot reach a buffer above 4 GiB. */
	if (!(hba->cap & AHCI_CAP_S64A) && (*dev_addr + *bytes - 1) >> 32) {
		pci_io->Unmap(pci_io, *mapping);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

void ahci_unmap(struct ahci_hba *hba, void *mapping)
{
	hba->pci_io->Unmap(hba->pci_io, mapping);
}
