/* Enumeration of the device on a root hub port (USB 2.0, 9.1.2): reset the port, read the
 * first bytes of the device descriptor at address 0 for the control endpoint's packet
 * size, SET_ADDRESS, the whole device descriptor, the first configuration, and
 * SET_CONFIGURATION; then one child per interface. */
#define LOG_PREFIX "usb: "
#include "usb_bus.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define RESET_WAIT_MS 100
#define RESET_RECOVERY_US 10000
#define SET_ADDRESS_RECOVERY_US 2000
#define MAX_CONFIG_BYTES 4096

static UINT8 speed_of(UINT16 status)
{
	if (status & USB_PORT_STAT_LOW_SPEED)
		return EFI_USB_SPEED_LOW;
	if (status & USB_PORT_STAT_HIGH_SPEED)
		return EFI_USB_SPEED_HIGH;
	if (status & USB_PORT_STAT_SUPER_SPEED)
		return EFI_USB_SPEED_SUPER;
	return EFI_USB_SPEED_FULL;
}

EFI_STATUS usb_port_reset(struct usb_bus *bus, struct usb_device *hub, UINT8 port, UINT8 *speed)
{
	EFI_USB_PORT_STATUS st = {0, 0};
	EFI_STATUS status = usb_port_feature(bus, hub, port, EfiUsbPortReset, true);

	if (EFI_ERROR(status))
		return status;
	for (UINT32 ms = 0; ms < RESET_WAIT_MS; ms++) {
		status = usb_port_status(bus, hub, port, &st);
		if (EFI_ERROR(status))
			return status;
		if ((st.PortStatus & USB_PORT_STAT_ENABLE) &&
		    !(st.PortStatus & USB_PORT_STAT_RESET))
			break;
		core_stall_us(1000);
	}
	usb_port_feature(bus, hub, port, EfiUsbPortResetChange, false);
	usb_port_feature(bus, hub, port, EfiUsbPortConnectChange, false);
	if (!(st.PortStatus & USB_PORT_STAT_ENABLE)) {
		log_debug("port %u not enabled by its reset\n", port);
		return EFI_NOT_FOUND;
	}
	*speed = speed_of(st.PortStatus);
	core_stall_us(RESET_RECOVERY_US);
	return EFI_SUCCESS;
}

static UINTN default_mps0(UINT8 speed)
{
	if (speed == EFI_USB_SPEED_SUPER)
		return 512;
	return speed == EFI_USB_SPEED_HIGH ? 64 : 8;
}

/* The control endpoint's packet size from the descriptor's first 8 bytes. */
static EFI_STATUS read_mps0(struct usb_device *dev)
{
	UINT8 head[8];
	UINTN len = sizeof(head);
	EFI_STATUS status;

	dev->mps0 = default_mps0(dev->speed);
	status = usb_get_descriptor(dev, USB_DESC_TYPE_DEVICE, 0, 0, head, &len);
	if (EFI_ERROR(status) || len < sizeof(head) || head[1] != USB_DESC_TYPE_DEVICE)
		return EFI_ERROR(status) ? status : EFI_DEVICE_ERROR;
	if (dev->speed == EFI_USB_SPEED_SUPER)
		return head[7] == 9 ? EFI_SUCCESS : EFI_DEVICE_ERROR;
	if (head[7] != 8 && head[7] != 16 && head[7] != 32 && head[7] != 64)
		return EFI_DEVICE_ERROR;
	if (dev->speed == EFI_USB_SPEED_LOW && head[7] != 8)
		return EFI_DEVICE_ERROR;
	dev->mps0 = head[7];
	return EFI_SUCCESS;
}

static UINT8 free_address(struct usb_bus *bus)
{
	for (UINT8 a = 1; a < 128; a++)
		if (!bus->addresses[a])
			return a;
	return 0;
}

static EFI_STATUS set_address(struct usb_device *dev, UINT8 address)
{
	UINT32 result;
	EFI_STATUS status;

	dev->address = 0;
	status = usb_control(dev, USB_REQ_TYPE_STANDARD | USB_TARGET_DEVICE, USB_REQ_SET_ADDRESS,
			     address, 0, EfiUsbNoData, NULL, NULL, &result);
	if (EFI_ERROR(status))
		return status;
	dev->address = address;
	core_stall_us(SET_ADDRESS_RECOVERY_US);
	return EFI_SUCCESS;
}

static EFI_STATUS read_config(struct usb_device *dev)
{
	UINT8 head[sizeof(EFI_USB_CONFIG_DESCRIPTOR)];
	UINTN len = sizeof(head), total;
	UINT8 *buf;
	EFI_STATUS status = usb_get_descriptor(dev, USB_DESC_TYPE_CONFIG, 0, 0, head, &len);

	if (EFI_ERROR(status))
		return status;
	total = usb_desc_config_length(head, len);
	if (!total || total > MAX_CONFIG_BYTES)
		return EFI_DEVICE_ERROR;
	buf = pool_alloc(total);
	if (!buf)
		return EFI_OUT_OF_RESOURCES;
	len = total;
	status = usb_get_descriptor(dev, USB_DESC_TYPE_CONFIG, 0, 0, buf, &len);
	if (!EFI_ERROR(status))
		status = usb_desc_config(buf, len, &dev->config);
	pool_free(buf);
	return status;
}

static EFI_STATUS identify(struct usb_device *dev, UINT8 address)
{
	UINT8 buf[sizeof(EFI_USB_DEVICE_DESCRIPTOR)];
	UINTN len = sizeof(buf);
	EFI_STATUS status = read_mps0(dev);

	if (EFI_ERROR(status)) {
		log_debug("port %u: no device descriptor: %r\n", dev->port, status);
		return status;
	}
	status = set_address(dev, address);
	if (EFI_ERROR(status)) {
		log_debug("port %u: SET_ADDRESS %u: %r\n", dev->port, address, status);
		return status;
	}
	status = usb_get_descriptor(dev, USB_DESC_TYPE_DEVICE, 0, 0, buf, &len);
	if (!EFI_ERROR(status))
		status = usb_desc_device(buf, len, &dev->desc);
	if (EFI_ERROR(status)) {
		log_debug("port %u: device descriptor: %r\n", dev->port, status);
		return status;
	}
	status = read_config(dev);
	if (EFI_ERROR(status)) {
		log_debug("port %u: configuration: %r\n", dev->port, status);
		return status;
	}
	status = usb_set_config(dev, dev->config.desc.ConfigurationValue);
	if (EFI_ERROR(status))
		log_debug("port %u: SET_CONFIGURATION: %r\n", dev->port, status);
	dev->configured = !EFI_ERROR(status);
	return status;
}

/* Where a device behind hub sends its full- and low-speed transactions: the port of the
 * nearest high-speed hub on its way to the root (USB 2.0, 11.14). */
static void set_translator(struct usb_device *dev, struct usb_device *hub)
{
	if (!hub || dev->speed == EFI_USB_SPEED_HIGH || dev->speed == EFI_USB_SPEED_SUPER)
		return;
	if (hub->speed == EFI_USB_SPEED_HIGH) {
		dev->tt.TranslatorHubAddress = hub->address;
		dev->tt.TranslatorPortNumber = (UINT8)(dev->port + 1);
	} else {
		dev->tt = hub->tt;
	}
}

static struct usb_device **slot_of(struct usb_bus *bus, struct usb_device *hub, UINT8 port)
{
	return hub ? &hub->hub->children[port] : &bus->devices[port];
}

EFI_STATUS usb_device_attach(struct usb_bus *bus, struct usb_device *hub, UINT8 port)
{
	struct usb_device *dev;
	UINT8 speed, address = free_address(bus);
	EFI_STATUS status = usb_port_reset(bus, hub, port, &speed);

	if (EFI_ERROR(status))
		return status;
	if (!address)
		return EFI_OUT_OF_RESOURCES;
	dev = pool_alloc(sizeof(*dev));
	if (!dev)
		return EFI_OUT_OF_RESOURCES;
	dev->bus = bus;
	dev->parent = hub;
	dev->depth = hub ? (UINT8)(hub->depth + 1) : 0;
	dev->port = port;
	dev->speed = speed;
	set_translator(dev, hub);
	status = identify(dev, address);
	if (EFI_ERROR(status))
		goto err_free;
	bus->addresses[address] = true;
	*slot_of(bus, hub, port) = dev;
	status = usb_interfaces_create(dev);
	if (EFI_ERROR(status))
		goto err_detach;
	log_info("port %u depth %u: device %04x:%04x, %u interfaces\n", port, dev->depth,
		 dev->desc.IdVendor, dev->desc.IdProduct, dev->num_interfaces);
	if (dev->desc.DeviceClass == USB_CLASS_HUB && EFI_ERROR(usb_hub_start(dev)))
		log_warn("port %u: hub left unused\n", port);
	return EFI_SUCCESS;

err_detach:
	*slot_of(bus, hub, port) = NULL;
	bus->addresses[address] = false;
err_free:
	pool_free(dev);
	return status;
}

EFI_STATUS usb_device_detach(struct usb_device *dev)
{
	struct usb_bus *bus = dev->bus;
	EFI_STATUS status = usb_hub_stop(dev);

	if (!EFI_ERROR(status))
		status = usb_interfaces_destroy(dev);
	if (EFI_ERROR(status))
		return status;
	bus->addresses[dev->address] = false;
	*slot_of(bus, dev->parent, dev->port) = NULL;
	pool_free(dev);
	return EFI_SUCCESS;
}

EFI_STATUS usb_device_reset(struct usb_device *dev)
{
	UINT8 speed, address = dev->address;
	EFI_STATUS status = usb_port_reset(dev->bus, dev->parent, dev->port, &speed);

	if (EFI_ERROR(status))
		return status;
	status = set_address(dev, address);
	if (EFI_ERROR(status)) {
		dev->address = address;
		return status;
	}
	mem_set(dev->toggles, 0, sizeof(dev->toggles));
	if (dev->configured)
		status = usb_set_config(dev, dev->config.desc.ConfigurationValue);
	return status;
}
