/* The xHC's registers in BAR 0 and the memory it shares with the host, through PciIo
 * (UEFI 2.10, 14.4: Mem.Read/Write, AllocateBuffer, Map). */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define BAR 0

static UINT32 read32(struct xhci_hc *hc, UINT32 offset)
{
	UINT32 value = 0xffffffff;

	hc->pci_io->Mem.Read(hc->pci_io, EfiPciIoWidthUint32, BAR, offset, 1, &value);
	return value;
}

static void write32(struct xhci_hc *hc, UINT32 offset, UINT32 value)
{
	hc->pci_io->Mem.Write(hc->pci_io, EfiPciIoWidthUint32, BAR, offset, 1, &value);
}

UINT32 xhci_cap_read(struct xhci_hc *hc, UINT32 offset)
{
	return read32(hc, offset);
}

UINT32 xhci_op_read(struct xhci_hc *hc, UINT32 offset)
{
	return read32(hc, hc->op + offset);
}

void xhci_op_write(struct xhci_hc *hc, UINT32 offset, UINT32 value)
{
	write32(hc, hc->op + offset, value);
}

/* 64-bit registers as two dword writes, low first (5.1: a 32-bit host may do so). */
void xhci_op_write64(struct xhci_hc *hc, UINT32 offset, UINT64 value)
{
	write32(hc, hc->op + offset, (UINT32)value);
	write32(hc, hc->op + offset + 4, (UINT32)(value >> 32));
}

void xhci_rt_write(struct xhci_hc *hc, UINT32 offset, UINT32 value)
{
	write32(hc, hc->rt + offset, value);
}

void xhci_rt_write64(struct xhci_hc *hc, UINT32 offset, UINT64 value)
{
	write32(hc, hc->rt + offset, (UINT32)value);
	write32(hc, hc->rt + offset + 4, (UINT32)(value >> 32));
}

void xhci_doorbell(struct xhci_hc *hc, UINT8 slot, UINT32 target)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the TRBs before the bell */
	write32(hc, hc->db + 4u * slot, target);
}

EFI_STATUS xhci_op_wait(struct xhci_hc *hc, UINT32 offset, UINT32 mask, UINT32 value, UINT32 ms)
{
	UINT64 deadline = core_time_ns() + (UINT64)ms * 1000000;

	for (;;) {
		if ((xhci_op_read(hc, offset) & mask) == value)
			return EFI_SUCCESS;
		if (core_time_ns() > deadline)
			return EFI_TIMEOUT;
		core_stall_us(10);
	}
}

EFI_STATUS xhci_dma_alloc(struct xhci_hc *hc, UINTN pages, struct xhci_dma *dma)
{
	EFI_PCI_IO_PROTOCOL *pci_io = hc->pci_io;
	UINTN bytes = pages * XHCI_PAGE;
	EFI_STATUS status;

	status = pci_io->AllocateBuffer(pci_io, AllocateAnyPages, EfiBootServicesData, pages,
					&dma->host, 0);
	if (EFI_ERROR(status))
		return status;
	status = pci_io->Map(pci_io, EfiPciIoOperationBusMasterCommonBuffer, dma->host, &bytes,
			     &dma->dev, &dma->mapping);
	if (!EFI_ERROR(status) && bytes != pages * XHCI_PAGE) {
		pci_io->Unmap(pci_io, dma->mapping);
		status = EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status)) {
		log_debug("no DMA buffer of %u pages: %r\n", (UINT32)pages, status);
		pci_io->FreeBuffer(pci_io, pages, dma->host);
		dma->host = NULL;
		return status;
	}
	mem_set(dma->host, 0, bytes);
	dma->pages = pages;
	return EFI_SUCCESS;
}

void xhci_dma_free(struct xhci_hc *hc, struct xhci_dma *dma)
{
	if (!dma->host)
		return;
	hc->pci_io->Unmap(hc->pci_io, dma->mapping);
	hc->pci_io->FreeBuffer(hc->pci_io, dma->pages, dma->host);
	dma->host = NULL;
}
