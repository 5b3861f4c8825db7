/* The interrupt IN endpoint a HID interface sends its input reports on (HID 1.11, 4.4),
 * found through the interface's EFI_USB_IO_PROTOCOL: the keyboard and pointer drivers share
 * it. */
#ifndef EMBER_HID_ENDPOINT_H
#define EMBER_HID_ENDPOINT_H

#include <efi/protocol/usb_io.h>

struct hid_endpoint {
	UINT8 interface; /* bInterfaceNumber, for class requests */
	UINT8 address;	 /* bEndpointAddress (IN bit set) */
	UINT8 interval;	 /* bInterval; 8 when the descriptor gives 0 */
	UINT16 packet;	 /* wMaxPacketSize's size bits */
};

/* The first interrupt IN endpoint of io's interface: EFI_DEVICE_ERROR when the interface
 * descriptor cannot be read, EFI_NOT_FOUND when the interface has none. */
EFI_STATUS hid_interrupt_in(EFI_USB_IO_PROTOCOL *io, struct hid_endpoint *out);

#endif
