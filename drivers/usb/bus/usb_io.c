/* EFI_USB_IO_PROTOCOL (UEFI 2.10, 17.2) of one interface: arguments checked as the
 * specification lists them, transfers handed to the host controller with the device's
 * address, speed and packet sizes. */
#define LOG_PREFIX "usb: "
#include "usb_bus.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define MAX_STRING_BYTES 255

static struct usb_interface *intf_of(EFI_USB_IO_PROTOCOL *this)
{
	struct usb_interface *intf = this ? container_of(this, struct usb_interface, io) : NULL;

	return intf && intf->signature == USB_IF_SIGNATURE ? intf : NULL;
}

/* The endpoint descriptor of this interface at address, of type (USB_ENDPOINT_*). */
static const EFI_USB_ENDPOINT_DESCRIPTOR *endpoint_of(struct usb_interface *intf, UINT8 address,
						      UINT8 type)
{
	for (UINT8 i = 0; i < intf->desc->num_endpoints; i++) {
		const EFI_USB_ENDPOINT_DESCRIPTOR *ep = &intf->desc->endpoints[i];

		if (ep->EndpointAddress == address &&
		    (ep->Attributes & USB_ENDPOINT_TYPE_MASK) == type)
			return ep;
	}
	return NULL;
}

static UINT8 *toggle_of(struct usb_device *dev, UINT8 address)
{
	return &dev->toggles[(address & 0xf) + (address & USB_ENDPOINT_DIR_IN ? 16 : 0)];
}

static EFI_STATUS EFIAPI control_transfer(EFI_USB_IO_PROTOCOL *this,
					  EFI_USB_DEVICE_REQUEST *request,
					  EFI_USB_DATA_DIRECTION dir, UINT32 timeout, void *data,
					  UINTN length, UINT32 *result)
{
	struct usb_interface *intf = intf_of(this);
	struct usb_device *dev;
	EFI_USB2_HC_PROTOCOL *hc;
	UINTN len = length;

	if (!intf || !request || !result || dir > EfiUsbNoData)
		return EFI_INVALID_PARAMETER;
	dev = intf->dev;
	hc = dev->bus->hc;
	return hc->ControlTransfer(hc, dev->address, dev->speed, dev->mps0, request, dir,
				   dir == EfiUsbNoData ? NULL : data,
				   dir == EfiUsbNoData ? NULL : &len, timeout, &dev->tt, result);
}

static EFI_STATUS EFIAPI bulk_transfer(EFI_USB_IO_PROTOCOL *this, UINT8 endpoint, void *data,
				       UINTN *length, UINTN timeout, UINT32 *result)
{
	struct usb_interface *intf = intf_of(this);
	const EFI_USB_ENDPOINT_DESCRIPTOR *ep;
	struct usb_device *dev;
	void *buffers[EFI_USB_MAX_BULK_BUFFER_NUM] = {data};

	if (!intf || !data || !length || !result)
		return EFI_INVALID_PARAMETER;
	ep = endpoint_of(intf, endpoint, USB_ENDPOINT_BULK);
	if (!ep)
		return EFI_INVALID_PARAMETER;
	dev = intf->dev;
	return dev->bus->hc->BulkTransfer(dev->bus->hc, dev->address, endpoint, dev->speed,
					  ep->MaxPacketSize & 0x7ff, 1, buffers, length,
					  toggle_of(dev, endpoint), timeout, &dev->tt, result);
}

static EFI_STATUS EFIAPI async_interrupt_transfer(EFI_USB_IO_PROTOCOL *this, UINT8 endpoint,
						  BOOLEAN is_new, UINTN interval, UINTN length,
						  EFI_ASYNC_USB_TRANSFER_CALLBACK callback,
						  void *context)
{
	struct usb_interface *intf = intf_of(this);
	const EFI_USB_ENDPOINT_DESCRIPTOR *ep;
	struct usb_device *dev;

	if (!intf)
		return EFI_INVALID_PARAMETER;
	ep = endpoint_of(intf, endpoint, USB_ENDPOINT_INTERRUPT);
	if (!ep || !(endpoint & USB_ENDPOINT_DIR_IN))
		return EFI_INVALID_PARAMETER;
	if (is_new && (interval < 1 || interval > 255 || !length || !callback))
		return EFI_INVALID_PARAMETER;
	dev = intf->dev;
	return dev->bus->hc->AsyncInterruptTransfer(
	    dev->bus->hc, dev->address, endpoint, dev->speed, ep->MaxPacketSize & 0x7ff, is_new,
	    toggle_of(dev, endpoint), interval, length, &dev->tt, callback, context);
}

static EFI_STATUS EFIAPI sync_interrupt_transfer(EFI_USB_IO_PROTOCOL *this, UINT8 endpoint,
						 void *data, UINTN *length, UINTN timeout,
						 UINT32 *result)
{
	struct usb_interface *intf = intf_of(this);
	const EFI_USB_ENDPOINT_DESCRIPTOR *ep;
	struct usb_device *dev;

	if (!intf || !data || !length || !result)
		return EFI_INVALID_PARAMETER;
	ep = endpoint_of(intf, endpoint, USB_ENDPOINT_INTERRUPT);
	if (!ep || !(endpoint & USB_ENDPOINT_DIR_IN))
		return EFI_INVALID_PARAMETER;
	dev = intf->dev;
	return dev->bus->hc->SyncInterruptTransfer(
	    dev->bus->hc, dev->address, endpoint, dev->speed, ep->MaxPacketSize & 0x7ff, data,
	    length, toggle_of(dev, endpoint), timeout, &dev->tt, result);
}

static EFI_STATUS EFIAPI isochronous_transfer(EFI_USB_IO_PROTOCOL *this, UINT8 endpoint, void *data,
					      UINTN length, UINT32 *result)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI async_isochronous_transfer(EFI_USB_IO_PROTOCOL *this, UINT8 endpoint,
						    void *data, UINTN length,
						    EFI_ASYNC_USB_TRANSFER_CALLBACK callback,
						    void *context)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI get_device_descriptor(EFI_USB_IO_PROTOCOL *this,
					       EFI_USB_DEVICE_DESCRIPTOR *desc)
{
	struct usb_interface *intf = intf_of(this);

	if (!intf || !desc)
		return EFI_INVALID_PARAMETER;
	*desc = intf->dev->desc;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_config_descriptor(EFI_USB_IO_PROTOCOL *this,
					       EFI_USB_CONFIG_DESCRIPTOR *desc)
{
	struct usb_interface *intf = intf_of(this);

	if (!intf || !desc)
		return EFI_INVALID_PARAMETER;
	if (!intf->dev->configured)
		return EFI_NOT_FOUND;
	*desc = intf->dev->config.desc;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_interface_descriptor(EFI_USB_IO_PROTOCOL *this,
						  EFI_USB_INTERFACE_DESCRIPTOR *desc)
{
	struct usb_interface *intf = intf_of(this);

	if (!intf || !desc)
		return EFI_INVALID_PARAMETER;
	*desc = intf->desc->desc;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_endpoint_descriptor(EFI_USB_IO_PROTOCOL *this, UINT8 index,
						 EFI_USB_ENDPOINT_DESCRIPTOR *desc)
{
	struct usb_interface *intf = intf_of(this);

	if (!intf || !desc)
		return EFI_INVALID_PARAMETER;
	if (index >= intf->desc->num_endpoints)
		return EFI_NOT_FOUND;
	*desc = intf->desc->endpoints[index];
	return EFI_SUCCESS;
}

static EFI_STATUS read_languages(struct usb_device *dev)
{
	UINT8 buf[MAX_STRING_BYTES];
	UINTN len = sizeof(buf);
	EFI_STATUS status;

	if (dev->languages_read)
		return EFI_SUCCESS;
	status = usb_get_descriptor(dev, USB_DESC_TYPE_STRING, 0, 0, buf, &len);
	if (!EFI_ERROR(status))
		status = usb_desc_languages(buf, len, dev->languages, USB_MAX_LANGUAGES,
					    &dev->num_languages);
	if (EFI_ERROR(status))
		dev->num_languages = 0; /* a device without strings */
	dev->languages_read = true;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_supported_languages(EFI_USB_IO_PROTOCOL *this, UINT16 **table,
						 UINT16 *size)
{
	struct usb_interface *intf = intf_of(this);

	if (!intf || !table || !size)
		return EFI_INVALID_PARAMETER;
	read_languages(intf->dev);
	*table = intf->dev->languages;
	*size = (UINT16)(intf->dev->num_languages * sizeof(UINT16));
	return EFI_SUCCESS;
}

static bool language_known(struct usb_device *dev, UINT16 lang)
{
	read_languages(dev);
	for (UINTN i = 0; i < dev->num_languages; i++)
		if (dev->languages[i] == lang)
			return true;
	return false;
}

static EFI_STATUS EFIAPI get_string_descriptor(EFI_USB_IO_PROTOCOL *this, UINT16 lang, UINT8 id,
					       CHAR16 **string)
{
	struct usb_interface *intf = intf_of(this);
	UINT8 buf[MAX_STRING_BYTES];
	UINTN len = sizeof(buf);
	CHAR16 *text;
	EFI_STATUS status;

	if (!intf || !string)
		return EFI_INVALID_PARAMETER;
	if (!id || !language_known(intf->dev, lang))
		return EFI_NOT_FOUND;
	status = usb_get_descriptor(intf->dev, USB_DESC_TYPE_STRING, id, lang, buf, &len);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;
	text = pool_alloc(MAX_STRING_BYTES);
	if (!text)
		return EFI_OUT_OF_RESOURCES;
	status = usb_desc_string(buf, len, text, MAX_STRING_BYTES / sizeof(CHAR16));
	if (EFI_ERROR(status)) {
		pool_free(text);
		return EFI_NOT_FOUND;
	}
	*string = text;
	return EFI_SUCCESS;
}

/* A hub's own port is never reset this way (17.2.4: EFI_INVALID_PARAMETER). */
static EFI_STATUS EFIAPI port_reset(EFI_USB_IO_PROTOCOL *this)
{
	struct usb_interface *intf = intf_of(this);

	if (!intf || intf->desc->desc.InterfaceClass == 0x09)
		return EFI_INVALID_PARAMETER;
	return EFI_ERROR(usb_device_reset(intf->dev)) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

const EFI_USB_IO_PROTOCOL usb_io_template = {
    .UsbControlTransfer = control_transfer,
    .UsbBulkTransfer = bulk_transfer,
    .UsbAsyncInterruptTransfer = async_interrupt_transfer,
    .UsbSyncInterruptTransfer = sync_interrupt_transfer,
    .UsbIsochronousTransfer = isochronous_transfer,
    .UsbAsyncIsochronousTransfer = async_isochronous_transfer,
    .UsbGetDeviceDescriptor = get_device_descriptor,
    .UsbGetConfigDescriptor = get_config_descriptor,
    .UsbGetInterfaceDescriptor = get_interface_descriptor,
    .UsbGetEndpointDescriptor = get_endpoint_descriptor,
    .UsbGetStringDescriptor = get_string_descriptor,
    .UsbGetSupportedLanguages = get_supported_languages,
    .UsbPortReset = port_reset,
};
