/* The USB bus driver's private interfaces: the bus over one EFI_USB2_HC_PROTOCOL, its
 * devices (one per root hub port) and their interfaces, each a child handle with
 * EFI_USB_IO_PROTOCOL and a USB(port,interface) device path (UEFI 2.10, 17.2). */
#ifndef EMBER_USB_BUS_H
#define EMBER_USB_BUS_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/usb2_hc.h>
#include <efi/protocol/usb_io.h>
#include <ember/drivers/usb_desc.h>

#define USB_BUS_SIGNATURE 0x62627375u /* "usbb" */
#define USB_IF_SIGNATURE 0x66697375u  /* "usif" */
#define USB_MAX_PORTS 32
#define USB_CONTROL_TIMEOUT_MS 1000
/* How often the root hub's ports are looked at for devices coming and going (100 ns). */
#define USB_HOTPLUG_100NS (200 * 10000)

struct usb_device;

/* One interface of a device: a child handle. */
struct usb_interface {
	UINT32 signature;
	EFI_USB_IO_PROTOCOL io;
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *path;
	struct usb_device *dev;
	struct usb_interface_desc *desc; /* in dev->config */
};

struct usb_bus;

/* USB 2.0, 4.1.1: five hubs at most between the root and a device. */
#define USB_HUB_MAX_DEPTH 5
#define USB_CLASS_HUB 9

/* The hub class state of a device that is a hub (usb_hub.c). */
struct usb_hub {
	struct usb_hub_desc desc;
	struct usb_device *children[USB_HUB_MAX_PORTS];
	bool failed[USB_HUB_MAX_PORTS];
};

struct usb_device {
	struct usb_bus *bus;
	struct usb_device *parent; /* the hub it is behind, NULL on a root hub port */
	UINT8 depth;		   /* hubs between it and the root hub */
	struct usb_hub *hub;	   /* when it is a hub */
	UINT8 port;		   /* port of the root hub or of the parent hub, from 0 */
	UINT8 address;		   /* 1..127 */
	UINT8 speed;		   /* EFI_USB_SPEED_* */
	UINTN mps0;
	EFI_USB2_HC_TRANSACTION_TRANSLATOR tt;
	EFI_USB_DEVICE_DESCRIPTOR desc;
	struct usb_config_desc config;
	bool configured;
	UINT16 languages[USB_MAX_LANGUAGES];
	UINTN num_languages; /* read with the first string asked for */
	bool languages_read;
	UINT8 toggles[32]; /* data toggle by endpoint (number + 16 for IN) */
	UINT8 num_interfaces;
	struct usb_interface *interfaces[USB_MAX_INTERFACES];
};

struct usb_bus {
	UINT32 signature;
	EFI_HANDLE controller, driver;
	EFI_USB2_HC_PROTOCOL *hc;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINT8 ports;
	struct usb_device *devices[USB_MAX_PORTS];
	bool addresses[128];
	EFI_EVENT hotplug;
	bool busy;		    /* enumerating: the hot-plug poll leaves the ports alone */
	bool failed[USB_MAX_PORTS]; /* the device there could not be attached: left alone until it
				       goes */
};

/* Standard requests through the host controller (usb_request.c). */
EFI_STATUS usb_control(struct usb_device *dev, UINT8 type, UINT8 request, UINT16 value,
		       UINT16 index, EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length,
		       UINT32 *result);
EFI_STATUS usb_get_descriptor(struct usb_device *dev, UINT8 type, UINT8 index, UINT16 lang,
			      void *buf, UINTN *length);
EFI_STATUS usb_set_config(struct usb_device *dev, UINT8 value);

/* Enumeration (usb_enum.c); hub is the parent hub, NULL for the root hub. */
EFI_STATUS usb_port_reset(struct usb_bus *bus, struct usb_device *hub, UINT8 port, UINT8 *speed);
EFI_STATUS usb_device_attach(struct usb_bus *bus, struct usb_device *hub, UINT8 port);
EFI_STATUS usb_device_detach(struct usb_device *dev);
/* Resets the device's port and gives it its address and configuration again. */
EFI_STATUS usb_device_reset(struct usb_device *dev);

/* Children (usb_child.c). */
EFI_STATUS usb_interfaces_create(struct usb_device *dev);
EFI_STATUS usb_interfaces_destroy(struct usb_device *dev);
struct usb_interface *usb_interface_on(struct usb_bus *bus, EFI_HANDLE handle);

/* EFI_USB_IO_PROTOCOL (usb_io.c). */
extern const EFI_USB_IO_PROTOCOL usb_io_template;

/* The ports (usb_ports.c): attaches new devices and detaches those gone, on the root hub
 * and then behind every hub. */
void usb_ports_scan(struct usb_bus *bus, bool connect);

/* Ports of the root hub (hub NULL) or of a hub, from 0, through the hub class requests
 * (USB 2.0, 11.24.2) whose feature selectors and status bits USB2_HC's share (usb_hub.c). */
EFI_STATUS usb_port_status(struct usb_bus *bus, struct usb_device *hub, UINT8 port,
			   EFI_USB_PORT_STATUS *st);
EFI_STATUS usb_port_feature(struct usb_bus *bus, struct usb_device *hub, UINT8 port,
			    EFI_USB_PORT_FEATURE feature, bool set);
/* Makes a configured device of the hub class a hub: its descriptor, its ports powered. */
EFI_STATUS usb_hub_start(struct usb_device *dev);
/* Detaches the devices behind a hub, then forgets its hub state; an error when one is
 * still in use. */
EFI_STATUS usb_hub_stop(struct usb_device *dev);

#endif
