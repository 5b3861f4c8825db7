/* The interrupt IN endpoint the USB keyboard and pointer drivers take from their interface
 * (drivers/usb/hid/hid_endpoint.c), over a USB I/O protocol that serves descriptors from a
 * table: the first interrupt IN endpoint, others and unreadable ones passed over, the
 * default interval, and the interface's own failure. */
#include <string.h>

#include "support/test.h"
#include "../../drivers/usb/hid/hid_endpoint.h"

static struct {
	EFI_USB_IO_PROTOCOL io;
	bool interface_fails;
	UINT8 count;
	EFI_USB_ENDPOINT_DESCRIPTOR eps[4];
	UINT8 unreadable; /* index + 1 of an endpoint whose descriptor cannot be read */
} fake;

static EFI_STATUS EFIAPI get_interface(EFI_USB_IO_PROTOCOL *this, EFI_USB_INTERFACE_DESCRIPTOR *d)
{
	(void)this;
	if (fake.interface_fails)
		return EFI_DEVICE_ERROR;
	memset(d, 0, sizeof(*d));
	d->InterfaceNumber = 2;
	d->NumEndpoints = fake.count;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_endpoint(EFI_USB_IO_PROTOCOL *this, UINT8 index,
				      EFI_USB_ENDPOINT_DESCRIPTOR *ep)
{
	(void)this;
	if (index >= fake.count || index + 1 == fake.unreadable)
		return EFI_NOT_FOUND;
	*ep = fake.eps[index];
	return EFI_SUCCESS;
}

static EFI_USB_ENDPOINT_DESCRIPTOR endpoint(UINT8 address, UINT8 type, UINT16 packet,
					    UINT8 interval)
{
	return (EFI_USB_ENDPOINT_DESCRIPTOR){7, 5, address, type, packet, interval};
}

static void setup(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.io.UsbGetInterfaceDescriptor = get_interface;
	fake.io.UsbGetEndpointDescriptor = get_endpoint;
}

TEST(hid_endpoint_first_interrupt_in)
{
	struct hid_endpoint ep = {0};

	setup();
	fake.count = 4;
	fake.eps[0] = endpoint(0x81, USB_ENDPOINT_BULK, 64, 0);	     /* bulk */
	fake.eps[1] = endpoint(0x02, USB_ENDPOINT_INTERRUPT, 8, 10); /* OUT */
	fake.eps[2] = endpoint(0x83, USB_ENDPOINT_INTERRUPT, 0x1808, 0);
	fake.eps[3] = endpoint(0x84, USB_ENDPOINT_INTERRUPT, 8, 4);
	ASSERT_STATUS(hid_interrupt_in(&fake.io, &ep), EFI_SUCCESS);
	EXPECT_EQ(ep.interface, 2);
	EXPECT_EQ(ep.address, 0x83);
	EXPECT_EQ(ep.interval, 8);   /* 0 in the descriptor */
	EXPECT_EQ(ep.packet, 0x008); /* the size bits, without the extra transactions */

	fake.unreadable = 3; /* 0x83's descriptor cannot be read: the next one */
	ASSERT_STATUS(hid_interrupt_in(&fake.io, &ep), EFI_SUCCESS);
	EXPECT_EQ(ep.address, 0x84);
	EXPECT_EQ(ep.interval, 4);
}

TEST(hid_endpoint_none_or_no_interface)
{
	struct hid_endpoint ep = {0};

	setup();
	fake.count = 2;
	fake.eps[0] = endpoint(0x81, USB_ENDPOINT_BULK, 64, 0);
	fake.eps[1] = endpoint(0x02, USB_ENDPOINT_INTERRUPT, 8, 10);
	EXPECT_STATUS(hid_interrupt_in(&fake.io, &ep), EFI_NOT_FOUND);
	fake.count = 0;
	EXPECT_STATUS(hid_interrupt_in(&fake.io, &ep), EFI_NOT_FOUND);
	fake.interface_fails = true;
	EXPECT_STATUS(hid_interrupt_in(&fake.io, &ep), EFI_DEVICE_ERROR);
}
