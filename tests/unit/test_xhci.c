/* The xHCI driver (drivers/usb/xhci) under the USB bus and keyboard drivers, on a
 * controller in memory (fake_xhci.c): start-up (reset, scratchpads, rings), the keyboard
 * on port 1 addressed through Address Device (SET_ADDRESS held back, then sent by the
 * controller), its configuration and interrupt endpoint, a report becoming a key through
 * the periodic poll of the event ring, USB2_HC's argument checks, and Stop giving every
 * buffer and mapping back. */
#include <string.h>

#include "block_dev.h"
#include "fake_xhci.h"
#include "support/test.h"
#include <efi/protocol/simple_text_input.h>
#include <efi/protocol/usb_io.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static EFI_HANDLE the_usb_handle(void)
{
	EFI_HANDLE *handles = NULL, h = NULL;
	UINTN count = 0;

	if (!EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_usb_io_protocol_guid, NULL, &count,
					    &handles)) &&
	    count == 1)
		h = handles[0];
	pool_free(handles);
	return h;
}

static void usb2_checks(EFI_USB2_HC_PROTOCOL *hc)
{
	EFI_USB_DEVICE_REQUEST req = {0x80, USB_REQ_GET_DESCRIPTOR, 0x0100, 0, 8};
	EFI_USB_PORT_STATUS st;
	UINT8 speed, ports, is64, buf[8];
	UINTN len = 8;
	UINT32 result;

	ASSERT_STATUS(hc->GetCapability(hc, &speed, &ports, &is64), EFI_SUCCESS);
	EXPECT_EQ(ports, FAKE_XHCI_PORTS);
	EXPECT_STATUS(hc->GetCapability(hc, NULL, &ports, &is64), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(hc->GetRootHubPortStatus(hc, FAKE_XHCI_PORTS, &st), EFI_INVALID_PARAMETER);
	ASSERT_STATUS(hc->GetRootHubPortStatus(hc, 0, &st), EFI_SUCCESS);
	EXPECT(st.PortStatus & USB_PORT_STAT_CONNECTION);
	EXPECT(st.PortStatus & USB_PORT_STAT_HIGH_SPEED);
	EXPECT_STATUS(hc->SetRootHubPortFeature(hc, 0, (EFI_USB_PORT_FEATURE)99),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(hc->Reset(hc, EFI_USB_HC_RESET_GLOBAL_WITH_DEBUG), EFI_UNSUPPORTED);
	EXPECT_STATUS(hc->Reset(hc, 0x40), EFI_INVALID_PARAMETER);
	/* A high-speed control endpoint has 64-byte packets; data needs a length. */
	EXPECT_STATUS(hc->ControlTransfer(hc, 1, EFI_USB_SPEED_HIGH, 8, &req, EfiUsbDataIn, buf,
					  &len, 100, NULL, &result),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(hc->ControlTransfer(hc, 1, EFI_USB_SPEED_HIGH, 64, &req, EfiUsbDataIn, buf,
					  NULL, 100, NULL, &result),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(hc->ControlTransfer(hc, 1, EFI_USB_SPEED_HIGH, 64, &req, EfiUsbNoData, buf,
					  &len, 100, NULL, &result),
		      EFI_INVALID_PARAMETER);
	/* An address nobody has. */
	EXPECT_STATUS(hc->ControlTransfer(hc, 77, EFI_USB_SPEED_HIGH, 64, &req, EfiUsbDataIn, buf,
					  &len, 100, NULL, &result),
		      EFI_DEVICE_ERROR);
	/* The keyboard at address 1 answers, up to 8 bytes of its descriptor. */
	ASSERT_STATUS(hc->ControlTransfer(hc, 1, EFI_USB_SPEED_HIGH, 64, &req, EfiUsbDataIn, buf,
					  &len, 100, NULL, &result),
		      EFI_SUCCESS);
	EXPECT_EQ(result, EFI_USB_NOERROR);
	EXPECT_EQ(len, 8);
	EXPECT_EQ(buf[1], 1);
	/* A request the device stalls: the endpoint is reset and usable again. */
	req.Value = 0x0900;
	EXPECT_STATUS(hc->ControlTransfer(hc, 1, EFI_USB_SPEED_HIGH, 64, &req, EfiUsbDataIn, buf,
					  &len, 100, NULL, &result),
		      EFI_DEVICE_ERROR);
	EXPECT_EQ(result, EFI_USB_ERR_STALL);
	req.Value = 0x0100;
	len = 8;
	EXPECT_STATUS(hc->ControlTransfer(hc, 1, EFI_USB_SPEED_HIGH, 64, &req, EfiUsbDataIn, buf,
					  &len, 100, NULL, &result),
		      EFI_SUCCESS);
}

static void keyboard_over_xhci_body(void)
{
	struct fake_xhci *x;
	EFI_USB2_HC_PROTOCOL *hc = NULL;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_INPUT_KEY key;
	EFI_HANDLE h;
	CHAR16 *text;

	test_install_builtin_drivers();
	x = fake_xhci_create();
	ASSERT(x);
	driver_connect(x->pci->handle, NULL, NULL, true);
	ASSERT_STATUS(protocol_get(x->pci->handle, &efi_usb2_hc_protocol_guid, (void **)&hc),
		      EFI_SUCCESS);
	EXPECT(x->usbcmd & 1);
	/* The scratchpad buffers asked for: an array of pages in DCBAA entry 0. */
	UINT64 *dcbaa = fake_pci_io_dma(x->pci, x->dcbaap, 8, false);
	UINT64 *pads = dcbaa && dcbaa[0] ? fake_pci_io_dma(x->pci, dcbaa[0], 16, false) : NULL;
	ASSERT(pads);
	EXPECT(fake_pci_io_dma(x->pci, pads[FAKE_XHCI_SCRATCHPADS - 1], 4096, true) != NULL);
	EXPECT(x->kbd_addressed);
	EXPECT_EQ(x->kbd_configuration, 1);
	h = the_usb_handle();
	ASSERT(h);
	protocol_get(h, &efi_device_path_protocol_guid, (void **)&path);
	text = path ? dp_to_text(path, false, false) : NULL;
	EXPECT(text && !str16_cmp(text, u"PciRoot(0x0)/Pci(0x5,0x0)/USB(0x0,0x0)"));
	pool_free(text);
	ASSERT_STATUS(protocol_get(h, &efi_simple_text_input_protocol_guid, (void **)&in),
		      EFI_SUCCESS);
	/* A report: the driver's timer polls the event ring and the key comes. */
	fake_xhci_report(x, (const UINT8[8]){0, 0, 0x0b, 0, 0, 0, 0, 0});
	test_advance_time_ns(20 * 1000000ULL);
	ASSERT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'h');
	fake_xhci_report(x, (const UINT8[8]){2, 0, 0x0c, 0, 0, 0, 0, 0});
	test_advance_time_ns(20 * 1000000ULL);
	ASSERT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'I');
	EXPECT(x->class_requests >= 2); /* SET_PROTOCOL, the lights */
	usb2_checks(hc);
	EXPECT_EQ(x->pci->errors, 0);
	if (x->pci->errors)
		test_check(false, x->pci->last_error, __FILE__, __LINE__, false);
	/* Stop: everything given back, the controller halted. */
	EXPECT_STATUS(driver_disconnect(x->pci->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(!(x->usbcmd & 1));
	EXPECT_EQ(x->pci->live_maps, 0);
	EXPECT_EQ(x->pci->live_buffers, 0);
	EXPECT(fake_pci_io_unclaimed(x->pci));
	fake_xhci_destroy(x);
}

TEST(xhci_keyboard_from_reset_to_keys_and_stop)
{
	RUN_ISOLATED(keyboard_over_xhci_body);
}
