/* Command and transfer rings (xHCI 1.2, 4.9): one page of TRBs each, the last a link TRB
 * back to the first that toggles the cycle state, so the producer's cycle bit tells the
 * consumer which TRBs are new. */
#include "xhci.h"
#include <ember/core/core.h>

#define LINK (XHCI_RING_TRBS - 1)

static struct xhci_trb *trbs(struct xhci_ring *ring)
{
	return ring->mem.host;
}

EFI_STATUS xhci_ring_init(struct xhci_hc *hc, struct xhci_ring *ring)
{
	EFI_STATUS status = xhci_dma_alloc(hc, 1, &ring->mem);

	if (EFI_ERROR(status))
		return status;
	ring->enqueue = 0;
	ring->cycle = 1;
	ring->busy = ring->done = false;
	trbs(ring)[LINK].param = ring->mem.dev;
	trbs(ring)[LINK].control = TRB_TYPE(TRB_LINK) | TRB_TOGGLE;
	return EFI_SUCCESS;
}

void xhci_ring_fini(struct xhci_hc *hc, struct xhci_ring *ring)
{
	xhci_dma_free(hc, &ring->mem);
}

struct xhci_ring *xhci_ring_new(struct xhci_hc *hc)
{
	struct xhci_ring *ring = pool_alloc(sizeof(*ring));

	if (ring && EFI_ERROR(xhci_ring_init(hc, ring))) {
		pool_free(ring);
		return NULL;
	}
	return ring;
}

void xhci_ring_free(struct xhci_hc *hc, struct xhci_ring *ring)
{
	if (!ring)
		return;
	xhci_ring_fini(hc, ring);
	pool_free(ring);
}

/* One TD at a time is on a ring, so any TD shorter than the ring fits. */
bool xhci_ring_room(struct xhci_ring *ring, UINT32 n)
{
	return !ring->busy && n < LINK;
}

UINT32 xhci_ring_put(struct xhci_ring *ring, UINT64 param, UINT32 status, UINT32 control)
{
	struct xhci_trb *trb = &trbs(ring)[ring->enqueue];
	UINT32 index = ring->enqueue;

	trb->param = param;
	trb->status = status;
	/* The cycle bit last: the TRB belongs to the controller from then on. */
	__atomic_store_n(&trb->control, (control & ~TRB_CYCLE) | ring->cycle, __ATOMIC_RELEASE);
	if (++ring->enqueue == LINK) {
		struct xhci_trb *link = &trbs(ring)[LINK];
		/* A TD that goes on past the link keeps its chain through it. */
		UINT32 chain = control & TRB_CHAIN;

		__atomic_store_n(&link->control,
				 TRB_TYPE(TRB_LINK) | TRB_TOGGLE | chain | ring->cycle,
				 __ATOMIC_RELEASE);
		ring->cycle ^= 1;
		ring->enqueue = 0;
	}
	return index;
}

UINT64 xhci_ring_trb_addr(struct xhci_ring *ring, UINT32 index)
{
	return ring->mem.dev + (UINT64)index * sizeof(struct xhci_trb);
}

UINT64 xhci_ring_dequeue_ptr(struct xhci_ring *ring)
{
	return xhci_ring_trb_addr(ring, ring->enqueue) | ring->cycle;
}

UINTN xhci_ring_td_bytes(struct xhci_ring *ring)
{
	UINTN bytes = 0;
	UINT32 i = ring->td_first;

	for (;;) {
		struct xhci_trb *trb = &trbs(ring)[i];
		UINT32 len = trb->status & 0x1ffff;

		if (i == ring->event_index)
			return bytes + (len > ring->residual ? len - ring->residual : 0);
		bytes += len;
		if (i == ring->td_last)
			return bytes;
		i = i + 1 == LINK ? 0 : i + 1;
	}
}
