/* The interrupt IN endpoint of a HID interface (hid_endpoint.h). */
#include "hid_endpoint.h"

EFI_STATUS hid_interrupt_in(EFI_USB_IO_PROTOCOL *io, struct hid_endpoint *out)
{
	EFI_USB_INTERFACE_DESCRIPTOR d;
	EFI_USB_ENDPOINT_DESCRIPTOR ep;

	if (EFI_ERROR(io->UsbGetInterfaceDescriptor(io, &d)))
		return EFI_DEVICE_ERROR;
	out->interface = d.InterfaceNumber;
	for (UINT8 i = 0; i < d.NumEndpoints; i++) {
		if (EFI_ERROR(io->UsbGetEndpointDescriptor(io, i, &ep)) ||
		    (ep.Attributes & USB_ENDPOINT_TYPE_MASK) != USB_ENDPOINT_INTERRUPT ||
		    !(ep.EndpointAddress & USB_ENDPOINT_DIR_IN))
			continue;
		out->address = ep.EndpointAddress;
		out->interval = ep.Interval ? ep.Interval : 8;
		out->packet = ep.MaxPacketSize & 0x7ff;
		return EFI_SUCCESS;
	}
	return EFI_NOT_FOUND;
}
