/* The hub class of the USB bus driver (drivers/usb/bus/usb_hub.c) over a host controller in
 * memory (fake_usb_hc.c): a keyboard behind a hub gets USB(hub port)/USB(port,0) and types,
 * with the hub's port as its transaction translator; a hub behind a hub; devices behind a
 * hub come and go by the poll; pulling the hub out removes what was behind it. */
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

static struct fake_usb_device hub(void)
{
	return (struct fake_usb_device){
	    .device_desc = usb_test_hub_device,
	    .config = usb_test_hub_config,
	    .config_len = sizeof(usb_test_hub_config),
	    .speed = EFI_USB_SPEED_HIGH,
	    .hub_desc = usb_test_hub_desc,
	    .hub_desc_len = sizeof(usb_test_hub_desc),
	};
}

/* The handle whose device path reads want, or NULL. */
static EFI_HANDLE handle_at(const CHAR16 *want)
{
	EFI_HANDLE *handles = NULL, found = NULL;
	UINTN count = 0;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_usb_io_protocol_guid, NULL, &count,
					   &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path = NULL;
		CHAR16 *text;

		protocol_get(handles[i], &efi_device_path_protocol_guid, (void **)&path);
		text = path ? dp_to_text(path, false, false) : NULL;
		if (text && !str16_cmp(text, want))
			found = handles[i];
		pool_free(text);
	}
	pool_free(handles);
	return found;
}

static UINTN usb_count(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_usb_io_protocol_guid, NULL, &count,
					   &handles)))
		return 0;
	pool_free(handles);
	return count;
}

static void keyboard_behind_hub_body(void)
{
	struct fake_usb_hc *f;
	struct fake_usb_device h = hub(), kbd = keyboard();
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = NULL;
	EFI_HANDLE child;
	EFI_INPUT_KEY key;

	test_install_builtin_drivers();
	f = fake_usb_hc_create();
	ASSERT(f);
	fake_usb_hc_plug(f, 1, &h);
	fake_usb_hub_plug(&h, 2, &kbd);
	driver_connect(f->handle, NULL, NULL, true);
	EXPECT_EQ(f->errors, 0);
	EXPECT(h.hub[2].powered);
	EXPECT(!h.hub[2].connect_change); /* C_PORT_CONNECTION cleared */
	EXPECT_EQ(kbd.configuration, 1);
	EXPECT(kbd.address != 0 && kbd.address != h.address);
	/* The full-speed keyboard is reached through the high-speed hub's TT, at its port. */
	EXPECT_EQ(kbd.last_tt.TranslatorHubAddress, h.address);
	EXPECT_EQ(kbd.last_tt.TranslatorPortNumber, 3);
	ASSERT_EQ(usb_count(), 2);
	EXPECT(handle_at(u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x1,0x0)") != NULL);
	child = handle_at(u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x1,0x0)/USB(0x2,0x0)");
	ASSERT(child);
	protocol_get(child, &efi_simple_text_input_protocol_guid, (void **)&in);
	ASSERT(in);
	ASSERT(fake_usb_hc_report(&kbd, (const UINT8[]){0, 0, 0x0b, 0, 0, 0, 0, 0}, 8));
	ASSERT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'h');
	/* The keyboard goes and comes back on another port of the hub: the poll sees both. */
	fake_usb_hub_plug(&h, 2, NULL);
	test_advance_time_ns(POLL_NS);
	EXPECT_EQ(usb_count(), 1);
	fake_usb_hub_plug(&h, 0, &kbd);
	test_advance_time_ns(POLL_NS);
	EXPECT_EQ(usb_count(), 2);
	EXPECT(handle_at(u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x1,0x0)/USB(0x0,0x0)") != NULL);
	/* The hub is pulled out: the keyboard behind it goes with it. */
	fake_usb_hc_plug(f, 1, NULL);
	test_advance_time_ns(POLL_NS);
	EXPECT_EQ(usb_count(), 0);
	EXPECT_EQ(f->errors, 0);
	fake_usb_hc_destroy(f);
}

TEST(usb_hub_keyboard_behind_a_hub_types_and_goes_with_it)
{
	RUN_ISOLATED(keyboard_behind_hub_body);
}

static void hub_behind_hub_body(void)
{
	struct fake_usb_hc *f;
	struct fake_usb_device outer = hub(), inner = hub(), kbd = keyboard();
	EFI_HANDLE child;

	test_install_builtin_drivers();
	f = fake_usb_hc_create();
	ASSERT(f);
	fake_usb_hc_plug(f, 0, &outer);
	fake_usb_hub_plug(&outer, 3, &inner);
	fake_usb_hub_plug(&inner, 1, &kbd);
	driver_connect(f->handle, NULL, NULL, true);
	EXPECT_EQ(f->errors, 0);
	ASSERT_EQ(usb_count(), 3);
	child = handle_at(u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x0,0x0)/USB(0x3,0x0)/USB(0x1,0x0)");
	ASSERT(child);
	/* The nearest high-speed hub is the inner one. */
	EXPECT_EQ(kbd.last_tt.TranslatorHubAddress, inner.address);
	EXPECT_EQ(kbd.last_tt.TranslatorPortNumber, 2);
	/* The inner hub goes: only the outer one stays. */
	fake_usb_hub_plug(&outer, 3, NULL);
	test_advance_time_ns(POLL_NS);
	EXPECT_EQ(usb_count(), 1);
	EXPECT_EQ(f->errors, 0);
	fake_usb_hc_destroy(f);
	EXPECT_EQ(usb_count(), 0);
}

TEST(usb_hub_behind_a_hub)
{
	RUN_ISOLATED(hub_behind_hub_body);
}
