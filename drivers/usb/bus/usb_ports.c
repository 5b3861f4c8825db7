/* The root hub's ports: a device that appears is enumerated, one that went away (or was
 * replaced) is detached, at Start and then from a periodic poll (hot-plug). */
#define LOG_PREFIX "usb: "
#include "usb_bus.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

static void connect_children(struct usb_device *dev)
{
	for (UINT8 i = 0; i < dev->num_interfaces; i++)
		driver_connect(dev->interfaces[i]->handle, NULL, NULL, true);
}

static void scan_hub(struct usb_device *hub, bool connect);

/* A port of the root hub (hub NULL) or of a hub. */
static void scan_port(struct usb_bus *bus, struct usb_device *hub, UINT8 port, bool connect)
{
	EFI_USB_PORT_STATUS st;
	struct usb_device *dev = hub ? hub->hub->children[port] : bus->devices[port];
	bool *failed = hub ? &hub->hub->failed[port] : &bus->failed[port];
	bool present, changed;

	if (EFI_ERROR(usb_port_status(bus, hub, port, &st)))
		return;
	present = st.PortStatus & USB_PORT_STAT_CONNECTION;
	changed = st.PortChangeStatus & USB_PORT_STAT_C_CONNECTION;
	if (changed)
		usb_port_feature(bus, hub, port, EfiUsbPortConnectChange, false);
	if (changed || !present)
		*failed = false;
	if (dev && (!present || changed)) {
		if (EFI_ERROR(usb_device_detach(dev)))
			return; /* still in use: tried again at the next poll */
		log_info("port %u: device removed\n", port);
		dev = NULL;
	}
	if (dev && dev->hub)
		scan_hub(dev, connect);
	if (dev || !present || *failed)
		return;
	if (EFI_ERROR(usb_device_attach(bus, hub, port))) {
		*failed = true;
		return;
	}
	dev = hub ? hub->hub->children[port] : bus->devices[port];
	if (connect)
		connect_children(dev);
	if (dev->hub)
		scan_hub(dev, connect);
}

/* The ports of a hub, found by polling its port status (its status-change endpoint is not
 * used): the depth limit of usb_hub_start bounds the recursion. */
static void scan_hub(struct usb_device *hub, bool connect)
{
	for (UINT8 port = 0; port < hub->hub->desc.ports; port++)
		scan_port(hub->bus, hub, port, connect);
}

void usb_ports_scan(struct usb_bus *bus, bool connect)
{
	for (UINT8 port = 0; port < bus->ports; port++)
		scan_port(bus, NULL, port, connect);
}
