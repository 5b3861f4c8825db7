/* Commands on the command ring (xHCI 1.2, 4.6), one at a time, each waited for. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

EFI_STATUS xhci_cmd(struct xhci_hc *hc, UINT64 param, UINT32 control, UINT8 *slot)
{
	UINT64 deadline = core_time_ns() + XHCI_CMD_TIMEOUT_MS * 1000000ULL;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);
	UINT32 index;

	if (hc->cmd.busy) {
		tpl_restore(old); /* a command from a timer while another waits */
		return EFI_NOT_READY;
	}
	hc->cmd.busy = true;
	hc->cmd_done = false;
	index = xhci_ring_put(&hc->cmd, param, 0, control);
	hc->cmd_trb = xhci_ring_trb_addr(&hc->cmd, index);
	tpl_restore(old);
	xhci_doorbell(hc, 0, 0);
	while (!hc->cmd_done && core_time_ns() < deadline)
		xhci_events_poll(hc);
	hc->cmd.busy = false;
	if (!hc->cmd_done) {
		log_debug("command %u: no completion\n", TRB_TYPE_OF(control));
		return EFI_TIMEOUT;
	}
	if (slot)
		*slot = hc->cmd_slot;
	if (hc->cmd_cc != XHCI_CC_SUCCESS) {
		log_debug("command %u failed: code %u\n", TRB_TYPE_OF(control), hc->cmd_cc);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

EFI_STATUS xhci_cmd_enable_slot(struct xhci_hc *hc, UINT8 *slot)
{
	return xhci_cmd(hc, 0, TRB_TYPE(TRB_ENABLE_SLOT), slot);
}

EFI_STATUS xhci_cmd_disable_slot(struct xhci_hc *hc, UINT8 slot)
{
	return xhci_cmd(hc, 0, TRB_TYPE(TRB_DISABLE_SLOT) | TRB_SLOT(slot), NULL);
}

/* Address Device, Configure Endpoint, Evaluate Context: the input context's address. */
EFI_STATUS xhci_cmd_ctx(struct xhci_hc *hc, UINT32 type, struct xhci_dev *dev, UINT32 flags)
{
	return xhci_cmd(hc, dev->ctx.dev + XHCI_PAGE, TRB_TYPE(type) | TRB_SLOT(dev->slot) | flags,
			NULL);
}

/* Reset Endpoint, Stop Endpoint. */
EFI_STATUS xhci_cmd_ep(struct xhci_hc *hc, UINT32 type, struct xhci_dev *dev, UINT8 dci)
{
	return xhci_cmd(hc, 0, TRB_TYPE(type) | TRB_SLOT(dev->slot) | TRB_EP(dci), NULL);
}

/* Points the endpoint at its ring's enqueue pointer: whatever was queued is dropped. */
EFI_STATUS xhci_cmd_set_dequeue(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci)
{
	return xhci_cmd(hc, xhci_ring_dequeue_ptr(dev->rings[dci]),
			TRB_TYPE(TRB_SET_TR_DEQUEUE) | TRB_SLOT(dev->slot) | TRB_EP(dci), NULL);
}
