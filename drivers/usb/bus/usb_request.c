/* Standard device requests (USB 2.0, 9.4) sent through the host controller. */
#include "usb_bus.h"

EFI_STATUS usb_control(struct usb_device *dev, UINT8 type, UINT8 request, UINT16 value,
		       UINT16 index, EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length,
		       UINT32 *result)
{
	EFI_USB_DEVICE_REQUEST req = {
	    .RequestType = type,
	    .Request = request,
	    .Value = value,
	    .Index = index,
	    .Length = (UINT16)(length ? *length : 0),
	};
	EFI_USB2_HC_PROTOCOL *hc = dev->bus->hc;

	return hc->ControlTransfer(hc, dev->address, dev->speed, dev->mps0, &req, dir, data, length,
				   USB_CONTROL_TIMEOUT_MS, &dev->tt, result);
}

EFI_STATUS usb_get_descriptor(struct usb_device *dev, UINT8 type, UINT8 index, UINT16 lang,
			      void *buf, UINTN *length)
{
	UINT32 result;

	return usb_control(dev, USB_REQ_TYPE_DIR_IN | USB_REQ_TYPE_STANDARD | USB_TARGET_DEVICE,
			   USB_REQ_GET_DESCRIPTOR, (UINT16)(type << 8 | index), lang, EfiUsbDataIn,
			   buf, length, &result);
}

EFI_STATUS usb_set_config(struct usb_device *dev, UINT8 value)
{
	UINT32 result;

	return usb_control(dev, USB_REQ_TYPE_STANDARD | USB_TARGET_DEVICE, USB_REQ_SET_CONFIG,
			   value, 0, EfiUsbNoData, NULL, NULL, &result);
}
