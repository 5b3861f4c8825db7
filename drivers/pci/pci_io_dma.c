/* EFI_PCI_IO_PROTOCOL DMA and location (UEFI 2.10, 14.4): Map, Unmap, AllocateBuffer,
 * FreeBuffer and Flush go to the root bridge, using its 64-bit operations and allocations
 * when the device's driver enabled DUAL_ADDRESS_CYCLE. */
#include "pci_bus.h"

static bool dual_address(const struct pci_function *f)
{
	return f->attributes & EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
}

static EFI_STATUS EFIAPI pio_map(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_OPERATION Operation,
				 VOID *HostAddress, UINTN *NumberOfBytes,
				 EFI_PHYSICAL_ADDRESS *DeviceAddress, VOID **Mapping)
{
	struct pci_function *f = pci_function_from(This);
	UINT32 op = (UINT32)Operation;

	if (op >= EfiPciIoOperationMaximum)
		return EFI_INVALID_PARAMETER;
	if (dual_address(f))
		op += EfiPciOperationBusMasterRead64; /* the 64-bit variant of the same operation */
	return f->root->Map(f->root, (EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_OPERATION)op, HostAddress,
			    NumberOfBytes, DeviceAddress, Mapping);
}

static EFI_STATUS EFIAPI pio_unmap(EFI_PCI_IO_PROTOCOL *This, VOID *Mapping)
{
	struct pci_function *f = pci_function_from(This);

	return f->root->Unmap(f->root, Mapping);
}

static EFI_STATUS EFIAPI pio_allocate_buffer(EFI_PCI_IO_PROTOCOL *This, EFI_ALLOCATE_TYPE Type,
					     EFI_MEMORY_TYPE MemoryType, UINTN Pages,
					     VOID **HostAddress, UINT64 Attributes)
{
	struct pci_function *f = pci_function_from(This);

	if (Attributes & ~(UINT64)(EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE |
				   EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED))
		return EFI_UNSUPPORTED;
	if (dual_address(f))
		Attributes |= EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
	return f->root->AllocateBuffer(f->root, Type, MemoryType, Pages, HostAddress, Attributes);
}

static EFI_STATUS EFIAPI pio_free_buffer(EFI_PCI_IO_PROTOCOL *This, UINTN Pages, VOID *HostAddress)
{
	struct pci_function *f = pci_function_from(This);

	return f->root->FreeBuffer(f->root, Pages, HostAddress);
}

static EFI_STATUS EFIAPI pio_flush(EFI_PCI_IO_PROTOCOL *This)
{
	struct pci_function *f = pci_function_from(This);

	return f->root->Flush(f->root);
}

static EFI_STATUS EFIAPI pio_get_location(EFI_PCI_IO_PROTOCOL *This, UINTN *SegmentNumber,
					  UINTN *BusNumber, UINTN *DeviceNumber,
					  UINTN *FunctionNumber)
{
	struct pci_function *f = pci_function_from(This);

	if (!SegmentNumber || !BusNumber || !DeviceNumber || !FunctionNumber)
		return EFI_INVALID_PARAMETER;
	*SegmentNumber = f->segment;
	*BusNumber = f->bus;
	*DeviceNumber = f->dev;
	*FunctionNumber = f->fn;
	return EFI_SUCCESS;
}

void pci_io_fill_dma(EFI_PCI_IO_PROTOCOL *io)
{
	io->Map = pio_map;
	io->Unmap = pio_unmap;
	io->AllocateBuffer = pio_allocate_buffer;
	io->FreeBuffer = pio_free_buffer;
	io->Flush = pio_flush;
	io->GetLocation = pio_get_location;
}
