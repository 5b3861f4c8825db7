/* USB descriptor parsers (include/ember/drivers/usb_desc.h; USB 2.0, 9.6). */
#define LOG_PREFIX "usb: "
#include <ember/drivers/usb_desc.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

static bool mps0_valid(UINT16 bcd_usb, UINT8 mps)
{
	if (bcd_usb >= 0x0300)
		return mps == 9; /* 2^9 = 512 bytes */
	return mps == 8 || mps == 16 || mps == 32 || mps == 64;
}

EFI_STATUS usb_desc_device(const void *buf, UINTN len, EFI_USB_DEVICE_DESCRIPTOR *out)
{
	EFI_USB_DEVICE_DESCRIPTOR d;

	if (!buf || len < sizeof(d))
		return EFI_NOT_FOUND;
	mem_copy(&d, buf, sizeof(d));
	if (d.Length < sizeof(d) || d.DescriptorType != USB_DESC_TYPE_DEVICE ||
	    !mps0_valid(d.BcdUSB, d.MaxPacketSize0) || !d.NumConfigurations) {
		log_debug("device descriptor refused (length %u type %u packet %u)\n", d.Length,
			  d.DescriptorType, d.MaxPacketSize0);
		return EFI_NOT_FOUND;
	}
	*out = d;
	return EFI_SUCCESS;
}

UINT16 usb_desc_config_length(const void *buf, UINTN len)
{
	EFI_USB_CONFIG_DESCRIPTOR c;

	if (!buf || len < sizeof(c))
		return 0;
	mem_copy(&c, buf, sizeof(c));
	if (c.Length < sizeof(c) || c.DescriptorType != USB_DESC_TYPE_CONFIG ||
	    c.TotalLength < sizeof(c))
		return 0;
	return c.TotalLength;
}

/* A walk over the descriptors of a configuration. */
struct walk {
	const UINT8 *p;
	UINTN len, at;
	struct usb_interface_desc *cur; /* the interface endpoints go to, or NULL to skip */
	UINT8 expected;			/* endpoints cur announced */
};

static EFI_STATUS take_interface(struct walk *w, struct usb_config_desc *out, UINT8 length)
{
	EFI_USB_INTERFACE_DESCRIPTOR d;

	if (w->cur && w->cur->num_endpoints != w->expected)
		return EFI_NOT_FOUND; /* the previous interface lacks endpoints */
	if (length < sizeof(d))
		return EFI_NOT_FOUND;
	mem_copy(&d, w->p + w->at, sizeof(d));
	w->cur = NULL;
	if (d.AlternateSetting || out->num_interfaces == USB_MAX_INTERFACES)
		return EFI_SUCCESS;
	if (d.NumEndpoints > USB_MAX_ENDPOINTS)
		return EFI_NOT_FOUND;
	for (UINT8 i = 0; i < out->num_interfaces; i++)
		if (out->interfaces[i].desc.InterfaceNumber == d.InterfaceNumber)
			return EFI_NOT_FOUND; /* the same interface twice */
	w->cur = &out->interfaces[out->num_interfaces++];
	w->cur->desc = d;
	w->cur->num_endpoints = 0;
	w->expected = d.NumEndpoints;
	return EFI_SUCCESS;
}

static EFI_STATUS take_endpoint(struct walk *w, UINT8 length)
{
	EFI_USB_ENDPOINT_DESCRIPTOR d;

	if (length < sizeof(d))
		return EFI_NOT_FOUND;
	if (!w->cur)
		return EFI_SUCCESS; /* of an alternate setting, or of no interface */
	mem_copy(&d, w->p + w->at, sizeof(d));
	if (!(d.EndpointAddress & 0x0f) || (d.EndpointAddress & 0x70) ||
	    !(d.MaxPacketSize & 0x7ff) || w->cur->num_endpoints == w->expected)
		return EFI_NOT_FOUND;
	for (UINT8 i = 0; i < w->cur->num_endpoints; i++)
		if (w->cur->endpoints[i].EndpointAddress == d.EndpointAddress)
			return EFI_NOT_FOUND;
	w->cur->endpoints[w->cur->num_endpoints++] = d;
	return EFI_SUCCESS;
}

static EFI_STATUS walk_descriptors(struct walk *w, struct usb_config_desc *out)
{
	EFI_STATUS status = EFI_SUCCESS;

	while (w->at < w->len && !EFI_ERROR(status)) {
		UINT8 length = w->p[w->at], type;

		if (length < 2 || length > w->len - w->at)
			return EFI_NOT_FOUND;
		type = w->p[w->at + 1];
		if (type == USB_DESC_TYPE_INTERFACE)
			status = take_interface(w, out, length);
		else if (type == USB_DESC_TYPE_ENDPOINT)
			status = take_endpoint(w, length);
		else if (type == USB_DESC_TYPE_CONFIG || type == USB_DESC_TYPE_DEVICE)
			status = EFI_NOT_FOUND;
		w->at += length;
	}
	if (!EFI_ERROR(status) && w->cur && w->cur->num_endpoints != w->expected)
		status = EFI_NOT_FOUND;
	return status;
}

EFI_STATUS usb_desc_config(const void *buf, UINTN len, struct usb_config_desc *out)
{
	UINT16 total = usb_desc_config_length(buf, len);
	struct walk w;
	EFI_STATUS status;

	if (!total || total > len) {
		log_debug("configuration descriptor refused (%u of %u bytes)\n", total,
			  (UINT32)len);
		return EFI_NOT_FOUND;
	}
	mem_set(out, 0, sizeof(*out));
	mem_copy(&out->desc, buf, sizeof(out->desc));
	w.p = buf;
	w.len = total;
	w.at = out->desc.Length;
	w.cur = NULL;
	w.expected = 0;
	status = walk_descriptors(&w, out);
	if (EFI_ERROR(status) || !out->num_interfaces) {
		log_debug("configuration refused at byte %u\n", (UINT32)w.at);
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

static bool string_header(const UINT8 *p, UINTN len)
{
	return p && len >= 2 && p[0] >= 2 && p[0] <= len && !(p[0] & 1) &&
	       p[1] == USB_DESC_TYPE_STRING;
}

EFI_STATUS usb_desc_languages(const void *buf, UINTN len, UINT16 *ids, UINTN max, UINTN *count)
{
	const UINT8 *p = buf;
	UINTN n;

	if (!string_header(p, len) || p[0] < 4)
		return EFI_NOT_FOUND;
	n = (p[0] - 2u) / 2;
	n = n < max ? n : max;
	for (UINTN i = 0; i < n; i++)
		ids[i] = (UINT16)(p[2 + 2 * i] | p[3 + 2 * i] << 8);
	*count = n;
	return EFI_SUCCESS;
}

EFI_STATUS usb_desc_string(const void *buf, UINTN len, CHAR16 *text, UINTN max)
{
	const UINT8 *p = buf;
	UINTN n, i;

	if (!string_header(p, len) || !max)
		return EFI_NOT_FOUND;
	n = (p[0] - 2u) / 2;
	for (i = 0; i < n && i + 1 < max; i++)
		text[i] = (CHAR16)(p[2 + 2 * i] | p[3 + 2 * i] << 8);
	text[i] = 0;
	return EFI_SUCCESS;
}

#define HUB_DESC_FIXED 7 /* the bytes before DeviceRemovable */

EFI_STATUS usb_desc_hub(const void *buf, UINTN len, struct usb_hub_desc *out)
{
	const UINT8 *p = buf;
	UINTN bitmap;

	if (!buf || len < HUB_DESC_FIXED || p[0] < HUB_DESC_FIXED || p[0] > len ||
	    p[1] != USB_DESC_TYPE_HUB || !p[2]) {
		log_debug("hub descriptor refused (%u bytes of %u)\n", (unsigned)len,
			  len ? p[0] : 0);
		return EFI_NOT_FOUND;
	}
	/* DeviceRemovable: one bit per port and bit 0 reserved. PortPwrCtrlMask after it is
	 * only kept for USB 1.0 software and hubs size it differently (QEMU's usb-hub with
	 * ports / 8 bytes): not read, so not asked for. */
	bitmap = (p[2] + 1u + 7) / 8;
	if (p[0] < HUB_DESC_FIXED + bitmap) {
		log_debug("hub descriptor: %u ports do not fit in %u bytes\n", p[2], p[0]);
		return EFI_NOT_FOUND;
	}
	out->ports = p[2] < USB_HUB_MAX_PORTS ? p[2] : USB_HUB_MAX_PORTS;
	out->characteristics = (UINT16)(p[3] | p[4] << 8);
	out->power_on_ms = p[5] * 2u;
	out->tt_think = (out->characteristics >> 5) & 3;
	out->removable = (UINT16)(p[7] | (bitmap > 1 ? p[8] << 8 : 0));
	return EFI_SUCCESS;
}
