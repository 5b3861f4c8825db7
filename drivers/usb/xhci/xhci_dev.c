/* Device slots (xHCI 1.2, 4.3 and 4.6): a slot is enabled and addressed when a root port is
 * reset (with SET_ADDRESS held back, so that address 0 reaches the device), given the bus
 * driver's address at its SET_ADDRESS, and its endpoints are configured on first use. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define EP_STATE_RUNNING 1
#define EP_STATE_HALTED 2
#define CERR_3 (3u << 1)

UINT32 *xhci_in_ctx(struct xhci_hc *hc, struct xhci_dev *dev, UINT32 index)
{
	return (UINT32 *)((UINT8 *)dev->ctx.host + XHCI_PAGE + index * hc->ctx_size);
}

UINT32 *xhci_out_ctx(struct xhci_hc *hc, struct xhci_dev *dev, UINT32 index)
{
	return (UINT32 *)((UINT8 *)dev->ctx.host + index * hc->ctx_size);
}

static void in_ctx_clear(struct xhci_hc *hc, struct xhci_dev *dev)
{
	mem_set((UINT8 *)dev->ctx.host + XHCI_PAGE, 0, 2 * XHCI_PAGE);
}

static void ep_ctx_fill(UINT32 *ep, UINT32 type, UINTN max_packet, struct xhci_ring *ring)
{
	UINT64 deq = xhci_ring_dequeue_ptr(ring);

	ep[1] = CERR_3 | type << 3 | (UINT32)max_packet << 16;
	ep[2] = (UINT32)deq;
	ep[3] = (UINT32)(deq >> 32);
	ep[4] = type == XHCI_EP_CONTROL ? 8 : (UINT32)max_packet;
}

static UINTN default_ep0_packet(UINT8 speed)
{
	if (speed == XHCI_SPEED_SUPER)
		return 512;
	return speed == XHCI_SPEED_HIGH ? 64 : 8;
}

/* The input context of Address Device: the slot and the default control endpoint. */
static void address_ctx(struct xhci_hc *hc, struct xhci_dev *dev, UINTN max_packet)
{
	UINT32 *slot;

	in_ctx_clear(hc, dev);
	xhci_in_ctx(hc, dev, 0)[1] = 0x3; /* add the slot and EP0 */
	slot = xhci_in_ctx(hc, dev, 1);
	slot[0] = dev->route | (UINT32)dev->speed << 20 | 1u << 27;
	slot[1] = (UINT32)dev->port << 16;
	slot[2] = dev->tt_slot | (UINT32)dev->tt_port << 8;
	ep_ctx_fill(xhci_in_ctx(hc, dev, 2), XHCI_EP_CONTROL, max_packet, dev->rings[1]);
}

static EFI_STATUS dev_setup(struct xhci_hc *hc, struct xhci_dev *dev)
{
	EFI_STATUS status = xhci_dma_alloc(hc, 3, &dev->ctx);

	if (EFI_ERROR(status))
		return status;
	dev->rings[1] = xhci_ring_new(hc);
	if (!dev->rings[1])
		return EFI_OUT_OF_RESOURCES;
	dev->rings[1]->control = true;
	((UINT64 *)hc->dcbaa.host)[dev->slot] = dev->ctx.dev;
	hc->slots[dev->slot] = dev;
	address_ctx(hc, dev, default_ep0_packet(dev->speed));
	return xhci_cmd_ctx(hc, TRB_ADDRESS_DEVICE, dev, TRB_BSR);
}

EFI_STATUS xhci_dev_create(struct xhci_hc *hc, UINT8 port, UINT8 speed)
{
	struct xhci_dev tmpl = {.port = port, .speed = speed};
	EFI_STATUS status = xhci_dev_create_at(hc, &tmpl);

	if (!EFI_ERROR(status))
		hc->port_slot[port] = hc->default_slot;
	return status;
}

EFI_STATUS xhci_dev_create_at(struct xhci_hc *hc, const struct xhci_dev *tmpl)
{
	UINT8 port = tmpl->port;
	struct xhci_dev *dev;
	UINT8 slot = 0;
	EFI_STATUS status = xhci_cmd_enable_slot(hc, &slot);

	if (EFI_ERROR(status))
		return status;
	if (!slot || slot > hc->max_slots) {
		log_debug("Enable Slot gave slot %u\n", slot);
		return EFI_DEVICE_ERROR;
	}
	dev = pool_alloc(sizeof(*dev));
	if (!dev) {
		xhci_cmd_disable_slot(hc, slot);
		return EFI_OUT_OF_RESOURCES;
	}
	*dev = *tmpl;
	dev->slot = slot;
	status = dev_setup(hc, dev);
	if (EFI_ERROR(status)) {
		log_debug("port %u: no device slot: %r\n", port, status);
		xhci_dev_destroy(hc, dev);
		return status;
	}
	hc->default_slot = slot;
	return EFI_SUCCESS;
}

void xhci_dev_destroy(struct xhci_hc *hc, struct xhci_dev *dev)
{
	/* A hub takes the devices behind it along (at most five hubs deep). */
	for (UINT32 s = 1; s <= XHCI_MAX_SLOTS; s++)
		if (hc->slots[s] && hc->slots[s] != dev && hc->slots[s]->parent_slot == dev->slot &&
		    hc->slots[dev->slot] == dev)
			xhci_dev_destroy(hc, hc->slots[s]);
	xhci_async_remove_dev(hc, dev);
	if (hc->running)
		xhci_cmd_disable_slot(hc, dev->slot);
	if (hc->slots[dev->slot] == dev) {
		hc->slots[dev->slot] = NULL;
		((UINT64 *)hc->dcbaa.host)[dev->slot] = 0;
	}
	if (dev->address && hc->slot_of_address[dev->address] == dev->slot)
		hc->slot_of_address[dev->address] = 0;
	if (hc->default_slot == dev->slot)
		hc->default_slot = 0;
	if (hc->port_slot[dev->port] == dev->slot)
		hc->port_slot[dev->port] = 0;
	for (UINT32 i = 0; i < ARRAY_SIZE(dev->rings); i++)
		xhci_ring_free(hc, dev->rings[i]);
	xhci_dma_free(hc, &dev->ctx);
	pool_free(dev);
}

/* The bus driver's SET_ADDRESS: the xHC sends its own (Address Device without BSR). */
EFI_STATUS xhci_dev_set_address(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 address)
{
	UINTN max_packet = xhci_out_ctx(hc, dev, 1)[1] >> 16;
	EFI_STATUS status;

	if (address >= XHCI_MAX_ADDRESS)
		return EFI_INVALID_PARAMETER;
	/* The bus driver gave the address again: the device that had it is gone from behind
	 * a hub, which the xHC does not see. */
	if (hc->slot_of_address[address] && hc->slot_of_address[address] != dev->slot &&
	    hc->slots[hc->slot_of_address[address]])
		xhci_dev_destroy(hc, hc->slots[hc->slot_of_address[address]]);
	address_ctx(hc, dev, max_packet ? max_packet : default_ep0_packet(dev->speed));
	status = xhci_cmd_ctx(hc, TRB_ADDRESS_DEVICE, dev, 0);
	if (EFI_ERROR(status))
		return status;
	dev->address = address;
	hc->slot_of_address[address] = dev->slot;
	if (hc->default_slot == dev->slot)
		hc->default_slot = 0;
	return EFI_SUCCESS;
}

EFI_STATUS xhci_dev_set_ep0_packet(struct xhci_hc *hc, struct xhci_dev *dev, UINTN max_packet)
{
	if ((xhci_out_ctx(hc, dev, 1)[1] >> 16) == max_packet)
		return EFI_SUCCESS;
	in_ctx_clear(hc, dev);
	xhci_in_ctx(hc, dev, 0)[1] = 0x2;
	ep_ctx_fill(xhci_in_ctx(hc, dev, 2), XHCI_EP_CONTROL, max_packet, dev->rings[1]);
	return xhci_cmd_ctx(hc, TRB_EVALUATE_CONTEXT, dev, 0);
}

/* Interval as 2^n * 125 us (6.2.3.6), in the range full- and low-speed allow. */
static UINT32 interval_exponent(UINTN ms)
{
	UINT32 n = 3;

	while (n < 10 && (1u << (n + 1)) <= ms * 8)
		n++;
	return n;
}

static EFI_STATUS endpoint_add(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, UINT32 type,
			       UINTN max_packet, UINTN interval_ms)
{
	UINT32 *slot, *ep, entries;

	in_ctx_clear(hc, dev);
	xhci_in_ctx(hc, dev, 0)[1] = 1u | 1u << dci;
	slot = xhci_in_ctx(hc, dev, 1);
	mem_copy(slot, xhci_out_ctx(hc, dev, 0), hc->ctx_size);
	entries = slot[0] >> 27;
	if (dci > entries)
		slot[0] = (slot[0] & ~(0x1fu << 27)) | (UINT32)dci << 27;
	ep = xhci_in_ctx(hc, dev, 1 + dci);
	ep_ctx_fill(ep, type, max_packet, dev->rings[dci]);
	if (type == XHCI_EP_INTR_IN || type == XHCI_EP_INTR_OUT) {
		ep[0] = interval_exponent(interval_ms) << 16;
		ep[4] |= (UINT32)max_packet << 16;
	} else {
		ep[4] = 3072;
	}
	return xhci_cmd_ctx(hc, TRB_CONFIGURE_EP, dev, 0);
}

EFI_STATUS xhci_dev_endpoint(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 endpoint, UINT32 type,
			     UINTN max_packet, UINTN interval_ms, UINT8 *dci)
{
	EFI_STATUS status;

	*dci = (UINT8)((endpoint & 0xf) * 2 + (endpoint & 0x80 ? 1 : 0));
	if (*dci < 2)
		return EFI_INVALID_PARAMETER;
	if (dev->rings[*dci])
		return EFI_SUCCESS;
	dev->rings[*dci] = xhci_ring_new(hc);
	if (!dev->rings[*dci])
		return EFI_OUT_OF_RESOURCES;
	status = endpoint_add(hc, dev, *dci, type, max_packet, interval_ms);
	if (EFI_ERROR(status)) {
		log_debug("slot %u: endpoint %02x not configured: %r\n", dev->slot, endpoint,
			  status);
		xhci_ring_free(hc, dev->rings[*dci]);
		dev->rings[*dci] = NULL;
	}
	return status;
}

EFI_STATUS xhci_dev_deconfigure(struct xhci_hc *hc, struct xhci_dev *dev)
{
	bool any = false;

	for (UINT32 i = 2; i < ARRAY_SIZE(dev->rings); i++)
		any |= dev->rings[i] != NULL;
	if (!any)
		return EFI_SUCCESS;
	xhci_async_remove_dev(hc, dev);
	in_ctx_clear(hc, dev);
	xhci_cmd_ctx(hc, TRB_CONFIGURE_EP, dev, TRB_DC);
	for (UINT32 i = 2; i < ARRAY_SIZE(dev->rings); i++) {
		xhci_ring_free(hc, dev->rings[i]);
		dev->rings[i] = NULL;
	}
	return EFI_SUCCESS;
}

struct xhci_dev *xhci_dev_at(struct xhci_hc *hc, UINT8 address)
{
	UINT8 slot;

	if (address >= XHCI_MAX_ADDRESS)
		return NULL;
	slot = address ? hc->slot_of_address[address] : hc->default_slot;
	return slot ? hc->slots[slot] : NULL;
}

void xhci_ep_recover(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci)
{
	UINT32 state = xhci_out_ctx(hc, dev, dci)[0] & 7;

	if (state == EP_STATE_HALTED)
		xhci_cmd_ep(hc, TRB_RESET_EP, dev, dci);
	else if (state == EP_STATE_RUNNING)
		xhci_cmd_ep(hc, TRB_STOP_EP, dev, dci);
	xhci_cmd_set_dequeue(hc, dev, dci);
	dev->rings[dci]->busy = false;
}
