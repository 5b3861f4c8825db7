/* PciIo behaviour on QEMU's standard VGA (1234:1111), which every test machine has: its
 * BAR0 is the framebuffer and its BAR2 holds the Bochs DISPI registers at 0x500. */
#include "pci_test.h"
#include <efi/pci.h>

#define VGA_ID 0x11111234
#define DISPI_ID_OFFSET 0x500
#define DISPI_ID_MASK 0xfff0
#define DISPI_ID 0xb0c0

static EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;

static EFI_PCI_IO_PROTOCOL *find_vga(void)
{
	EFI_HANDLE *handles = NULL;
	EFI_PCI_IO_PROTOCOL *found = NULL;
	UINTN count = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &pci_io_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_PCI_IO_PROTOCOL *io;
		UINT32 ids = 0;
		if (!EFI_ERROR(app_bs->HandleProtocol(handles[i], &pci_io_guid, (void **)&io)) &&
		    !EFI_ERROR(io->Pci.Read(io, EfiPciIoWidthUint32, 0, 1, &ids)) && ids == VGA_ID)
			found = io;
	}
	app_free(handles);
	return found;
}

static void check_config(EFI_PCI_IO_PROTOCOL *io)
{
	UINT16 id[2] = {0, 0};
	UINT8 b;
	UINTN s, bus, d, f;

	CHECK_STATUS(io->Pci.Read(io, EfiPciIoWidthUint16, 0, 2, id), EFI_SUCCESS);
	CHECK_EQ(id[0] | (UINT32)id[1] << 16, VGA_ID);
	CHECK_STATUS(io->Pci.Read(io, EfiPciIoWidthMaximum, 0, 1, &b), EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->Pci.Read(io, EfiPciIoWidthUint8, 0, 1, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->Pci.Read(io, EfiPciIoWidthUint8, 0x1000, 1, &b), EFI_UNSUPPORTED);
	CHECK_STATUS(io->GetLocation(io, NULL, &bus, &d, &f), EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->GetLocation(io, &s, &bus, &d, &f), EFI_SUCCESS);
}

static void check_bars(EFI_PCI_IO_PROTOCOL *io)
{
	UINT16 dispi = 0;
	UINT32 pattern[4] = {0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00}, back[4] = {0};
	UINT64 result = 0;
	void *res;

	CHECK_STATUS(io->Mem.Read(io, EfiPciIoWidthUint16, 2, DISPI_ID_OFFSET, 1, &dispi),
		     EFI_SUCCESS);
	CHECK_EQ(dispi & DISPI_ID_MASK, DISPI_ID);
	CHECK_STATUS(io->PollMem(io, EfiPciIoWidthUint16, 2, DISPI_ID_OFFSET, DISPI_ID_MASK,
				 DISPI_ID, 0, &result),
		     EFI_SUCCESS);
	CHECK_EQ(result & DISPI_ID_MASK, DISPI_ID);
	CHECK_STATUS(io->Mem.Read(io, EfiPciIoWidthUint32, 2, 0x1000, 1, &back), EFI_UNSUPPORTED);
	CHECK_STATUS(io->Mem.Write(io, EfiPciIoWidthUint32, 0, 0, 4, pattern), EFI_SUCCESS);
	CHECK_STATUS(io->CopyMem(io, EfiPciIoWidthUint32, 0, 0x100, 0, 0, 4), EFI_SUCCESS);
	CHECK_STATUS(io->Mem.Read(io, EfiPciIoWidthUint32, 0, 0x100, 4, back), EFI_SUCCESS);
	CHECK(mem_cmp(back, pattern, sizeof(back)) == 0);
	/* Fill: one value to successive addresses; FIFO: one address read repeatedly. */
	CHECK_STATUS(io->Mem.Write(io, EfiPciIoWidthFillUint32, 0, 0x200, 4, pattern), EFI_SUCCESS);
	CHECK_STATUS(io->Mem.Read(io, EfiPciIoWidthUint32, 0, 0x200, 4, back), EFI_SUCCESS);
	CHECK(back[0] == pattern[0] && back[3] == pattern[0]);
	CHECK_STATUS(io->Mem.Read(io, EfiPciIoWidthFifoUint32, 0, 0x104, 4, back), EFI_SUCCESS);
	CHECK(back[0] == pattern[1] && back[3] == pattern[1]);
	CHECK_STATUS(io->GetBarAttributes(io, 0, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->GetBarAttributes(io, 1, NULL, &res), EFI_UNSUPPORTED);
}

static void check_attributes(EFI_PCI_IO_PROTOCOL *io)
{
	UINT64 supported = 0, now = 0, original = 0;

	CHECK_STATUS(io->Attributes(io, EfiPciIoAttributeOperationGet, 0, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->Attributes(io, EfiPciIoAttributeOperationSupported, 0, &supported),
		     EFI_SUCCESS);
	CHECK(supported & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	CHECK(supported & EFI_PCI_IO_ATTRIBUTE_MEMORY);
	CHECK_STATUS(io->Attributes(io, EfiPciIoAttributeOperationGet, 0, &original), EFI_SUCCESS);
	CHECK_STATUS(io->Attributes(io, EfiPciIoAttributeOperationEnable,
				    EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, NULL),
		     EFI_SUCCESS);
	io->Attributes(io, EfiPciIoAttributeOperationGet, 0, &now);
	CHECK(now & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	CHECK_STATUS(io->Attributes(io, EfiPciIoAttributeOperationSet, original, NULL),
		     EFI_SUCCESS);
	io->Attributes(io, EfiPciIoAttributeOperationGet, 0, &now);
	CHECK_EQ(now, original);
}

static void check_dma(EFI_PCI_IO_PROTOCOL *io)
{
	void *buffer = NULL, *mapping = NULL;
	UINT8 local[64];
	UINTN bytes = EFI_PAGE_SIZE;
	EFI_PHYSICAL_ADDRESS device = 0;

	CHECK_STATUS(io->AllocateBuffer(io, AllocateAnyPages, EfiLoaderData, 1, &buffer, 0),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->AllocateBuffer(io, AllocateAnyPages, EfiBootServicesData, 1, &buffer,
					EFI_PCI_IO_ATTRIBUTE_IO),
		     EFI_UNSUPPORTED);
	if (!CHECK_STATUS(
		io->AllocateBuffer(io, AllocateAnyPages, EfiBootServicesData, 1, &buffer, 0),
		EFI_SUCCESS))
		return;
	CHECK((UINT64)(uintptr_t)buffer + EFI_PAGE_SIZE <= 0x100000000ULL);
	CHECK_STATUS(
	    io->Map(io, EfiPciIoOperationBusMasterCommonBuffer, buffer, &bytes, &device, &mapping),
	    EFI_SUCCESS);
	CHECK_EQ(bytes, EFI_PAGE_SIZE);
	CHECK_EQ(device, (UINT64)(uintptr_t)buffer);
	CHECK_STATUS(io->Unmap(io, mapping), EFI_SUCCESS);
	CHECK_STATUS(io->FreeBuffer(io, 1, buffer), EFI_SUCCESS);
	bytes = sizeof(local);
	CHECK_STATUS(io->Map(io, EfiPciIoOperationMaximum, local, &bytes, &device, &mapping),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(io->Map(io, EfiPciIoOperationBusMasterRead, local, &bytes, &device, &mapping),
		     EFI_SUCCESS);
	CHECK_STATUS(io->Unmap(io, mapping), EFI_SUCCESS);
	CHECK_STATUS(io->Flush(io), EFI_SUCCESS);
}

void pt_check_pci_io(void)
{
	EFI_PCI_IO_PROTOCOL *io = find_vga();

	if (!io) {
		app_print("pci-test: no standard VGA (1234:1111): PciIo checks not run\n");
		return;
	}
	check_config(io);
	check_bars(io);
	check_attributes(io);
	check_dma(io);
}
