/* EFI_PCI_IO_PROTOCOL accessors (UEFI 2.10, 14.4): Mem and Io relative to a BAR (or with
 * EFI_PCI_IO_PASS_THROUGH_BAR, absolute), Pci relative to the function's configuration
 * space, PollMem, PollIo and CopyMem. Ranges are checked against the BAR here; the root
 * bridge does the accesses. The PciIo and root bridge width enums have the same values. */
#include "pci_bus.h"

#define CONFIG_SPACE_LIMIT PCI_EXPRESS_CONFIG_SPACE_SIZE

/* Bytes an access of Count elements touches (FIFO widths stay on one element). */
static bool access_span(EFI_PCI_IO_PROTOCOL_WIDTH width, UINTN count, UINT64 *span)
{
	UINT64 size;

	if ((UINT32)width >= EfiPciIoWidthMaximum)
		return false;
	size = 1ULL << (width & 3);
	if (width >= EfiPciIoWidthFifoUint8 && width <= EfiPciIoWidthFifoUint64)
		count = count ? 1 : 0;
	return !mul_overflows(size, (UINT64)count, span);
}

/* The absolute address of [offset, offset + span) inside BAR bar_index of the right kind. */
static EFI_STATUS bar_address(const struct pci_function *f, UINT8 bar_index, bool io_space,
			      UINT64 offset, UINT64 span, UINT64 *address)
{
	const struct pci_bar *bar;

	if (bar_index == EFI_PCI_IO_PASS_THROUGH_BAR) {
		*address = offset;
		return EFI_SUCCESS;
	}
	if (bar_index >= PCI_MAX_BAR)
		return EFI_UNSUPPORTED;
	bar = &f->bars[bar_index];
	if (!bar->offset || !bar->req.assigned || bar->is_io != io_space)
		return EFI_UNSUPPORTED;
	if (offset > bar->req.size || span > bar->req.size - offset)
		return EFI_UNSUPPORTED;
	*address = bar->req.base + offset;
	return EFI_SUCCESS;
}

static EFI_STATUS bar_access(EFI_PCI_IO_PROTOCOL *This, bool io_space, bool write,
			     EFI_PCI_IO_PROTOCOL_WIDTH Width, UINT8 BarIndex, UINT64 Offset,
			     UINTN Count, VOID *Buffer)
{
	struct pci_function *f = pci_function_from(This);
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root = f->root;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_ACCESS *a = io_space ? &root->Io : &root->Mem;
	UINT64 span, address;
	EFI_STATUS status;

	if (!Buffer || !access_span(Width, Count, &span))
		return EFI_INVALID_PARAMETER;
	status = bar_address(f, BarIndex, io_space, Offset, span, &address);
	if (EFI_ERROR(status))
		return status;
	return (write ? a->Write : a->Read)(root, (EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH)Width,
					    address, Count, Buffer);
}

static EFI_STATUS EFIAPI pio_mem_read(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				      UINT8 BarIndex, UINT64 Offset, UINTN Count, VOID *Buffer)
{
	return bar_access(This, false, false, Width, BarIndex, Offset, Count, Buffer);
}

static EFI_STATUS EFIAPI pio_mem_write(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				       UINT8 BarIndex, UINT64 Offset, UINTN Count, VOID *Buffer)
{
	return bar_access(This, false, true, Width, BarIndex, Offset, Count, Buffer);
}

static EFI_STATUS EFIAPI pio_io_read(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				     UINT8 BarIndex, UINT64 Offset, UINTN Count, VOID *Buffer)
{
	return bar_access(This, true, false, Width, BarIndex, Offset, Count, Buffer);
}

static EFI_STATUS EFIAPI pio_io_write(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				      UINT8 BarIndex, UINT64 Offset, UINTN Count, VOID *Buffer)
{
	return bar_access(This, true, true, Width, BarIndex, Offset, Count, Buffer);
}

static EFI_STATUS config_access(EFI_PCI_IO_PROTOCOL *This, bool write,
				EFI_PCI_IO_PROTOCOL_WIDTH Width, UINT32 Offset, UINTN Count,
				VOID *Buffer)
{
	struct pci_function *f = pci_function_from(This);
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root = f->root;
	UINT64 span;
	EFI_STATUS status;

	if (!Buffer || !access_span(Width, Count, &span))
		return EFI_INVALID_PARAMETER;
	if (Offset > CONFIG_SPACE_LIMIT || span > CONFIG_SPACE_LIMIT - Offset)
		return EFI_UNSUPPORTED;
	status = (write ? root->Pci.Write : root->Pci.Read)(
	    root, (EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH)Width,
	    EFI_PCI_ADDRESS(f->bus, f->dev, f->fn, Offset), Count, Buffer);
	/* The root bridge refuses the extended space when it has no ECAM (pc). */
	return status == EFI_INVALID_PARAMETER ? EFI_UNSUPPORTED : status;
}

static EFI_STATUS EFIAPI pio_pci_read(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				      UINT32 Offset, UINTN Count, VOID *Buffer)
{
	return config_access(This, false, Width, Offset, Count, Buffer);
}

static EFI_STATUS EFIAPI pio_pci_write(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				       UINT32 Offset, UINTN Count, VOID *Buffer)
{
	return config_access(This, true, Width, Offset, Count, Buffer);
}

static EFI_STATUS poll(EFI_PCI_IO_PROTOCOL *This, bool io_space, EFI_PCI_IO_PROTOCOL_WIDTH Width,
		       UINT8 BarIndex, UINT64 Offset, UINT64 Mask, UINT64 Value, UINT64 Delay,
		       UINT64 *Result)
{
	struct pci_function *f = pci_function_from(This);
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root = f->root;
	UINT64 address;
	EFI_STATUS status;

	if (!Result || Width > EfiPciIoWidthUint64)
		return EFI_INVALID_PARAMETER;
	status = bar_address(f, BarIndex, io_space, Offset, 1ULL << Width, &address);
	if (EFI_ERROR(status))
		return status;
	return (io_space ? root->PollIo
			 : root->PollMem)(root, (EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH)Width,
					  address, Mask, Value, Delay, Result);
}

static EFI_STATUS EFIAPI pio_poll_mem(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				      UINT8 BarIndex, UINT64 Offset, UINT64 Mask, UINT64 Value,
				      UINT64 Delay, UINT64 *Result)
{
	return poll(This, false, Width, BarIndex, Offset, Mask, Value, Delay, Result);
}

static EFI_STATUS EFIAPI pio_poll_io(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				     UINT8 BarIndex, UINT64 Offset, UINT64 Mask, UINT64 Value,
				     UINT64 Delay, UINT64 *Result)
{
	return poll(This, true, Width, BarIndex, Offset, Mask, Value, Delay, Result);
}

static EFI_STATUS EFIAPI pio_copy_mem(EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_WIDTH Width,
				      UINT8 DestBarIndex, UINT64 DestOffset, UINT8 SrcBarIndex,
				      UINT64 SrcOffset, UINTN Count)
{
	struct pci_function *f = pci_function_from(This);
	UINT64 span, dest, src;
	EFI_STATUS status;

	if (Width > EfiPciIoWidthUint64 || !access_span(Width, Count, &span))
		return EFI_INVALID_PARAMETER;
	status = bar_address(f, DestBarIndex, false, DestOffset, span, &dest);
	if (!EFI_ERROR(status))
		status = bar_address(f, SrcBarIndex, false, SrcOffset, span, &src);
	if (EFI_ERROR(status))
		return status;
	return f->root->CopyMem(f->root, (EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH)Width, dest, src,
				Count);
}

void pci_io_fill_access(EFI_PCI_IO_PROTOCOL *io)
{
	io->PollMem = pio_poll_mem;
	io->PollIo = pio_poll_io;
	io->Mem.Read = pio_mem_read;
	io->Mem.Write = pio_mem_write;
	io->Io.Read = pio_io_read;
	io->Io.Write = pio_io_write;
	io->Pci.Read = pio_pci_read;
	io->Pci.Write = pio_pci_write;
	io->CopyMem = pio_copy_mem;
}
