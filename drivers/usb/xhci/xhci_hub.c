/* Devices behind hubs (xHCI 1.2, 4.3.3 and 6.2.2): the bus driver resets a hub's port with
 * a class request, so the xHC learns of the device from that request. The slot of the
 * device there gets the hub's root port, a route string one hub tier longer, and for a
 * full/low-speed device behind a high-speed hub the translator's hub slot and port; a
 * hub's own slot is marked as a hub of its number of ports once its descriptor is read. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/protocol/usb_io.h>

#define HUB_MAX_DEPTH 5
#define HUB_PORT_RESET 4
#define HUB_DESC_TYPE 0x29
#define REQ_OUT_CLASS_OTHER 0x23
#define REQ_IN_CLASS_DEVICE 0xa0
#define SLOT_HUB (1u << 26)

static UINT8 xhci_speed(UINT8 efi_speed)
{
	switch (efi_speed) {
	case EFI_USB_SPEED_LOW:
		return XHCI_SPEED_LOW;
	case EFI_USB_SPEED_HIGH:
		return XHCI_SPEED_HIGH;
	case EFI_USB_SPEED_SUPER:
		return XHCI_SPEED_SUPER;
	default:
		return XHCI_SPEED_FULL;
	}
}

/* The slot of the device the bus driver last found on port of hub. */
static struct xhci_dev *child_at(struct xhci_hc *hc, UINT8 hub_slot, UINT8 port)
{
	for (UINT32 s = 1; s <= XHCI_MAX_SLOTS; s++)
		if (hc->slots[s] && hc->slots[s]->parent_slot == hub_slot &&
		    hc->slots[s]->parent_port == port)
			return hc->slots[s];
	return NULL;
}

struct xhci_dev *xhci_dev_behind_hub(struct xhci_hc *hc, UINT8 speed,
				     const EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt)
{
	struct xhci_dev *hub = hc->hub_reset_slot ? hc->slots[hc->hub_reset_slot] : NULL;
	struct xhci_dev tmpl = {0};
	UINT8 x = xhci_speed(speed);

	hc->hub_reset_slot = 0;
	if (!hub || hub->depth >= HUB_MAX_DEPTH || !hc->hub_reset_port || hc->hub_reset_port > 15) {
		log_debug("address 0 behind no hub port that was reset\n");
		return NULL;
	}
	tmpl.port = hub->port;
	tmpl.speed = x;
	tmpl.route = hub->route | (UINT32)hc->hub_reset_port << (4 * hub->depth);
	tmpl.depth = (UINT8)(hub->depth + 1);
	tmpl.parent_slot = hub->slot;
	tmpl.parent_port = hc->hub_reset_port;
	if (tt && tt->TranslatorHubAddress && (x == XHCI_SPEED_FULL || x == XHCI_SPEED_LOW)) {
		tmpl.tt_slot = tt->TranslatorHubAddress < XHCI_MAX_ADDRESS
				   ? hc->slot_of_address[tt->TranslatorHubAddress]
				   : 0;
		tmpl.tt_port = tt->TranslatorPortNumber;
	}
	if (EFI_ERROR(xhci_dev_create_at(hc, &tmpl)))
		return NULL;
	return xhci_dev_at(hc, 0);
}

/* Configure Endpoint with the slot context alone: Hub, Number of Ports, TT Think Time
 * (6.2.2, 4.6.6). */
static void mark_hub(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 ports, UINT8 think)
{
	UINT32 *slot;

	mem_set((UINT8 *)dev->ctx.host + XHCI_PAGE, 0, 2 * XHCI_PAGE);
	xhci_in_ctx(hc, dev, 0)[1] = 1;
	slot = xhci_in_ctx(hc, dev, 1);
	mem_copy(slot, xhci_out_ctx(hc, dev, 0), hc->ctx_size);
	slot[0] |= SLOT_HUB;
	slot[1] = (slot[1] & 0x00ffffffu) | (UINT32)ports << 24;
	slot[2] = (slot[2] & ~(3u << 16)) | (UINT32)think << 16;
	slot[3] = 0;
	if (EFI_ERROR(xhci_cmd_ctx(hc, TRB_CONFIGURE_EP, dev, 0)))
		log_debug("slot %u: not marked as a hub\n", dev->slot);
}

void xhci_hub_request_done(struct xhci_hc *hc, struct xhci_dev *dev,
			   const EFI_USB_DEVICE_REQUEST *req, const void *data, UINTN length)
{
	const UINT8 *d = data;
	struct xhci_dev *old;

	if (req->RequestType == REQ_OUT_CLASS_OTHER && req->Request == USB_REQ_SET_FEATURE &&
	    req->Value == HUB_PORT_RESET) {
		/* Whatever was there before is gone: a new device answers at address 0. */
		old = child_at(hc, dev->slot, (UINT8)req->Index);
		if (old)
			xhci_dev_destroy(hc, old);
		hc->hub_reset_slot = dev->slot;
		hc->hub_reset_port = (UINT8)req->Index;
		return;
	}
	if (req->RequestType == REQ_IN_CLASS_DEVICE && req->Request == USB_REQ_GET_DESCRIPTOR &&
	    req->Value >> 8 == HUB_DESC_TYPE && d && length >= 7 && d[1] == HUB_DESC_TYPE)
		mark_hub(hc, dev, d[2], (UINT8)((d[3] >> 5) & 3));
}
