/* Control, bulk and interrupt transfers (xHCI 1.2, 4.11): a TD on the endpoint's ring, the
 * doorbell, then the event ring polled until the TD ends or the time is up. Callers'
 * buffers are mapped through PciIo for the time of the transfer. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define TRB_MAX_BYTES 0x10000

UINT32 xhci_result(UINT32 cc)
{
	switch (cc) {
	case XHCI_CC_SUCCESS:
	case XHCI_CC_SHORT_PACKET:
		return EFI_USB_NOERROR;
	case XHCI_CC_STALL:
		return EFI_USB_ERR_STALL;
	case XHCI_CC_BABBLE:
		return EFI_USB_ERR_BABBLE;
	case XHCI_CC_DATA_BUFFER:
		return EFI_USB_ERR_BUFFER;
	case XHCI_CC_TRANSACTION:
		return EFI_USB_ERR_CRC;
	case XHCI_CC_TIMEOUT:
		return EFI_USB_ERR_TIMEOUT;
	default:
		return EFI_USB_ERR_SYSTEM;
	}
}

/* Waits for the TD on the endpoint's ring (timeout 0: as long as it takes); an endpoint
 * left halted or still running is made usable again. Returns the completion code. */
static UINT32 wait_td(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, UINTN timeout_ms)
{
	struct xhci_ring *ring = dev->rings[dci];
	UINT64 deadline = core_time_ns() + (UINT64)timeout_ms * 1000000;

	while (!ring->done) {
		xhci_events_poll(hc);
		if (!ring->done && timeout_ms && core_time_ns() > deadline) {
			xhci_ep_recover(hc, dev, dci);
			return XHCI_CC_TIMEOUT;
		}
	}
	ring->done = false;
	if (ring->cc != XHCI_CC_SUCCESS && ring->cc != XHCI_CC_SHORT_PACKET)
		xhci_ep_recover(hc, dev, dci);
	return ring->cc;
}

static EFI_STATUS map(struct xhci_hc *hc, bool device_writes, void *data, UINTN bytes,
		      UINT64 *dev_addr, void **mapping)
{
	EFI_PCI_IO_PROTOCOL_OPERATION op =
	    device_writes ? EfiPciIoOperationBusMasterWrite : EfiPciIoOperationBusMasterRead;
	UINTN mapped = bytes;
	EFI_STATUS status = hc->pci_io->Map(hc->pci_io, op, data, &mapped, dev_addr, mapping);

	if (!EFI_ERROR(status) && mapped != bytes) {
		hc->pci_io->Unmap(hc->pci_io, *mapping);
		status = EFI_OUT_OF_RESOURCES;
	}
	return status;
}

static EFI_STATUS td_begin(struct xhci_ring *ring, UINT32 trbs)
{
	if (!xhci_ring_room(ring, trbs))
		return EFI_NOT_READY;
	ring->td_first = ring->enqueue;
	ring->done = false;
	ring->data_residual = 0;
	return EFI_SUCCESS;
}

static void td_end(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, UINT32 last)
{
	dev->rings[dci]->td_last = last;
	dev->rings[dci]->busy = true;
	xhci_doorbell(hc, dev->slot, dci);
}

static void queue_control(struct xhci_hc *hc, struct xhci_dev *dev,
			  const EFI_USB_DEVICE_REQUEST *req, EFI_USB_DATA_DIRECTION dir,
			  UINT64 data, UINTN length)
{
	struct xhci_ring *ring = dev->rings[1];
	UINT64 setup;
	UINT32 trt = 0, status_dir = TRB_DIR_IN, last;

	mem_copy(&setup, req, sizeof(setup));
	if (length)
		trt = dir == EfiUsbDataIn ? TRB_TRT_IN : TRB_TRT_OUT;
	xhci_ring_put(ring, setup, 8, TRB_TYPE(TRB_SETUP) | TRB_IDT | trt);
	if (length) {
		UINT32 in = dir == EfiUsbDataIn ? TRB_DIR_IN : 0;

		xhci_ring_put(ring, data, (UINT32)length, TRB_TYPE(TRB_DATA) | TRB_ISP | in);
		status_dir = in ? 0 : TRB_DIR_IN;
	}
	last = xhci_ring_put(ring, 0, 0, TRB_TYPE(TRB_STATUS) | TRB_IOC | status_dir);
	td_end(hc, dev, 1, last);
}

EFI_STATUS xhci_control(struct xhci_hc *hc, struct xhci_dev *dev, const EFI_USB_DEVICE_REQUEST *req,
			EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length, UINTN timeout_ms,
			UINT32 *result)
{
	UINTN bytes = dir == EfiUsbNoData ? 0 : *length;
	UINT64 dev_addr = 0;
	void *mapping = NULL;
	EFI_STATUS status;
	EFI_TPL old;
	UINT32 cc;

	if (bytes > TRB_MAX_BYTES)
		return EFI_INVALID_PARAMETER;
	if (bytes) {
		status = map(hc, dir == EfiUsbDataIn, data, bytes, &dev_addr, &mapping);
		if (EFI_ERROR(status))
			return status;
	}
	old = tpl_raise(TPL_NOTIFY);
	status = td_begin(dev->rings[1], 3);
	if (!EFI_ERROR(status))
		queue_control(hc, dev, req, dir, dev_addr, bytes);
	tpl_restore(old);
	if (!EFI_ERROR(status)) {
		cc = wait_td(hc, dev, 1, timeout_ms);
		*result = xhci_result(cc);
		if (bytes)
			*length = bytes - (dev->rings[1]->data_residual <= bytes
					       ? dev->rings[1]->data_residual
					       : bytes);
		if (cc == XHCI_CC_TIMEOUT)
			status = EFI_TIMEOUT;
		else if (*result != EFI_USB_NOERROR)
			status = EFI_DEVICE_ERROR;
	}
	if (mapping)
		hc->pci_io->Unmap(hc->pci_io, mapping);
	return status;
}

static UINT32 normal_trbs(UINT64 addr, UINTN bytes)
{
	UINT32 n = 0;

	do {
		UINTN chunk = TRB_MAX_BYTES - (addr & (TRB_MAX_BYTES - 1));

		chunk = chunk < bytes ? chunk : bytes;
		addr += chunk;
		bytes -= chunk;
		n++;
	} while (bytes);
	return n;
}

void xhci_queue_normal(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, UINT64 addr,
		       UINTN bytes)
{
	struct xhci_ring *ring = dev->rings[dci];
	UINT32 last;

	ring->td_first = ring->enqueue;
	ring->done = false;
	do {
		UINTN chunk = TRB_MAX_BYTES - (addr & (TRB_MAX_BYTES - 1));
		UINT32 flags = TRB_TYPE(TRB_NORMAL) | TRB_ISP;

		chunk = chunk < bytes ? chunk : bytes;
		bytes -= chunk;
		flags |= bytes ? TRB_CHAIN : TRB_IOC;
		last = xhci_ring_put(ring, addr, (UINT32)chunk, flags);
		addr += chunk;
	} while (bytes);
	td_end(hc, dev, dci, last);
}

EFI_STATUS xhci_normal(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, bool in, void *data,
		       UINTN *length, UINTN timeout_ms, UINT32 *result)
{
	struct xhci_ring *ring = dev->rings[dci];
	UINT64 dev_addr;
	void *mapping;
	EFI_STATUS status = map(hc, in, data, *length, &dev_addr, &mapping);
	EFI_TPL old;
	UINT32 cc;

	if (EFI_ERROR(status))
		return status;
	old = tpl_raise(TPL_NOTIFY);
	status = td_begin(ring, normal_trbs(dev_addr, *length));
	if (!EFI_ERROR(status))
		xhci_queue_normal(hc, dev, dci, dev_addr, *length);
	tpl_restore(old);
	if (!EFI_ERROR(status)) {
		cc = wait_td(hc, dev, dci, timeout_ms);
		*result = xhci_result(cc);
		*length = cc == XHCI_CC_TIMEOUT ? 0 : xhci_ring_td_bytes(ring);
		if (cc == XHCI_CC_TIMEOUT)
			status = EFI_TIMEOUT;
		else if (*result != EFI_USB_NOERROR)
			status = EFI_DEVICE_ERROR;
	}
	hc->pci_io->Unmap(hc->pci_io, mapping);
	return status;
}
