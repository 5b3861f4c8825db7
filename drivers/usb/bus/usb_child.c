/* The interfaces of a device as child handles of the host controller: each carries
 * <controller>/USB(port,interface) and EFI_USB_IO_PROTOCOL, and holds the controller's
 * USB2_HC BY_CHILD_CONTROLLER. */
#define LOG_PREFIX "usb: "
#include "usb_bus.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/util.h>

static EFI_DEVICE_PATH_PROTOCOL *interface_path(struct usb_device *dev, UINT8 number)
{
	USB_DEVICE_PATH node;

	dp_set_node(&node.Header, MESSAGING_DEVICE_PATH, MSG_USB_DP, sizeof(node));
	node.ParentPortNumber = dev->port;
	node.InterfaceNumber = number;
	/* Behind a hub, the node follows the hub's own: <controller>/USB(hub)/USB(device). */
	if (dev->parent && dev->parent->num_interfaces)
		return dp_append_node(dev->parent->interfaces[0]->path, &node.Header);
	return dp_append_node(dev->bus->path, &node.Header);
}

static EFI_STATUS interface_create(struct usb_device *dev, struct usb_interface_desc *desc)
{
	struct usb_bus *bus = dev->bus;
	struct usb_interface *intf = pool_alloc(sizeof(*intf));
	EFI_USB2_HC_PROTOCOL *hc;
	EFI_STATUS status;

	if (!intf)
		return EFI_OUT_OF_RESOURCES;
	intf->signature = USB_IF_SIGNATURE;
	intf->io = usb_io_template;
	intf->dev = dev;
	intf->desc = desc;
	intf->path = interface_path(dev, desc->desc.InterfaceNumber);
	if (!intf->path) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	status = protocol_install_multiple(&intf->handle, &efi_device_path_protocol_guid,
					   intf->path, &efi_usb_io_protocol_guid, &intf->io, NULL);
	if (EFI_ERROR(status))
		goto err_path;
	status = protocol_open(bus->controller, &efi_usb2_hc_protocol_guid, (void **)&hc,
			       bus->driver, intf->handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status))
		goto err_uninstall;
	dev->interfaces[dev->num_interfaces++] = intf;
	return EFI_SUCCESS;

err_uninstall:
	protocol_uninstall_multiple(intf->handle, &efi_device_path_protocol_guid, intf->path,
				    &efi_usb_io_protocol_guid, &intf->io, NULL);
err_path:
	pool_free(intf->path);
err_free:
	log_debug("port %u interface %u: no child: %r\n", dev->port, desc->desc.InterfaceNumber,
		  status);
	pool_free(intf);
	return status;
}

EFI_STATUS usb_interfaces_create(struct usb_device *dev)
{
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT8 i = 0; i < dev->config.num_interfaces && !EFI_ERROR(status); i++)
		status = interface_create(dev, &dev->config.interfaces[i]);
	if (EFI_ERROR(status))
		usb_interfaces_destroy(dev);
	return status;
}

static EFI_STATUS interface_destroy(struct usb_interface *intf)
{
	struct usb_bus *bus = intf->dev->bus;
	EFI_USB2_HC_PROTOCOL *hc;
	EFI_STATUS status;

	protocol_close(bus->controller, &efi_usb2_hc_protocol_guid, bus->driver, intf->handle);
	status =
	    protocol_uninstall_multiple(intf->handle, &efi_device_path_protocol_guid, intf->path,
					&efi_usb_io_protocol_guid, &intf->io, NULL);
	if (EFI_ERROR(status)) {
		/* Still in use: the child stays, with its claim on the controller. */
		protocol_open(bus->controller, &efi_usb2_hc_protocol_guid, (void **)&hc,
			      bus->driver, intf->handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	intf->signature = 0;
	pool_free(intf->path);
	pool_free(intf);
	return EFI_SUCCESS;
}

/* Destroys the children from the last; stops at one still in use. */
EFI_STATUS usb_interfaces_destroy(struct usb_device *dev)
{
	while (dev->num_interfaces) {
		EFI_STATUS status = interface_destroy(dev->interfaces[dev->num_interfaces - 1]);

		if (EFI_ERROR(status))
			return status;
		dev->interfaces[--dev->num_interfaces] = NULL;
	}
	return EFI_SUCCESS;
}

struct usb_interface *usb_interface_on(struct usb_bus *bus, EFI_HANDLE handle)
{
	EFI_USB_IO_PROTOCOL *io;
	struct usb_interface *intf;

	if (EFI_ERROR(protocol_open(handle, &efi_usb_io_protocol_guid, (void **)&io, bus->driver,
				    bus->controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		return NULL;
	intf = container_of(io, struct usb_interface, io);
	return intf->signature == USB_IF_SIGNATURE && intf->dev->bus == bus ? intf : NULL;
}
