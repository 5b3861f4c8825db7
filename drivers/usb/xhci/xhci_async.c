/* AsyncInterruptTransfer (UEFI 2.10, 17.1): each transfer keeps one TD queued on its
 * interrupt endpoint; a periodic timer polls the event ring, hands what came to the
 * callback and queues the TD again. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

#define TICK_100NS (8 * 10000) /* 8 ms */

static void async_free(struct xhci_hc *hc, struct xhci_async *a)
{
	struct xhci_ring *ring = a->dev->rings[a->dci];

	if (ring && ring->busy)
		xhci_ep_recover(hc, a->dev, a->dci);
	list_del(&a->link);
	xhci_dma_free(hc, &a->buf);
	pool_free(a);
}

static void requeue(struct xhci_hc *hc, struct xhci_async *a)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	xhci_queue_normal(hc, a->dev, a->dci, a->buf.dev, a->length);
	tpl_restore(old);
}

/* Hands one completed TD to its callback; false when none had completed. The data is
 * copied first: the TD queued again may fill the buffer at once. */
static bool deliver_one(struct xhci_hc *hc)
{
	struct xhci_async *a;

	list_for_each_entry (a, &hc->async, link) {
		struct xhci_ring *ring = a->dev->rings[a->dci];
		EFI_ASYNC_USB_TRANSFER_CALLBACK callback = a->callback;
		void *context = a->context, *copy;
		UINTN bytes;
		UINT32 cc;

		if (!ring->done)
			continue;
		ring->done = false;
		cc = ring->cc;
		bytes = xhci_ring_td_bytes(ring);
		copy = pool_dup(a->buf.host, a->length);
		if (cc != XHCI_CC_SUCCESS && cc != XHCI_CC_SHORT_PACKET)
			xhci_ep_recover(hc, a->dev, a->dci);
		requeue(hc, a);
		if (copy)
			callback(copy, bytes, context, xhci_result(cc));
		pool_free(copy);
		return true; /* the callback may have changed the list */
	}
	return false;
}

static void EFIAPI async_tick(EFI_EVENT event, void *context)
{
	struct xhci_hc *hc = context;

	if (!hc->running)
		return;
	xhci_events_poll(hc);
	for (UINT32 n = 0; n < 64 && deliver_one(hc); n++)
		;
}

EFI_STATUS xhci_async_add(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 address, UINT8 endpoint,
			  UINTN max_packet, UINTN interval_ms, UINTN length,
			  EFI_ASYNC_USB_TRANSFER_CALLBACK callback, void *context)
{
	struct xhci_async *a;
	EFI_STATUS status;
	UINT8 dci;

	status =
	    xhci_dev_endpoint(hc, dev, endpoint, XHCI_EP_INTR_IN, max_packet, interval_ms, &dci);
	if (EFI_ERROR(status))
		return status;
	if (dev->rings[dci]->busy)
		return EFI_NOT_READY;
	a = pool_alloc(sizeof(*a));
	if (!a)
		return EFI_OUT_OF_RESOURCES;
	status = xhci_dma_alloc(hc, (length + XHCI_PAGE - 1) / XHCI_PAGE, &a->buf);
	if (EFI_ERROR(status)) {
		pool_free(a);
		return status;
	}
	a->address = address;
	a->endpoint = endpoint;
	a->dev = dev;
	a->dci = dci;
	a->length = length;
	a->callback = callback;
	a->context = context;
	list_add_tail(&a->link, &hc->async);
	requeue(hc, a);
	return EFI_SUCCESS;
}

EFI_STATUS xhci_async_remove(struct xhci_hc *hc, UINT8 address, UINT8 endpoint)
{
	struct xhci_async *a;

	list_for_each_entry (a, &hc->async, link) {
		if (a->address == address && a->endpoint == endpoint) {
			async_free(hc, a);
			return EFI_SUCCESS;
		}
	}
	return EFI_INVALID_PARAMETER;
}

void xhci_async_remove_dev(struct xhci_hc *hc, struct xhci_dev *dev)
{
	struct xhci_async *a, *tmp;

	list_for_each_entry_safe (a, tmp, &hc->async, link)
		if (a->dev == dev)
			async_free(hc, a);
}

EFI_STATUS xhci_async_init(struct xhci_hc *hc)
{
	EFI_STATUS status;

	list_init(&hc->async);
	status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, async_tick, hc, NULL,
			      &hc->async_timer);
	if (EFI_ERROR(status))
		return status;
	return event_set_timer(hc->async_timer, TimerPeriodic, TICK_100NS);
}

void xhci_async_fini(struct xhci_hc *hc)
{
	if (hc->async_timer)
		event_close(hc->async_timer);
	hc->async_timer = NULL;
}
