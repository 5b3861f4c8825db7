/* Parsers of USB descriptors (USB 2.0, 9.6) as devices send them: outside data, so each is
 * bounded by the length received and refuses what breaks the rules instead of guessing.
 * Pure (no UEFI calls): the bus driver, the class drivers, the unit tests and the fuzzer
 * share them. */
#ifndef EMBER_USB_DESC_H
#define EMBER_USB_DESC_H

#include <stdbool.h>
#include <efi/protocol/usb_io.h>

#define USB_MAX_INTERFACES 16
#define USB_MAX_ENDPOINTS 16
#define USB_MAX_LANGUAGES 16

/* One interface of a configuration (alternate setting 0) with its endpoints. */
struct usb_interface_desc {
	EFI_USB_INTERFACE_DESCRIPTOR desc;
	UINT8 num_endpoints;
	EFI_USB_ENDPOINT_DESCRIPTOR endpoints[USB_MAX_ENDPOINTS];
};

struct usb_config_desc {
	EFI_USB_CONFIG_DESCRIPTOR desc;
	UINT8 num_interfaces;
	struct usb_interface_desc interfaces[USB_MAX_INTERFACES];
};

/* A device descriptor: at least 18 bytes of type 1, a valid bMaxPacketSize0 and a
 * configuration. EFI_NOT_FOUND when refused. */
EFI_STATUS usb_desc_device(const void *buf, UINTN len, EFI_USB_DEVICE_DESCRIPTOR *out);

/* The wTotalLength a configuration descriptor's first 9 bytes announce, or 0 when they are
 * not one. */
UINT16 usb_desc_config_length(const void *buf, UINTN len);

/* A whole configuration (its wTotalLength bytes, no more than len): every descriptor in
 * bounds, interfaces and endpoints well formed, each interface's endpoints all present.
 * Interfaces beyond USB_MAX_INTERFACES are left out, as are alternate settings other than
 * 0. EFI_NOT_FOUND when refused. */
EFI_STATUS usb_desc_config(const void *buf, UINTN len, struct usb_config_desc *out);

/* String descriptor 0: the language IDs (at most max). EFI_NOT_FOUND when refused. */
EFI_STATUS usb_desc_languages(const void *buf, UINTN len, UINT16 *ids, UINTN max, UINTN *count);

/* A string descriptor's characters into text (room for max - 1 characters and the NUL,
 * cut there). EFI_NOT_FOUND when refused. */
EFI_STATUS usb_desc_string(const void *buf, UINTN len, CHAR16 *text, UINTN max);

/* A hub descriptor (USB 2.0, 11.23.2.1), what a hub's class request GET_DESCRIPTOR(0x29)
 * returns. */
#define USB_DESC_TYPE_HUB 0x29
#define USB_HUB_MAX_PORTS 15 /* ports beyond are left unused */

struct usb_hub_desc {
	UINT8 ports;		/* bNbrPorts, at most USB_HUB_MAX_PORTS */
	UINT16 characteristics; /* wHubCharacteristics */
	UINT32 power_on_ms;	/* bPwrOn2PwrGood * 2: from port power on to power good */
	UINT8 tt_think;		/* TT think time code (characteristics bits 6:5) */
	UINT16 removable;	/* DeviceRemovable: bit n for port n (1 based), 1 = fixed */
};

/* A hub descriptor: its bLength bytes (no more than len), of type 0x29, with at least one
 * port and its DeviceRemovable bitmap (one bit per port plus bit 0) within bLength. EFI_NOT_FOUND
 * when refused. */
EFI_STATUS usb_desc_hub(const void *buf, UINTN len, struct usb_hub_desc *out);

#endif
