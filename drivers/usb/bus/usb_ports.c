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

static void scan_port(struct usb_bus *bus, UINT8 port, bool connect)
{
	EFI_USB2_HC_PROTOCOL *hc = bus->hc;
	EFI_USB_PORT_STATUS st;
	struct usb_device *dev = bus->devices[port];
	bool present, changed;

	if (EFI_ERROR(hc->GetRootHubPortStatus(hc, port, &st)))
		return;
	present = st.PortStatus & USB_PORT_STAT_CONNECTION;
	changed = st.PortChangeStatus & USB_PORT_STAT_C_CONNECTION;
	if (changed)
		hc->ClearRootHubPortFeature(hc, port, EfiUsbPortConnectChange);
	if (changed || !present)
		bus->failed[port] = false;
	if (dev && (!present || changed)) {
		if (EFI_ERROR(usb_device_detach(dev)))
			return; /* still in use: tried again at the next poll */
		log_info("port %u: device removed\n", port);
		dev = NULL;
	}
	if (dev || !present || bus->failed[port])
		return;
	if (EFI_ERROR(usb_device_attach(bus, port))) {
		bus->failed[port] = true;
		return;
	}
	if (connect)
		connect_children(bus->devices[port]);
}

void usb_ports_scan(struct usb_bus *bus, bool connect)
{
	for (UINT8 port = 0; port < bus->ports; port++)
		scan_port(bus, port, connect);
}
