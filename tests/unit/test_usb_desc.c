/* The USB descriptor parsers (drivers/usb/bus/usb_desc.c): well-formed descriptors are
 * taken, broken ones (short, wrong type, lengths past the end, endpoints missing or twice,
 * interfaces twice) are refused, and alternate settings are left out. */
#include <string.h>

#include "support/test.h"
#include "usb_descs.h"
#include <ember/drivers/usb_desc.h>

TEST(usb_desc_device_taken_and_refused)
{
	EFI_USB_DEVICE_DESCRIPTOR d;
	UINT8 buf[18];

	ASSERT_STATUS(usb_desc_device(usb_test_kbd_device, 18, &d), EFI_SUCCESS);
	EXPECT_EQ(d.IdVendor, 0x0627);
	EXPECT_EQ(d.MaxPacketSize0, 64);
	EXPECT_STATUS(usb_desc_device(usb_test_kbd_device, 17, &d), EFI_NOT_FOUND);
	memcpy(buf, usb_test_kbd_device, 18);
	buf[1] = 2;
	EXPECT_STATUS(usb_desc_device(buf, 18, &d), EFI_NOT_FOUND);
	memcpy(buf, usb_test_kbd_device, 18);
	buf[7] = 12; /* no such packet size */
	EXPECT_STATUS(usb_desc_device(buf, 18, &d), EFI_NOT_FOUND);
	memcpy(buf, usb_test_kbd_device, 18);
	buf[17] = 0; /* no configuration */
	EXPECT_STATUS(usb_desc_device(buf, 18, &d), EFI_NOT_FOUND);
	memcpy(buf, usb_test_kbd_device, 18);
	buf[3] = 3; /* USB 3: the packet size is a power of two */
	EXPECT_STATUS(usb_desc_device(buf, 18, &d), EFI_NOT_FOUND);
	buf[7] = 9;
	EXPECT_STATUS(usb_desc_device(buf, 18, &d), EFI_SUCCESS);
}

TEST(usb_desc_config_of_a_keyboard)
{
	struct usb_config_desc c;

	EXPECT_EQ(usb_desc_config_length(usb_test_kbd_config, 9), 34);
	ASSERT_STATUS(usb_desc_config(usb_test_kbd_config, 34, &c), EFI_SUCCESS);
	EXPECT_EQ(c.desc.ConfigurationValue, 1);
	ASSERT_EQ(c.num_interfaces, 1);
	EXPECT_EQ(c.interfaces[0].desc.InterfaceClass, 3);
	ASSERT_EQ(c.interfaces[0].num_endpoints, 1);
	EXPECT_EQ(c.interfaces[0].endpoints[0].EndpointAddress, 0x81);
	EXPECT_EQ(c.interfaces[0].endpoints[0].Interval, 10);
	/* Fewer bytes than wTotalLength: refused, not guessed. */
	EXPECT_STATUS(usb_desc_config(usb_test_kbd_config, 33, &c), EFI_NOT_FOUND);
}

TEST(usb_desc_config_of_mass_storage)
{
	struct usb_config_desc c;

	ASSERT_STATUS(usb_desc_config(usb_test_storage_config, 32, &c), EFI_SUCCESS);
	ASSERT_EQ(c.interfaces[0].num_endpoints, 2);
	EXPECT_EQ(c.interfaces[0].endpoints[1].EndpointAddress, 0x02);
	EXPECT_EQ(c.interfaces[0].endpoints[1].MaxPacketSize, 512);
}

static EFI_STATUS parse_edited(UINTN at, UINT8 value)
{
	struct usb_config_desc c;
	UINT8 buf[34];

	memcpy(buf, usb_test_kbd_config, sizeof(buf));
	buf[at] = value;
	return usb_desc_config(buf, sizeof(buf), &c);
}

TEST(usb_desc_config_refuses_broken_ones)
{
	EXPECT_STATUS(parse_edited(1, 4), EFI_NOT_FOUND);     /* not a configuration */
	EXPECT_STATUS(parse_edited(2, 8), EFI_NOT_FOUND);     /* total shorter than itself */
	EXPECT_STATUS(parse_edited(2, 200), EFI_NOT_FOUND);   /* total past the bytes */
	EXPECT_STATUS(parse_edited(9, 0), EFI_NOT_FOUND);     /* a descriptor of length 0 */
	EXPECT_STATUS(parse_edited(9, 1), EFI_NOT_FOUND);     /* ... and of 1 */
	EXPECT_STATUS(parse_edited(27, 30), EFI_NOT_FOUND);   /* past the end */
	EXPECT_STATUS(parse_edited(13, 2), EFI_NOT_FOUND);    /* two endpoints, one present */
	EXPECT_STATUS(parse_edited(13, 0), EFI_NOT_FOUND);    /* none, one present */
	EXPECT_STATUS(parse_edited(29, 0x80), EFI_NOT_FOUND); /* endpoint 0 */
	EXPECT_STATUS(parse_edited(27, 6), EFI_NOT_FOUND);    /* an endpoint of 6 bytes */
	EXPECT_STATUS(parse_edited(13, 200), EFI_NOT_FOUND);  /* more than any interface has */
}

TEST(usb_desc_config_alternate_settings_and_duplicates)
{
	UINT8 buf[43];
	struct usb_config_desc c;

	/* An alternate setting of interface 0, with its endpoint, after the first. */
	memcpy(buf, usb_test_kbd_config, 34);
	memcpy(buf + 34, (const UINT8[]){9, 4, 0, 1, 0, 3, 1, 1, 0}, 9);
	buf[2] = 43;
	ASSERT_STATUS(usb_desc_config(buf, sizeof(buf), &c), EFI_SUCCESS);
	EXPECT_EQ(c.num_interfaces, 1);
	/* The same interface twice (both setting 0) is refused. */
	buf[37] = 0;
	EXPECT_STATUS(usb_desc_config(buf, sizeof(buf), &c), EFI_NOT_FOUND);
}

TEST(usb_desc_strings)
{
	UINT16 ids[4];
	UINTN n = 0;
	CHAR16 text[8];

	ASSERT_STATUS(usb_desc_languages(usb_test_languages, 4, ids, 4, &n), EFI_SUCCESS);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(ids[0], 0x0409);
	EXPECT_STATUS(usb_desc_languages(usb_test_languages, 3, ids, 4, &n), EFI_NOT_FOUND);
	ASSERT_STATUS(usb_desc_string(usb_test_product, 12, text, 8), EFI_SUCCESS);
	EXPECT(memcmp(text, u"Keybd", 12) == 0);
	/* Cut to the room given; refused when bLength lies. */
	ASSERT_STATUS(usb_desc_string(usb_test_product, 12, text, 3), EFI_SUCCESS);
	EXPECT(memcmp(text, u"Ke", 6) == 0);
	EXPECT_STATUS(usb_desc_string(usb_test_product, 11, text, 8), EFI_NOT_FOUND);
	EXPECT_STATUS(usb_desc_string((const UINT8[]){5, 3, 'a', 0, 0}, 5, text, 8), EFI_NOT_FOUND);
}

TEST(usb_desc_hub_taken_and_refused)
{
	/* QEMU's usb-hub as it answers: 8 ports, 2 ms to power good, a one-byte
	 * PortPwrCtrlMask after the two bytes of DeviceRemovable. */
	const UINT8 hub[] = {0x0a, 0x29, 8, 0x0a, 0x00, 1, 0, 0x00, 0x00, 0xff, 0xee};
	struct usb_hub_desc h;
	UINT8 buf[sizeof(hub)], big[13];

	ASSERT_STATUS(usb_desc_hub(hub, sizeof(hub), &h), EFI_SUCCESS);
	EXPECT_EQ(h.ports, 8);
	EXPECT_EQ(h.power_on_ms, 2);
	EXPECT_EQ(h.characteristics, 0x0a);
	EXPECT_EQ(h.tt_think, 0);
	EXPECT_STATUS(usb_desc_hub(hub, 9, &h), EFI_NOT_FOUND); /* bLength past the end */
	memcpy(buf, hub, sizeof(hub));
	buf[1] = 0x2a; /* a USB 3 hub's descriptor */
	EXPECT_STATUS(usb_desc_hub(buf, sizeof(buf), &h), EFI_NOT_FOUND);
	memcpy(buf, hub, sizeof(hub));
	buf[2] = 0; /* no port */
	EXPECT_STATUS(usb_desc_hub(buf, sizeof(buf), &h), EFI_NOT_FOUND);
	buf[2] = 8;
	buf[0] = 8; /* 8 ports and bit 0 need a two-byte DeviceRemovable: 9 bytes */
	EXPECT_STATUS(usb_desc_hub(buf, sizeof(buf), &h), EFI_NOT_FOUND);
	buf[0] = 9;
	EXPECT_STATUS(usb_desc_hub(buf, sizeof(buf), &h), EFI_SUCCESS);
	buf[2] = 200; /* 200 ports need 26 bytes */
	EXPECT_STATUS(usb_desc_hub(buf, sizeof(buf), &h), EFI_NOT_FOUND);
	memset(big, 0, sizeof(big));
	memcpy(big, hub, sizeof(hub));
	big[0] = 10;
	big[2] = 20; /* 21 bits: three bytes */
	ASSERT_STATUS(usb_desc_hub(big, sizeof(big), &h), EFI_SUCCESS);
	EXPECT_EQ(h.ports, USB_HUB_MAX_PORTS); /* the rest left unused */
}
