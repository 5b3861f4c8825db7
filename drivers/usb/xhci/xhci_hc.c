/* Bringing the controller up and down (xHCI 1.2, 4.2): reset, the device context base
 * address array with the scratchpad buffers, the command ring, the event ring, run. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

#define RESET_MS 1000

static EFI_STATUS hc_reset(struct xhci_hc *hc)
{
	EFI_STATUS status;

	if (!(xhci_op_read(hc, XHCI_USBSTS) & XHCI_STS_HCH)) {
		xhci_op_write(hc, XHCI_USBCMD, xhci_op_read(hc, XHCI_USBCMD) & ~XHCI_CMD_RUN);
		status = xhci_op_wait(hc, XHCI_USBSTS, XHCI_STS_HCH, XHCI_STS_HCH, RESET_MS);
		if (EFI_ERROR(status))
			return status;
	}
	xhci_op_write(hc, XHCI_USBCMD, XHCI_CMD_HCRST);
	status = xhci_op_wait(hc, XHCI_USBCMD, XHCI_CMD_HCRST, 0, RESET_MS);
	if (EFI_ERROR(status))
		return status;
	return xhci_op_wait(hc, XHCI_USBSTS, XHCI_STS_CNR, 0, RESET_MS);
}

/* Scratchpad buffers the controller asks for (4.20): an array of page addresses in
 * DCBAA entry 0. */
static EFI_STATUS scratchpads(struct xhci_hc *hc)
{
	UINT32 count = XHCI_HCS2_SPB(xhci_cap_read(hc, XHCI_HCSPARAMS2));
	UINT64 *array;
	EFI_STATUS status;

	if (!count)
		return EFI_SUCCESS;
	if (count > XHCI_PAGE / 8)
		return EFI_UNSUPPORTED;
	status = xhci_dma_alloc(hc, 1, &hc->scratch_array);
	if (EFI_ERROR(status))
		return status;
	status = xhci_dma_alloc(hc, count, &hc->scratch);
	if (EFI_ERROR(status))
		return status;
	array = hc->scratch_array.host;
	for (UINT32 i = 0; i < count; i++)
		array[i] = hc->scratch.dev + (UINT64)i * XHCI_PAGE;
	((UINT64 *)hc->dcbaa.host)[0] = hc->scratch_array.dev;
	return EFI_SUCCESS;
}

static EFI_STATUS hc_structures(struct xhci_hc *hc)
{
	EFI_STATUS status = xhci_dma_alloc(hc, 1, &hc->dcbaa);

	if (EFI_ERROR(status))
		return status;
	status = scratchpads(hc);
	if (EFI_ERROR(status))
		return status;
	status = xhci_ring_init(hc, &hc->cmd);
	if (EFI_ERROR(status))
		return status;
	xhci_op_write(hc, XHCI_CONFIG, hc->max_slots);
	xhci_op_write64(hc, XHCI_DCBAAP, hc->dcbaa.dev);
	xhci_op_write64(hc, XHCI_CRCR, hc->cmd.mem.dev | XHCI_CRCR_RCS);
	return xhci_events_init(hc);
}

static void power_ports(struct xhci_hc *hc)
{
	if (!(hc->hcc1 & XHCI_HCC1_PPC))
		return;
	for (UINT8 port = 1; port <= hc->max_ports; port++) {
		UINT32 sc = xhci_op_read(hc, XHCI_PORTSC(port));

		if (!(sc & XHCI_PORTSC_PP))
			xhci_op_write(hc, XHCI_PORTSC(port),
				      (sc & ~XHCI_PORTSC_KEEP_OFF) | XHCI_PORTSC_PP);
	}
}

EFI_STATUS xhci_hc_init(struct xhci_hc *hc)
{
	UINT32 params1 = xhci_cap_read(hc, XHCI_HCSPARAMS1);
	EFI_STATUS status;

	hc->op = xhci_cap_read(hc, XHCI_CAPLENGTH) & 0xff;
	hc->db = xhci_cap_read(hc, XHCI_DBOFF) & ~3u;
	hc->rt = xhci_cap_read(hc, XHCI_RTSOFF) & ~0x1fu;
	hc->hcc1 = xhci_cap_read(hc, XHCI_HCCPARAMS1);
	hc->ctx_size = hc->hcc1 & XHCI_HCC1_CSZ ? 64 : 32;
	hc->max_ports = XHCI_HCS1_MAX_PORTS(params1);
	hc->max_slots = XHCI_HCS1_MAX_SLOTS(params1);
	if (hc->max_slots > XHCI_MAX_SLOTS)
		hc->max_slots = XHCI_MAX_SLOTS;
	if (!hc->max_slots || !hc->max_ports || !(xhci_op_read(hc, XHCI_PAGESIZE) & 1)) {
		log_debug("unusable parameters %08x\n", params1);
		return EFI_UNSUPPORTED;
	}
	status = hc_reset(hc);
	if (EFI_ERROR(status)) {
		log_debug("reset: %r\n", status);
		return status;
	}
	status = hc_structures(hc);
	if (EFI_ERROR(status))
		return status;
	xhci_op_write(hc, XHCI_USBCMD, XHCI_CMD_RUN);
	status = xhci_op_wait(hc, XHCI_USBSTS, XHCI_STS_HCH, 0, RESET_MS);
	if (EFI_ERROR(status)) {
		log_debug("does not run: %r\n", status);
		return status;
	}
	hc->running = true;
	power_ports(hc);
	return EFI_SUCCESS;
}

/* Stops the controller's DMA (ExitBootServices, Stop). */
void xhci_hc_halt(struct xhci_hc *hc)
{
	xhci_op_write(hc, XHCI_USBCMD, xhci_op_read(hc, XHCI_USBCMD) & ~XHCI_CMD_RUN);
	xhci_op_wait(hc, XHCI_USBSTS, XHCI_STS_HCH, XHCI_STS_HCH, RESET_MS);
	hc->running = false;
}

/* Halts the controller and frees what it shared (devices are gone already). */
void xhci_hc_fini(struct xhci_hc *hc)
{
	xhci_hc_halt(hc);
	hc_reset(hc);
	xhci_dma_free(hc, &hc->events);
	xhci_ring_fini(hc, &hc->cmd);
	xhci_dma_free(hc, &hc->scratch);
	xhci_dma_free(hc, &hc->scratch_array);
	xhci_dma_free(hc, &hc->dcbaa);
}
