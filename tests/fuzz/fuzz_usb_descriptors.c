/* Fuzzes what USB devices send that Ember parses (drivers/usb/bus/usb_desc.c and
 * drivers/usb/hid/hid_keys.c): the input is taken as a device descriptor, a configuration,
 * string descriptors, a hub descriptor, a HID report descriptor (and itself as a report of the
 * pointer found) and a stream of HID keyboard reports (8 bytes each, the last shorter). What is
 * accepted must hold to the rules the parsers promise: interfaces and endpoints within their
 * limits, each interface with the endpoints it announced, endpoint numbers 1-15; keys well formed.
 */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include <ember/drivers/usb_desc.h>
#include "../../drivers/usb/hid/hid_keys.h"
#include "../../drivers/usb/hid/hid_report.h"

static void check_config(const uint8_t *data, size_t size)
{
	struct usb_config_desc c;

	if (EFI_ERROR(usb_desc_config(data, size, &c)))
		return;
	if (!c.num_interfaces || c.num_interfaces > USB_MAX_INTERFACES || c.desc.TotalLength > size)
		abort();
	for (UINT8 i = 0; i < c.num_interfaces; i++) {
		const struct usb_interface_desc *intf = &c.interfaces[i];

		if (intf->num_endpoints != intf->desc.NumEndpoints ||
		    intf->num_endpoints > USB_MAX_ENDPOINTS || intf->desc.AlternateSetting)
			abort();
		for (UINT8 e = 0; e < intf->num_endpoints; e++)
			if (!(intf->endpoints[e].EndpointAddress & 0xf))
				abort();
	}
}

static void check_strings(const uint8_t *data, size_t size)
{
	UINT16 ids[USB_MAX_LANGUAGES];
	CHAR16 text[8];
	UINTN n = 0, len = 0;

	if (!EFI_ERROR(usb_desc_languages(data, size, ids, USB_MAX_LANGUAGES, &n)) &&
	    n > USB_MAX_LANGUAGES)
		abort();
	if (EFI_ERROR(usb_desc_string(data, size, text, 8)))
		return;
	while (len < 8 && text[len])
		len++;
	if (len == 8 || len > (data[0] - 2u) / 2)
		abort(); /* unterminated, or longer than the descriptor */
}

static void check_hub(const uint8_t *data, size_t size)
{
	struct usb_hub_desc h;

	if (EFI_ERROR(usb_desc_hub(data, size, &h)))
		return;
	if (!h.ports || h.ports > USB_HUB_MAX_PORTS || data[0] > size ||
	    data[0] < 7 + (data[2] + 8u) / 8)
		abort();
}

static void check_reports(const uint8_t *data, size_t size)
{
	struct hid_keys k;

	hid_keys_init(&k);
	for (size_t at = 0; at < size; at += HID_BOOT_REPORT_SIZE) {
		EFI_KEY_DATA keys[HID_KEYS_MAX];
		size_t len = size - at < HID_BOOT_REPORT_SIZE ? size - at : HID_BOOT_REPORT_SIZE;
		UINTN n = 99;

		hid_keys_report(&k, data + at, len, keys, HID_KEYS_MAX, &n);
		if (n > HID_KEYS_MAX || (hid_keys_leds(&k) & ~7u))
			abort();
		for (UINTN i = 0; i < n; i++)
			if ((keys[i].Key.ScanCode == SCAN_NULL) == (keys[i].Key.UnicodeChar == 0) ||
			    !(keys[i].KeyState.KeyShiftState & EFI_SHIFT_STATE_VALID))
				abort();
	}
}

static void check_field(const struct hid_field *f, const uint8_t *data, size_t size)
{
	INT32 v;

	if (f->size > 32 || f->offset + f->size > HID_REPORT_MAX_BYTES * 8)
		abort();
	if (hid_report_value(data, size, f, &v) && (size_t)f->offset + f->size > size * 8)
		abort();
}

static void check_report_descriptor(const uint8_t *data, size_t size)
{
	struct hid_pointer p;

	if (EFI_ERROR(hid_report_pointer(data, size, &p)))
		return;
	if (!p.x.size || !p.y.size)
		abort();
	check_field(&p.x, data, size);
	check_field(&p.y, data, size);
	check_field(&p.wheel, data, size);
	for (int i = 0; i < 3; i++)
		check_field(&p.buttons[i], data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EFI_USB_DEVICE_DESCRIPTOR d;

	usb_desc_device(data, size, &d);
	usb_desc_config_length(data, size);
	check_config(data, size);
	check_strings(data, size);
	check_hub(data, size);
	check_reports(data, size);
	check_report_descriptor(data, size);
	return 0;
}
