/* The hub class (USB 2.0, chapter 11): a hub's ports through its class requests, the hub
 * descriptor and its ports powered on. The devices behind are found by usb_ports.c. */
#define LOG_PREFIX "usb: "
#include "usb_bus.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

#define HUB_REQ_OUT_PORT (USB_REQ_TYPE_CLASS | USB_TARGET_OTHER)
#define HUB_REQ_IN_PORT (USB_REQ_TYPE_DIR_IN | USB_REQ_TYPE_CLASS | USB_TARGET_OTHER)
#define HUB_REQ_IN_DEVICE (USB_REQ_TYPE_DIR_IN | USB_REQ_TYPE_CLASS | USB_TARGET_DEVICE)
#define HUB_DESC_MAX 71 /* 7 bytes and two bitmaps of 255 ports */

EFI_STATUS usb_port_status(struct usb_bus *bus, struct usb_device *hub, UINT8 port,
			   EFI_USB_PORT_STATUS *st)
{
	UINT8 raw[4];
	UINTN len = sizeof(raw);
	UINT32 result;
	EFI_STATUS status;

	if (!hub)
		return bus->hc->GetRootHubPortStatus(bus->hc, port, st);
	status = usb_control(hub, HUB_REQ_IN_PORT, USB_REQ_GET_STATUS, 0, (UINT16)(port + 1),
			     EfiUsbDataIn, raw, &len, &result);
	if (EFI_ERROR(status) || len < sizeof(raw))
		return EFI_ERROR(status) ? status : EFI_DEVICE_ERROR;
	/* wPortStatus and wPortChange: the bits USB_PORT_STAT_* name. */
	st->PortStatus = (UINT16)(raw[0] | raw[1] << 8);
	st->PortChangeStatus = (UINT16)(raw[2] | raw[3] << 8);
	return EFI_SUCCESS;
}

EFI_STATUS usb_port_feature(struct usb_bus *bus, struct usb_device *hub, UINT8 port,
			    EFI_USB_PORT_FEATURE feature, bool set)
{
	EFI_USB2_HC_PROTOCOL *hc = bus->hc;
	UINT32 result;

	if (!hub)
		return set ? hc->SetRootHubPortFeature(hc, port, feature)
			   : hc->ClearRootHubPortFeature(hc, port, feature);
	return usb_control(hub, HUB_REQ_OUT_PORT, set ? USB_REQ_SET_FEATURE : USB_REQ_CLEAR_FEATURE,
			   (UINT16)feature, (UINT16)(port + 1), EfiUsbNoData, NULL, NULL, &result);
}

static EFI_STATUS read_hub_desc(struct usb_device *dev, struct usb_hub_desc *out)
{
	UINT8 buf[HUB_DESC_MAX];
	UINTN len = sizeof(buf);
	UINT32 result;
	EFI_STATUS status =
	    usb_control(dev, HUB_REQ_IN_DEVICE, USB_REQ_GET_DESCRIPTOR, USB_DESC_TYPE_HUB << 8, 0,
			EfiUsbDataIn, buf, &len, &result);

	if (EFI_ERROR(status))
		return status;
	return usb_desc_hub(buf, len, out);
}

EFI_STATUS usb_hub_start(struct usb_device *dev)
{
	struct usb_hub *hub;
	EFI_STATUS status;

	if (dev->depth >= USB_HUB_MAX_DEPTH) {
		log_warn("hub at depth %u: USB allows no more hubs there\n", dev->depth + 1);
		return EFI_UNSUPPORTED;
	}
	hub = pool_alloc(sizeof(*hub));
	if (!hub)
		return EFI_OUT_OF_RESOURCES;
	status = read_hub_desc(dev, &hub->desc);
	if (EFI_ERROR(status)) {
		log_debug("port %u: hub descriptor: %r\n", dev->port, status);
		pool_free(hub);
		return status;
	}
	dev->hub = hub;
	for (UINT8 p = 0; p < hub->desc.ports; p++)
		usb_port_feature(dev->bus, dev, p, EfiUsbPortPower, true);
	/* Power good comes bPwrOn2PwrGood after the ports are powered (11.23.2.1). */
	core_stall_us(hub->desc.power_on_ms * 1000u);
	log_info("port %u: hub with %u ports\n", dev->port, hub->desc.ports);
	return EFI_SUCCESS;
}

EFI_STATUS usb_hub_stop(struct usb_device *dev)
{
	struct usb_hub *hub = dev->hub;

	if (!hub)
		return EFI_SUCCESS;
	for (UINT8 p = 0; p < hub->desc.ports; p++)
		if (hub->children[p] && EFI_ERROR(usb_device_detach(hub->children[p])))
			return EFI_ACCESS_DENIED;
	dev->hub = NULL;
	pool_free(hub);
	return EFI_SUCCESS;
}
