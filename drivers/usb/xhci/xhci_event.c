/* The event ring of interrupter 0 (xHCI 1.2, 4.9.4), polled: completions of commands and
 * transfers are recorded where their waiters look (the command ring, the endpoint's ring);
 * the interrupt itself stays off. */
#include "xhci.h"
#include <ember/core/core.h>

#define EVENT_TRBS (XHCI_PAGE / sizeof(struct xhci_trb))

EFI_STATUS xhci_events_init(struct xhci_hc *hc)
{
	UINT64 *erst;
	EFI_STATUS status = xhci_dma_alloc(hc, 2, &hc->events);

	if (EFI_ERROR(status))
		return status;
	/* The segment table: one segment, the first page. */
	erst = (UINT64 *)((UINT8 *)hc->events.host + XHCI_PAGE);
	erst[0] = hc->events.dev;
	erst[1] = EVENT_TRBS;
	hc->ev_dequeue = 0;
	hc->ev_cycle = 1;
	xhci_rt_write(hc, XHCI_ERSTSZ, 1);
	xhci_rt_write64(hc, XHCI_ERDP, hc->events.dev);
	xhci_rt_write64(hc, XHCI_ERSTBA, hc->events.dev + XHCI_PAGE);
	return EFI_SUCCESS;
}

static bool in_td(struct xhci_ring *ring, UINT32 index)
{
	if (ring->td_first <= ring->td_last)
		return index >= ring->td_first && index <= ring->td_last;
	return index >= ring->td_first || index <= ring->td_last; /* the TD wraps */
}

static void transfer_event(struct xhci_hc *hc, const struct xhci_trb *ev)
{
	UINT8 slot = TRB_SLOT_OF(ev->control), dci = TRB_EP_OF(ev->control);
	struct xhci_dev *dev = slot <= XHCI_MAX_SLOTS ? hc->slots[slot] : NULL;
	struct xhci_ring *ring = dev ? dev->rings[dci] : NULL;
	UINT64 offset;
	UINT32 index, cc = TRB_CC_OF(ev->status);

	if (!ring || !ring->busy || ev->param < ring->mem.dev)
		return;
	offset = ev->param - ring->mem.dev;
	index = (UINT32)(offset / sizeof(struct xhci_trb));
	if (offset >= XHCI_PAGE || !in_td(ring, index))
		return; /* a late event of a TD already ended */
	if (ring->control && index != ring->td_last && cc == XHCI_CC_SHORT_PACKET) {
		ring->data_residual = TRB_LEN_OF(ev->status);
		return; /* the Status stage still runs */
	}
	if (ring->control && index != ring->td_last && cc == XHCI_CC_SUCCESS)
		return;
	ring->cc = cc;
	ring->event_index = index;
	ring->residual = TRB_LEN_OF(ev->status);
	ring->busy = false;
	ring->done = true;
}

static void command_event(struct xhci_hc *hc, const struct xhci_trb *ev)
{
	if (ev->param != hc->cmd_trb)
		return;
	hc->cmd_cc = TRB_CC_OF(ev->status);
	hc->cmd_slot = TRB_SLOT_OF(ev->control);
	hc->cmd_done = true;
}

void xhci_events_poll(struct xhci_hc *hc)
{
	struct xhci_trb *ring = hc->events.host;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);
	bool any = false;

	for (;;) {
		struct xhci_trb *ev = &ring[hc->ev_dequeue];
		UINT32 control = __atomic_load_n(&ev->control, __ATOMIC_ACQUIRE);

		if ((control & TRB_CYCLE) != hc->ev_cycle)
			break;
		if (TRB_TYPE_OF(control) == TRB_EV_TRANSFER)
			transfer_event(hc, ev);
		else if (TRB_TYPE_OF(control) == TRB_EV_COMMAND)
			command_event(hc, ev);
		/* Port status change events: the bus driver reads PORTSC itself. */
		if (++hc->ev_dequeue == EVENT_TRBS) {
			hc->ev_dequeue = 0;
			hc->ev_cycle ^= 1;
		}
		any = true;
	}
	if (any)
		xhci_rt_write64(hc, XHCI_ERDP,
				(hc->events.dev + hc->ev_dequeue * sizeof(struct xhci_trb)) |
				    XHCI_ERDP_EHB);
	tpl_restore(old);
}
