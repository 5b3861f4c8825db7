/* The Bulk-Only Transport as a SCSI channel: one command at a time through CBW, data and
 * CSW; stalls of the data and status stages cleared as 6.7 says, anything the device gets
 * wrong (a CSW not valid or not meaningful, a phase error, a failed stage) ended by reset
 * recovery. BOT has no autosense: a failed command's sense data is read with REQUEST SENSE. */
#define LOG_PREFIX "usb-bot: "
#include "usb_bot.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define CONTROL_TIMEOUT_MS 1000
#define WRAPPER_TIMEOUT_MS 3000
#define SCSI_REQUEST_SENSE 0x03
#define SENSE_MAX 252

static bool stalled(UINT32 result)
{
	return (result & EFI_USB_ERR_STALL) != 0;
}

/* CLEAR_FEATURE(ENDPOINT_HALT) on one endpoint; the bus resets its data toggle. */
static EFI_STATUS clear_halt(struct usb_bot *b, UINT8 endpoint)
{
	EFI_USB_DEVICE_REQUEST req = {USB_REQ_TYPE_STANDARD | USB_TARGET_ENDPOINT,
				      USB_REQ_CLEAR_FEATURE, USB_FEATURE_ENDPOINT_HALT, endpoint,
				      0};
	UINT32 result;
	EFI_STATUS status = b->io->UsbControlTransfer(b->io, &req, EfiUsbNoData, CONTROL_TIMEOUT_MS,
						      NULL, 0, &result);

	if (EFI_ERROR(status))
		log_debug("clearing the halt of endpoint %02x: %r\n", endpoint, status);
	return status;
}

EFI_STATUS usb_bot_reset_recovery(struct usb_bot *b)
{
	EFI_USB_DEVICE_REQUEST req = {USB_REQ_TYPE_CLASS | USB_TARGET_INTERFACE, USB_BOT_RESET, 0,
				      b->interface, 0};
	UINT32 result;
	EFI_STATUS status = b->io->UsbControlTransfer(b->io, &req, EfiUsbNoData, CONTROL_TIMEOUT_MS,
						      NULL, 0, &result);

	b->resets++;
	if (EFI_ERROR(status))
		log_debug("Bulk-Only Mass Storage Reset: %r\n", status);
	/* The halts are cleared whatever the reset said: 5.3.4 asks for all three. */
	EFI_STATUS in = clear_halt(b, b->bulk_in), out = clear_halt(b, b->bulk_out);

	if (EFI_ERROR(status))
		return status;
	return EFI_ERROR(in) ? in : out;
}

static EFI_STATUS bulk(struct usb_bot *b, UINT8 endpoint, void *data, UINTN *length, UINTN ms,
		       UINT32 *result)
{
	*result = 0;
	return b->io->UsbBulkTransfer(b->io, endpoint, data, length, ms, result);
}

/* The status stage: a stall is cleared and the CSW read once more (6.7.2, 6.7.3). */
static EFI_STATUS read_csw(struct usb_bot *b, UINT8 csw[USB_BOT_CSW_LEN], UINTN *len)
{
	UINT32 result;
	EFI_STATUS status;

	for (int attempt = 0; attempt < 2; attempt++) {
		*len = USB_BOT_CSW_LEN;
		status = bulk(b, b->bulk_in, csw, len, WRAPPER_TIMEOUT_MS, &result);
		if (!EFI_ERROR(status) || !stalled(result))
			return status;
		clear_halt(b, b->bulk_in);
	}
	return status;
}

/* The data stage: a stall ends it (the endpoint cleared, the CSW still comes, 6.7.2 and
 * 6.7.3); any other failure is returned. */
static EFI_STATUS data_stage(struct usb_bot *b, UINT8 endpoint, void *data, UINT32 *length,
			     UINTN ms)
{
	UINTN len = *length;
	UINT32 result;
	EFI_STATUS status = bulk(b, endpoint, data, &len, ms, &result);

	if (EFI_ERROR(status) && stalled(result)) {
		log_debug("data stage stalled after %u bytes\n", (unsigned)len);
		*length = (UINT32)MIN(len, (UINTN)*length);
		return clear_halt(b, endpoint);
	}
	if (EFI_ERROR(status))
		return status;
	*length = (UINT32)MIN(len, (UINTN)*length);
	return EFI_SUCCESS;
}

struct bot_command {
	UINT8 lun;
	const UINT8 *cdb;
	UINT8 cdb_len;
	bool in;
	void *data;
	UINT32 length; /* asked; then moved */
	UINTN ms;
};

/* One command through the three stages: its CSW result, or INVALID after which the device
 * was reset. */
static enum usb_bot_csw_result run(struct usb_bot *b, struct bot_command *c)
{
	UINT8 cbw[USB_BOT_CBW_LEN], csw[USB_BOT_CSW_LEN];
	UINT32 asked = c->length, residue = 0, result;
	UINTN len = USB_BOT_CBW_LEN;
	UINT32 tag = ++b->tag;
	enum usb_bot_csw_result r;

	if (!usb_bot_cbw_build(cbw, tag, asked, c->in, c->lun, c->cdb, c->cdb_len))
		return USB_BOT_CSW_INVALID;
	if (EFI_ERROR(bulk(b, b->bulk_out, cbw, &len, WRAPPER_TIMEOUT_MS, &result)) ||
	    len != USB_BOT_CBW_LEN) {
		log_debug("CBW not taken (result %x)\n", result);
		goto err_reset;
	}
	c->length = 0;
	if (asked) {
		c->length = asked;
		if (EFI_ERROR(data_stage(b, c->in ? b->bulk_in : b->bulk_out, c->data, &c->length,
					 c->ms)))
			goto err_reset;
	}
	if (EFI_ERROR(read_csw(b, csw, &len)))
		goto err_reset;
	r = usb_bot_csw_check(csw, len, tag, asked, &residue);
	if (r == USB_BOT_CSW_PASSED || r == USB_BOT_CSW_FAILED) {
		/* What moved is what the bus counted, never more than the residue leaves. */
		c->length = MIN(c->length, asked - residue);
		return r;
	}
	log_debug("CSW %s\n", r == USB_BOT_CSW_PHASE_ERROR ? "phase error" : "not valid");
err_reset:
	usb_bot_reset_recovery(b);
	c->length = 0;
	return USB_BOT_CSW_INVALID;
}

/* The sense data of a failed command, into the packet's buffer. */
static void request_sense(struct usb_bot *b, UINT8 lun,
			  EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	UINT8 sense[SENSE_MAX];
	UINT8 len = (UINT8)MIN((UINT32)p->SenseDataLength, (UINT32)SENSE_MAX);
	UINT8 cdb[6] = {SCSI_REQUEST_SENSE, 0, 0, 0, len, 0};
	struct bot_command c = {lun, cdb, 6, true, sense, len, WRAPPER_TIMEOUT_MS};

	p->SenseDataLength = 0;
	if (!len)
		return;
	if (run(b, &c) != USB_BOT_CSW_PASSED) {
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_REQUEST_SENSE_FAILED;
		return;
	}
	mem_copy(p->SenseData, sense, c.length);
	p->SenseDataLength = (UINT8)c.length;
}

static EFI_STATUS bot_execute(struct scsi_pass_thru *pt, UINT16 target, UINT16 lun,
			      EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	struct usb_bot *b = container_of(pt, struct usb_bot, pt);
	bool in = p->InTransferLength != 0;
	/* Timeout counts 100 ns; 0 waits for ever, which UsbIo's 0 also means. */
	UINTN ms = p->Timeout ? (UINTN)((p->Timeout + 9999) / 10000) : 0;
	struct bot_command c = {(UINT8)lun,
				p->Cdb,
				p->CdbLength,
				in,
				in ? p->InDataBuffer : p->OutDataBuffer,
				in ? p->InTransferLength : p->OutTransferLength,
				ms};
	enum usb_bot_csw_result r = run(b, &c);

	p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK;
	p->TargetStatus = EFI_EXT_SCSI_STATUS_TARGET_GOOD;
	if (in)
		p->InTransferLength = c.length;
	else
		p->OutTransferLength = c.length;
	if (r == USB_BOT_CSW_INVALID) {
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_PHASE_ERROR;
		p->SenseDataLength = 0;
		return EFI_DEVICE_ERROR;
	}
	if (r == USB_BOT_CSW_FAILED) {
		p->TargetStatus = EFI_EXT_SCSI_STATUS_TARGET_CHECK_CONDITION;
		request_sense(b, (UINT8)lun, p);
		return EFI_SUCCESS;
	}
	p->SenseDataLength = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS bot_reset_channel(struct scsi_pass_thru *pt)
{
	return usb_bot_reset_recovery(container_of(pt, struct usb_bot, pt));
}

static EFI_STATUS bot_reset_target_lun(struct scsi_pass_thru *pt, UINT16 target, UINT16 lun)
{
	return usb_bot_reset_recovery(container_of(pt, struct usb_bot, pt));
}

const struct scsi_pass_thru_ops usb_bot_ops = {
    .execute = bot_execute,
    .reset_channel = bot_reset_channel,
    .reset_target_lun = bot_reset_target_lun,
};

static EFI_STATUS find_endpoints(struct usb_bot *b)
{
	EFI_USB_INTERFACE_DESCRIPTOR d;
	EFI_USB_ENDPOINT_DESCRIPTOR ep;

	if (EFI_ERROR(b->io->UsbGetInterfaceDescriptor(b->io, &d)))
		return EFI_DEVICE_ERROR;
	b->interface = d.InterfaceNumber;
	for (UINT8 i = 0; i < d.NumEndpoints; i++) {
		if (EFI_ERROR(b->io->UsbGetEndpointDescriptor(b->io, i, &ep)) ||
		    (ep.Attributes & USB_ENDPOINT_TYPE_MASK) != USB_ENDPOINT_BULK)
			continue;
		if ((ep.EndpointAddress & USB_ENDPOINT_DIR_IN) && !b->bulk_in)
			b->bulk_in = ep.EndpointAddress;
		else if (!(ep.EndpointAddress & USB_ENDPOINT_DIR_IN) && !b->bulk_out)
			b->bulk_out = ep.EndpointAddress;
	}
	return b->bulk_in && b->bulk_out ? EFI_SUCCESS : EFI_NOT_FOUND;
}

/* Get Max LUN (3.2): one byte, 0-15; a stall means a single LUN. */
static UINT8 max_lun(struct usb_bot *b)
{
	EFI_USB_DEVICE_REQUEST req = {USB_ENDPOINT_DIR_IN | USB_REQ_TYPE_CLASS |
					  USB_TARGET_INTERFACE,
				      USB_BOT_GET_MAX_LUN, 0, b->interface, 1};
	UINT8 value = 0;
	UINT32 result;

	if (EFI_ERROR(b->io->UsbControlTransfer(b->io, &req, EfiUsbDataIn, CONTROL_TIMEOUT_MS,
						&value, 1, &result))) {
		log_debug("Get Max LUN failed (result %x): one LUN\n", result);
		return 0;
	}
	if (value > 15) {
		log_debug("Get Max LUN said %u: one LUN\n", value);
		return 0;
	}
	return value;
}

EFI_STATUS usb_bot_start(struct usb_bot *b, EFI_USB_IO_PROTOCOL *io)
{
	EFI_STATUS status;

	b->io = io;
	b->bulk_in = b->bulk_out = 0;
	status = find_endpoints(b);
	if (EFI_ERROR(status)) {
		log_debug("no bulk IN and OUT endpoints\n");
		return status;
	}
	scsi_pass_thru_init(&b->pt, &usb_bot_ops);
	/* BOT has no initiator on a bus: one target, 0, whose LUNs Get Max LUN counts. */
	b->pt.mode.AdapterId = 0xffffffff;
	b->pt.mode.IoAlign = 0;
	b->pt.max_target = 0;
	b->pt.max_lun = max_lun(b);
	b->pt.max_cdb = USB_BOT_MAX_CDB;
	b->pt.bidirectional = false;
	b->pt.max_transfer = USB_BOT_MAX_TRANSFER;
	log_debug("endpoints %02x/%02x, LUNs 0-%u\n", b->bulk_in, b->bulk_out, b->pt.max_lun);
	return EFI_SUCCESS;
}
