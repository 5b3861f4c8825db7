/* The USB bus driver (drivers/usb/bus) and the HID keyboard driver (drivers/usb/hid) over a
 * host controller in memory (fake_usb_hc.c): enumeration of the root ports (addresses, the
 * configuration), one child per interface with USB(port,interface) and
 * EFI_USB_IO_PROTOCOL, its argument checks, devices that are refused, hot-plug by the
 * periodic poll, and keyboard reports becoming keys of SimpleTextIn with the lights
 * following Caps Lock. */
#include <stdlib.h>
#include <string.h>

#include "block_dev.h"
#include "fake_usb_hc.h"
#include "support/test.h"
#include "usb_descs.h"
#include <efi/protocol/simple_text_input.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define POLL_NS (250 * 1000000ULL) /* more than the bus's hot-plug period */

static struct fake_usb_device keyboard(void)
{
	return (struct fake_usb_device){
	    .device_desc = usb_test_kbd_device,
	    .config = usb_test_kbd_config,
	    .config_len = sizeof(usb_test_kbd_config),
	    .strings = {usb_test_languages, NULL, usb_test_product, NULL},
	    .speed = EFI_USB_SPEED_FULL,
	};
}

/* The UsbIo handles there are now (at most max). */
static UINTN usb_handles(EFI_HANDLE *out, UINTN max)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_usb_io_protocol_guid, NULL, &count,
					   &handles)))
		return 0;
	for (UINTN i = 0; i < count && i < max; i++)
		out[i] = handles[i];
	pool_free(handles);
	return count;
}

static EFI_USB_IO_PROTOCOL *usb_io(EFI_HANDLE handle)
{
	EFI_USB_IO_PROTOCOL *io = NULL;

	protocol_get(handle, &efi_usb_io_protocol_guid, (void **)&io);
	return io;
}

static bool path_is(EFI_HANDLE handle, const CHAR16 *want)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	CHAR16 *text;
	bool same;

	protocol_get(handle, &efi_device_path_protocol_guid, (void **)&path);
	text = path ? dp_to_text(path, false, false) : NULL;
	same = text && !str16_cmp(text, want);
	pool_free(text);
	return same;
}

static EFI_SIMPLE_TEXT_INPUT_PROTOCOL *text_in(EFI_HANDLE handle)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = NULL;

	protocol_get(handle, &efi_simple_text_input_protocol_guid, (void **)&in);
	return in;
}

static void enumerates_and_types_body(void)
{
	struct fake_usb_hc *f;
	struct fake_usb_device kbd = keyboard();
	EFI_USB_DEVICE_DESCRIPTOR dd;
	EFI_USB_ENDPOINT_DESCRIPTOR ep;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in;
	EFI_INPUT_KEY key;
	EFI_HANDLE h[4];
	EFI_USB_IO_PROTOCOL *io;
	CHAR16 *name = NULL;
	UINT32 result;
	UINTN len = 8;
	UINT8 buf[8];

	test_install_builtin_drivers();
	f = fake_usb_hc_create();
	ASSERT(f);
	fake_usb_hc_plug(f, 1, &kbd);
	driver_connect(f->handle, NULL, NULL, true);
	EXPECT_EQ(f->errors, 0);
	EXPECT(kbd.address != 0);
	EXPECT_EQ(kbd.configuration, 1);
	ASSERT_EQ(usb_handles(h, 4), 1);
	EXPECT(path_is(h[0], u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x1,0x0)"));
	io = usb_io(h[0]);
	ASSERT(io);
	/* Descriptors and their checks. */
	ASSERT_STATUS(io->UsbGetDeviceDescriptor(io, &dd), EFI_SUCCESS);
	EXPECT_EQ(dd.IdProduct, 1);
	EXPECT_STATUS(io->UsbGetDeviceDescriptor(io, NULL), EFI_INVALID_PARAMETER);
	ASSERT_STATUS(io->UsbGetEndpointDescriptor(io, 0, &ep), EFI_SUCCESS);
	EXPECT_EQ(ep.EndpointAddress, 0x81);
	EXPECT_STATUS(io->UsbGetEndpointDescriptor(io, 1, &ep), EFI_NOT_FOUND);
	EXPECT_STATUS(io->UsbBulkTransfer(io, 0x81, buf, &len, 10, &result),
		      EFI_INVALID_PARAMETER); /* an interrupt endpoint */
	EXPECT_STATUS(io->UsbSyncInterruptTransfer(io, 0x02, buf, &len, 10, &result),
		      EFI_INVALID_PARAMETER); /* no such endpoint */
	EXPECT_STATUS(io->UsbControlTransfer(io, NULL, EfiUsbNoData, 10, NULL, 0, &result),
		      EFI_INVALID_PARAMETER);
	ASSERT_STATUS(io->UsbGetStringDescriptor(io, 0x0409, 2, &name), EFI_SUCCESS);
	EXPECT(!str16_cmp(name, u"Keybd"));
	pool_free(name);
	EXPECT_STATUS(io->UsbGetStringDescriptor(io, 0x0407, 2, &name), EFI_NOT_FOUND);
	EXPECT_STATUS(io->UsbGetStringDescriptor(io, 0x0409, 0, &name), EFI_NOT_FOUND);
	/* The keyboard driver: boot protocol asked for, reports become keys. */
	in = text_in(h[0]);
	ASSERT(in);
	ASSERT(kbd.callback);
	EXPECT_EQ(kbd.endpoint, 0x81);
	ASSERT(fake_usb_hc_report(&kbd, (const UINT8[]){0, 0, 0x0b, 0, 0, 0, 0, 0}, 8));
	ASSERT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'h');
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	/* Caps Lock: the lights report (SET_REPORT, output, Caps = 2). */
	fake_usb_hc_report(&kbd, (const UINT8[]){0, 0, 0x39, 0, 0, 0, 0, 0}, 8);
	EXPECT_EQ(kbd.last_class.Request, 0x09);
	EXPECT_EQ(kbd.last_class.Value, 0x0200);
	EXPECT_EQ(kbd.last_class_data[0], 2);
	fake_usb_hc_report(&kbd, (const UINT8[]){0, 0, 0x0b, 0, 0, 0, 0, 0}, 8);
	ASSERT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'H');
	/* UsbPortReset: the port reset, the device at its old address, configured again. */
	UINT8 address = kbd.address;
	UINTN resets = f->resets;
	EXPECT_STATUS(io->UsbPortReset(io), EFI_SUCCESS);
	EXPECT_EQ(f->resets, resets + 1);
	EXPECT_EQ(kbd.address, address);
	EXPECT_EQ(kbd.configuration, 1);
	EXPECT_EQ(f->errors, 0);
	fake_usb_hc_destroy(f);
	EXPECT_EQ(usb_handles(h, 4), 0);
}

TEST(usb_bus_enumerates_and_the_keyboard_types)
{
	RUN_ISOLATED(enumerates_and_types_body);
}

static void hotplug_body(void)
{
	struct fake_usb_hc *f;
	struct fake_usb_device kbd = keyboard(), disk = keyboard(), broken = keyboard();
	EFI_USB_INTERFACE_DESCRIPTOR id;
	EFI_HANDLE h[4];
	UINT8 bad[34];

	test_install_builtin_drivers();
	f = fake_usb_hc_create();
	ASSERT(f);
	driver_connect(f->handle, NULL, NULL, true);
	EXPECT_EQ(usb_handles(h, 4), 0);
	/* A keyboard comes: the poll attaches it and connects its driver. */
	fake_usb_hc_plug(f, 0, &kbd);
	test_advance_time_ns(POLL_NS);
	ASSERT_EQ(usb_handles(h, 4), 1);
	EXPECT(path_is(h[0], u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x0,0x0)"));
	EXPECT(text_in(h[0]) != NULL);
	/* It goes, a storage device comes in its place on another port. */
	fake_usb_hc_plug(f, 0, NULL);
	disk.config = usb_test_storage_config;
	disk.config_len = sizeof(usb_test_storage_config);
	fake_usb_hc_plug(f, 3, &disk);
	test_advance_time_ns(POLL_NS);
	ASSERT_EQ(usb_handles(h, 4), 1);
	EXPECT(path_is(h[0], u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x3,0x0)"));
	ASSERT_STATUS(usb_io(h[0])->UsbGetInterfaceDescriptor(usb_io(h[0]), &id), EFI_SUCCESS);
	EXPECT_EQ(id.InterfaceClass, 8);
	/* A device whose configuration lies gets no child, and is not tried at every poll. */
	memcpy(bad, usb_test_kbd_config, sizeof(bad));
	bad[13] = 2; /* two endpoints announced, one there */
	broken.config = bad;
	broken.config_len = sizeof(bad);
	fake_usb_hc_plug(f, 2, &broken);
	test_advance_time_ns(POLL_NS);
	EXPECT_EQ(usb_handles(h, 4), 1);
	UINTN resets = f->resets;
	test_advance_time_ns(POLL_NS);
	EXPECT_EQ(f->resets, resets);
	EXPECT_EQ(f->errors, 0);
	fake_usb_hc_destroy(f);
}

TEST(usb_bus_hotplug_adds_and_removes_children)
{
	RUN_ISOLATED(hotplug_body);
}
