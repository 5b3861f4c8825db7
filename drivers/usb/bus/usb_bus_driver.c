/* The USB bus driver (UEFI driver model, UEFI 2.10 17.2): binds to EFI_USB2_HC_PROTOCOL,
 * enumerates the devices on the root hub's ports, gives each interface a child handle, and
 * polls the ports for devices plugged in or pulled out. */
#define LOG_PREFIX "usb: "
#include "usb_bus.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

static struct usb_bus *bus_on(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller)
{
	struct usb_bus *bus;

	if (EFI_ERROR(protocol_open(controller, &ember_usb_bus_data_guid, (void **)&bus,
				    this->DriverBindingHandle, controller,
				    EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		return NULL;
	return bus->signature == USB_BUS_SIGNATURE && bus->driver == this->DriverBindingHandle
		   ? bus
		   : NULL;
}

static EFI_STATUS EFIAPI usb_bus_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_usb2_hc_protocol_guid,
			       NULL);
}

static void EFIAPI hotplug_poll(EFI_EVENT event, void *context)
{
	struct usb_bus *bus = context;

	if (bus->busy)
		return;
	bus->busy = true;
	usb_ports_scan(bus, true);
	bus->busy = false;
}

static EFI_STATUS bus_open(struct usb_bus *bus)
{
	UINT8 speed, ports, is64;
	EFI_STATUS status;

	status = protocol_open(bus->controller, &efi_usb2_hc_protocol_guid, (void **)&bus->hc,
			       bus->driver, bus->controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		return status;
	status = protocol_open(bus->controller, &efi_device_path_protocol_guid, (void **)&bus->path,
			       bus->driver, bus->controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status)) {
		log_debug("no device path: %r\n", status);
		return status;
	}
	status = bus->hc->GetCapability(bus->hc, &speed, &ports, &is64);
	if (EFI_ERROR(status)) {
		log_debug("GetCapability: %r\n", status);
		return status;
	}
	bus->ports = ports < USB_MAX_PORTS ? ports : USB_MAX_PORTS;
	status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, hotplug_poll, bus, NULL,
			      &bus->hotplug);
	if (EFI_ERROR(status))
		return status;
	return protocol_install(&bus->controller, &ember_usb_bus_data_guid, bus);
}

static void bus_close(struct usb_bus *bus)
{
	if (bus->hotplug)
		event_close(bus->hotplug);
	protocol_close(bus->controller, &efi_usb2_hc_protocol_guid, bus->driver, bus->controller);
}

static EFI_STATUS EFIAPI usb_bus_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct usb_bus *bus = bus_on(this, controller);
	EFI_STATUS status;

	if (bus)
		return EFI_ALREADY_STARTED;
	bus = pool_alloc(sizeof(*bus));
	if (!bus)
		return EFI_OUT_OF_RESOURCES;
	bus->signature = USB_BUS_SIGNATURE;
	bus->controller = controller;
	bus->driver = this->DriverBindingHandle;
	status = bus_open(bus);
	if (EFI_ERROR(status)) {
		log_debug("cannot start: %r\n", status);
		bus_close(bus);
		pool_free(bus);
		return status;
	}
	bus->busy = true;
	usb_ports_scan(bus, false);
	bus->busy = false;
	event_set_timer(bus->hotplug, TimerPeriodic, USB_HOTPLUG_100NS);
	return EFI_SUCCESS;
}

static EFI_STATUS stop_children(struct usb_bus *bus, UINTN count, EFI_HANDLE *children)
{
	EFI_STATUS result = EFI_SUCCESS;

	for (UINTN i = 0; i < count; i++) {
		struct usb_interface *intf = usb_interface_on(bus, children[i]);

		/* Detaching a device takes all its interfaces: later ones are gone. */
		if (intf && EFI_ERROR(usb_device_detach(intf->dev)))
			result = EFI_DEVICE_ERROR;
	}
	return result;
}

static EFI_STATUS EFIAPI usb_bus_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      UINTN child_count, EFI_HANDLE *children)
{
	struct usb_bus *bus = bus_on(this, controller);

	if (!bus)
		return EFI_UNSUPPORTED;
	if (child_count)
		return stop_children(bus, child_count, children);
	event_set_timer(bus->hotplug, TimerCancel, 0);
	for (UINT8 port = 0; port < bus->ports; port++)
		if (bus->devices[port] && EFI_ERROR(usb_device_detach(bus->devices[port])))
			return EFI_DEVICE_ERROR;
	protocol_uninstall(controller, &ember_usb_bus_data_guid, bus);
	bus_close(bus);
	bus->signature = 0;
	pool_free(bus);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL usb_bus_binding;

static EFI_STATUS EFIAPI usb_bus_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
						 EFI_HANDLE controller, EFI_HANDLE child,
						 CHAR8 *language, CHAR16 **name)
{
	struct usb_bus *bus = bus_on(&usb_bus_binding, controller);

	if (!bus || (child && !usb_interface_on(bus, child)))
		return EFI_UNSUPPORTED;
	*name = child ? (CHAR16 *)u"USB Device" : (CHAR16 *)u"USB Bus";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL usb_bus_binding = {
    .Supported = usb_bus_supported,
    .Start = usb_bus_start,
    .Stop = usb_bus_stop,
    .Version = 0x10,
};

static const struct ember_driver usb_bus_driver = {
    .name = u"USB Bus Driver",
    .binding = &usb_bus_binding,
    .controller_name = usb_bus_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, usb_bus_driver);
