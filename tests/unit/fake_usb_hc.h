/* A USB host controller in memory for the tests of the USB bus driver and the class
 * drivers: EFI_USB2_HC_PROTOCOL on a handle with PciRoot(0x0)/Pci(0x1,0x0), root ports
 * that devices are plugged into and pulled out of, and devices that answer the standard
 * requests from their descriptors (GET_DESCRIPTOR, SET_ADDRESS, SET_CONFIGURATION) and
 * record class requests, or hand them and bulk transfers to a function of their own. An
 * AsyncInterruptTransfer is kept for the test to deliver reports through (fake_usb_hc_report).
 * Mistakes a real controller would not survive (a transfer to an address nobody has, a SET_ADDRESS
 * to a device not at address 0, two devices at address 0) are counted in errors. */
#ifndef EMBER_TEST_FAKE_USB_HC_H
#define EMBER_TEST_FAKE_USB_HC_H

#include <stdbool.h>
#include <efi/protocol/usb2_hc.h>
#include <efi/protocol/usb_io.h>

#define FAKE_USB_PORTS 4

struct fake_usb_device;

struct fake_usb_port {
	struct fake_usb_device *dev;
	bool enabled, connect_change;
	bool powered; /* a hub's port: what is plugged in is seen only once powered */
};

/* A device that is a hub (hub_desc set) answers the hub class requests for its ports
 * (GET_DESCRIPTOR(HUB), GET_STATUS, SET_FEATURE and CLEAR_FEATURE of a port); the devices
 * on its powered, enabled ports answer once it is configured. */
struct fake_usb_device {
	const UINT8 *device_desc; /* 18 bytes */
	const UINT8 *config;	  /* wTotalLength bytes */
	UINTN config_len;
	const UINT8 *strings[4]; /* string descriptors 0 (languages) to 3 */
	UINT8 speed;		 /* EFI_USB_SPEED_* */
	/* State the host gives it. */
	UINT8 address;
	UINT8 configuration;
	UINTN class_requests;
	EFI_USB_DEVICE_REQUEST last_class;
	UINT8 last_class_data[8];
	/* The interrupt transfer the host keeps open, if any. */
	EFI_ASYNC_USB_TRANSFER_CALLBACK callback;
	void *context;
	UINT8 endpoint;
	/* A class function of its own (fake_usb_bot.c): when set, class requests and
	 * CLEAR_FEATURE to an endpoint go to request, bulk transfers to bulk (without it a bulk
	 * endpoint stalls). *result is the USB status, as in EFI_USB2_HC_PROTOCOL. */
	EFI_STATUS (*request)(struct fake_usb_device *dev, EFI_USB_DEVICE_REQUEST *req,
			      EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length,
			      UINT32 *result);
	EFI_STATUS (*bulk)(struct fake_usb_device *dev, UINT8 endpoint, void *data, UINTN *length,
			   UINT32 *result);
	/* A hub: its descriptor, its ports, and the translator its devices were reached with. */
	const UINT8 *hub_desc;
	UINTN hub_desc_len;
	struct fake_usb_port hub[FAKE_USB_PORTS];
	EFI_USB2_HC_TRANSACTION_TRANSLATOR last_tt;
};

struct fake_usb_hc {
	EFI_USB2_HC_PROTOCOL hc;
	EFI_HANDLE handle;
	struct fake_usb_port ports[FAKE_USB_PORTS];
	UINTN errors;
	UINTN resets;
};

/* Installs a controller; NULL on failure. */
struct fake_usb_hc *fake_usb_hc_create(void);
/* Disconnects everything from it and removes it. */
void fake_usb_hc_destroy(struct fake_usb_hc *f);
/* Plugs dev into port (from 0) or pulls the device out (dev NULL); sets the change bit. */
void fake_usb_hc_plug(struct fake_usb_hc *f, UINT8 port, struct fake_usb_device *dev);
/* Plugs dev into a hub's port (from 0), or pulls it out (dev NULL); sets the change bit. */
void fake_usb_hub_plug(struct fake_usb_device *hub, UINT8 port, struct fake_usb_device *dev);
/* Hands a report to the device's open interrupt transfer; false when none is open. */
bool fake_usb_hc_report(struct fake_usb_device *dev, const void *data, UINTN len);

#endif
