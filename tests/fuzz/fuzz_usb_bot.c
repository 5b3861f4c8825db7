/* Fuzzes the Bulk-Only Transport (drivers/usb/mass_storage/usb_bot.c) against a device that
 * answers with the input: Get Max LUN takes its first byte; then each bulk transfer takes a
 * record (a byte of USB result bits, a byte of length, that many bytes for an IN transfer)
 * while three SCSI commands (a read, a write, no data) run through the pass-thru. Whatever it
 * says, the transport must stay within its buffers, report no more data than was asked and
 * no more sense than the packet holds; the CSW checks are run on the input alone too. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../drivers/usb/mass_storage/usb_bot.h"

struct replay {
	const uint8_t *data;
	size_t size, at;
};

static struct replay in;

static EFI_STATUS EFIAPI get_interface(EFI_USB_IO_PROTOCOL *this, EFI_USB_INTERFACE_DESCRIPTOR *d)
{
	memset(d, 0, sizeof(*d));
	d->Length = 9;
	d->DescriptorType = 4;
	d->NumEndpoints = 2;
	d->InterfaceClass = 8;
	d->InterfaceSubClass = 6;
	d->InterfaceProtocol = 0x50;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_endpoint(EFI_USB_IO_PROTOCOL *this, UINT8 index,
				      EFI_USB_ENDPOINT_DESCRIPTOR *ep)
{
	if (index > 1)
		return EFI_NOT_FOUND;
	memset(ep, 0, sizeof(*ep));
	ep->Length = 7;
	ep->DescriptorType = 5;
	ep->EndpointAddress = index ? 0x02 : 0x81;
	ep->Attributes = 2;
	ep->MaxPacketSize = 512;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI control(EFI_USB_IO_PROTOCOL *this, EFI_USB_DEVICE_REQUEST *req,
				 EFI_USB_DATA_DIRECTION dir, UINT32 timeout, void *data,
				 UINTN length, UINT32 *result)
{
	*result = 0;
	if (dir == EfiUsbDataIn && length >= 1)
		*(UINT8 *)data = in.size ? in.data[0] : 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI bulk(EFI_USB_IO_PROTOCOL *this, UINT8 endpoint, void *data, UINTN *length,
			      UINTN timeout, UINT32 *result)
{
	UINT8 bits, n;

	if (in.at + 2 > in.size) {
		*length = 0;
		*result = EFI_USB_ERR_TIMEOUT;
		return EFI_DEVICE_ERROR;
	}
	bits = in.data[in.at++];
	n = in.data[in.at++];
	*result = bits & 0x7f;
	if (endpoint & 0x80) {
		size_t avail = in.size - in.at;
		UINTN give = n < *length ? n : *length;

		give = give < avail ? give : avail;
		memcpy(data, in.data + in.at, give);
		in.at += give;
		*length = give;
	} else if (bits & 0x80) {
		*length = n < *length ? n : *length; /* a short OUT transfer */
	}
	return *result ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static void command(struct usb_bot *b, UINT8 op, bool read, UINT32 len)
{
	static UINT8 data[4096];
	UINT8 cdb[10] = {op}, sense[18], target[TARGET_MAX_BYTES] = {0};
	EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET p = {0};

	p.Timeout = 10000000;
	p.Cdb = cdb;
	p.CdbLength = 10;
	p.SenseData = sense;
	p.SenseDataLength = sizeof(sense);
	p.DataDirection =
	    read ? EFI_EXT_SCSI_DATA_DIRECTION_READ : EFI_EXT_SCSI_DATA_DIRECTION_WRITE;
	if (read) {
		p.InDataBuffer = data;
		p.InTransferLength = len;
	} else {
		p.OutDataBuffer = data;
		p.OutTransferLength = len;
	}
	b->pt.protocol.PassThru(&b->pt.protocol, target, 0, &p, NULL);
	if (p.InTransferLength > (read ? len : 0) || p.OutTransferLength > (read ? 0 : len) ||
	    p.SenseDataLength > sizeof(sense))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct usb_bot b;
	static EFI_USB_IO_PROTOCOL io = {
	    .UsbControlTransfer = control,
	    .UsbBulkTransfer = bulk,
	    .UsbGetInterfaceDescriptor = get_interface,
	    .UsbGetEndpointDescriptor = get_endpoint,
	};
	UINT32 residue = 0;

	if (size >= USB_BOT_CSW_LEN) {
		enum usb_bot_csw_result r =
		    usb_bot_csw_check(data, USB_BOT_CSW_LEN, 1, 512, &residue);
		if ((r == USB_BOT_CSW_PASSED || r == USB_BOT_CSW_FAILED) && residue > 512)
			abort();
	}
	in = (struct replay){data, size, 1};
	memset(&b, 0, sizeof(b));
	if (EFI_ERROR(usb_bot_start(&b, &io)) || b.pt.max_lun > 15)
		abort();
	command(&b, 0x28, true, 4096);
	command(&b, 0x2a, false, 1024);
	command(&b, 0x00, true, 0);
	return 0;
}
