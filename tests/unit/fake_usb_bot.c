/* The fake Bulk-Only Transport device of fake_usb_bot.h. */
#include <string.h>

#include "fake_usb_bot.h"
#include "usb_descs.h"

#define EP_IN 0x81
#define EP_OUT 0x02

static UINT32 get32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static void put32(UINT8 *p, UINT32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (UINT8)(v >> (8 * i));
}

static EFI_STATUS stall(UINTN *length, UINT32 *result)
{
	*length = 0;
	*result = EFI_USB_ERR_STALL;
	return EFI_DEVICE_ERROR;
}

static EFI_STATUS done(UINT32 *result)
{
	*result = EFI_USB_NOERROR;
	return EFI_SUCCESS;
}

/* Runs the command on the SCSI model; REQUEST SENSE answers the last sense kept (BOT has no
 * autosense). */
static void execute(struct fake_usb_bot *b, const UINT8 *out, UINT32 out_len)
{
	UINT32 in_len = b->flags & 0x80 ? b->expected : 0, sense_len = sizeof(b->sense);

	b->commands++;
	if (b->cdb[0] == 0x03) {
		b->buf_len = b->sense_len < b->expected ? b->sense_len : b->expected;
		memcpy(b->buf, b->sense, b->buf_len);
		b->sense_len = 0;
		b->status = 0;
		return;
	}
	b->status = fake_scsi_execute(&b->scsi, 0, b->lun, b->cdb, b->cdb_len, out, out_len, b->buf,
				      &in_len, b->sense, &sense_len);
	b->buf_len = in_len;
	b->sense_len = b->status == 2 ? sense_len : 0;
	if (b->status == FAKE_SCSI_NO_TARGET)
		b->status = 1;
	else if (b->status > 1)
		b->status = 1; /* CHECK CONDITION: command failed */
}

static EFI_STATUS take_cbw(struct fake_usb_bot *b, const UINT8 *data, UINTN len, UINT32 *result)
{
	if (b->stage != FAKE_BOT_CBW || len != 31 || get32(data) != 0x43425355 || data[14] < 1 ||
	    data[14] > 16) {
		b->host_errors++;
		b->halted_in = b->halted_out = true; /* 6.6.1: the device waits for a reset */
		return EFI_DEVICE_ERROR;
	}
	b->tag = get32(data + 4);
	b->expected = get32(data + 8);
	b->flags = data[12];
	b->lun = data[13];
	b->cdb_len = data[14];
	memcpy(b->cdb, data + 15, 16);
	b->residue = b->expected;
	if (!b->expected) {
		execute(b, NULL, 0);
		b->stage = FAKE_BOT_CSW;
	} else if (b->flags & 0x80) {
		execute(b, NULL, 0);
		b->stage = FAKE_BOT_DATA_IN;
	} else {
		b->stage = FAKE_BOT_DATA_OUT;
	}
	return done(result);
}

static EFI_STATUS bot_bulk(struct fake_usb_device *dev, UINT8 endpoint, void *data, UINTN *length,
			   UINT32 *result)
{
	struct fake_usb_bot *b = (struct fake_usb_bot *)dev;
	UINT8 csw[13];

	if ((endpoint == EP_IN && b->halted_in) || (endpoint == EP_OUT && b->halted_out))
		return stall(length, result);
	if (endpoint == EP_OUT && b->stage == FAKE_BOT_CBW)
		return take_cbw(b, data, *length, result) == EFI_SUCCESS ? EFI_SUCCESS
									 : stall(length, result);
	if ((b->stage == FAKE_BOT_DATA_IN || b->stage == FAKE_BOT_DATA_OUT) && b->stall_data) {
		/* The device refuses the data: it halts the endpoint and fails the command. */
		b->stall_data = false;
		if (endpoint == EP_IN)
			b->halted_in = true;
		else
			b->halted_out = true;
		b->status = 1;
		b->sense_len = 18;
		memset(b->sense, 0, 18);
		b->sense[0] = 0x70, b->sense[2] = 0x03, b->sense[7] = 10, b->sense[12] = 0x11;
		b->stage = FAKE_BOT_CSW;
		return stall(length, result);
	}
	if (endpoint == EP_IN && b->stage == FAKE_BOT_DATA_IN) {
		UINTN n = *length < b->buf_len ? *length : b->buf_len;

		memcpy(data, b->buf, n);
		*length = n;
		b->residue = b->expected - (UINT32)n;
		b->stage = FAKE_BOT_CSW;
		return done(result);
	}
	if (endpoint == EP_OUT && b->stage == FAKE_BOT_DATA_OUT) {
		execute(b, data, (UINT32)*length);
		b->residue = b->expected - (UINT32)*length;
		b->stage = FAKE_BOT_CSW;
		return done(result);
	}
	if (endpoint == EP_IN && b->stage == FAKE_BOT_CSW) {
		if (b->stall_csw) {
			b->stall_csw = false;
			b->halted_in = true;
			return stall(length, result);
		}
		if (*length < 13) {
			b->host_errors++;
			return stall(length, result);
		}
		put32(csw, 0x53425355);
		put32(csw + 4, b->wrong_tag ? b->tag + 1 : b->tag);
		put32(csw + 8, b->residue);
		csw[12] = b->phase_error ? 2 : b->status;
		b->wrong_tag = b->phase_error = false;
		memcpy(data, csw, 13);
		*length = 13;
		b->stage = FAKE_BOT_CBW;
		return done(result);
	}
	/* Anything else is out of step with the stages. */
	b->host_errors++;
	return stall(length, result);
}

static EFI_STATUS bot_request(struct fake_usb_device *dev, EFI_USB_DEVICE_REQUEST *req,
			      EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length, UINT32 *result)
{
	struct fake_usb_bot *b = (struct fake_usb_bot *)dev;

	if (req->Request == USB_REQ_CLEAR_FEATURE && req->RequestType == USB_TARGET_ENDPOINT) {
		if ((UINT8)req->Index == EP_IN) {
			b->halted_in = false;
			b->clears_in++;
		} else if ((UINT8)req->Index == EP_OUT) {
			b->halted_out = false;
			b->clears_out++;
		}
		return done(result);
	}
	if (req->Request == 0xfe && dir == EfiUsbDataIn && length && *length >= 1) {
		*(UINT8 *)data = b->max_lun;
		*length = 1;
		return done(result);
	}
	if (req->Request == 0xff && dir == EfiUsbNoData) {
		b->resets++;
		b->stage = FAKE_BOT_CBW;
		return done(result);
	}
	*result = EFI_USB_ERR_STALL;
	return EFI_DEVICE_ERROR;
}

void fake_usb_bot_init(struct fake_usb_bot *b)
{
	memset(b, 0, sizeof(*b));
	b->dev.device_desc = usb_test_kbd_device;
	b->dev.config = usb_test_storage_config;
	b->dev.config_len = sizeof(usb_test_storage_config);
	b->dev.strings[0] = usb_test_languages;
	b->dev.speed = EFI_USB_SPEED_HIGH;
	b->dev.request = bot_request;
	b->dev.bulk = bot_bulk;
}
