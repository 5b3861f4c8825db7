/* USB mass storage, Bulk-Only Transport (USB Mass Storage Class Bulk-Only Transport 1.0):
 * each SCSI command is a Command Block Wrapper on the bulk OUT endpoint, its data on the
 * bulk endpoint of its direction, and a Command Status Wrapper on the bulk IN endpoint. The
 * transport carries EFI_EXT_SCSI_PASS_THRU_PROTOCOL through the shared front end
 * (scsi_pass_thru.h), so that the SCSI bus and disk drivers bind above it. */
#ifndef DRIVERS_USB_BOT_H
#define DRIVERS_USB_BOT_H

#include <efi/protocol/usb_io.h>
#include <ember/drivers/scsi_pass_thru.h>

#define USB_BOT_CBW_SIGNATURE 0x43425355u /* "USBC" */
#define USB_BOT_CSW_SIGNATURE 0x53425355u /* "USBS" */
#define USB_BOT_CBW_LEN 31
#define USB_BOT_CSW_LEN 13
#define USB_BOT_CBW_IN 0x80 /* bmCBWFlags: data from the device */
#define USB_BOT_MAX_CDB 16
/* Class requests (3.1, 3.2). */
#define USB_BOT_RESET 0xff
#define USB_BOT_GET_MAX_LUN 0xfe
/* The largest transfer per command: what one xHCI transfer of Ember's carries at ease. */
#define USB_BOT_MAX_TRANSFER 0x10000u

/* bCSWStatus (5.2) and what Ember makes of a CSW as a whole (6.3). */
enum usb_bot_csw_result {
	USB_BOT_CSW_PASSED,
	USB_BOT_CSW_FAILED,
	USB_BOT_CSW_PHASE_ERROR,
	USB_BOT_CSW_INVALID, /* not valid or not meaningful: the host resets the device */
};

/* Checks the len bytes the device sent as the CSW of the command with this tag and
 * expected data length: valid (13 bytes, signature, tag) and meaningful (a known status, a
 * residue no larger than expected). Sets *residue for PASSED and FAILED. */
enum usb_bot_csw_result usb_bot_csw_check(const UINT8 *data, UINTN len, UINT32 tag, UINT32 expected,
					  UINT32 *residue);

/* Lays out a CBW (5.1) in out (31 bytes); false when the CDB does not fit one. */
bool usb_bot_cbw_build(UINT8 out[USB_BOT_CBW_LEN], UINT32 tag, UINT32 length, bool in, UINT8 lun,
		       const UINT8 *cdb, UINT8 cdb_len);

struct usb_bot {
	struct scsi_pass_thru pt;
	EFI_USB_IO_PROTOCOL *io;
	UINT8 interface, bulk_in, bulk_out;
	UINT32 tag;
	UINT32 resets; /* reset recoveries done (for the tests and the log) */
};

/* Finds the interface's bulk endpoints, asks Get Max LUN and sets up b->pt over io. */
EFI_STATUS usb_bot_start(struct usb_bot *b, EFI_USB_IO_PROTOCOL *io);

/* Reset recovery (5.3.4): Bulk-Only Mass Storage Reset, then the halts of both bulk
 * endpoints cleared. */
EFI_STATUS usb_bot_reset_recovery(struct usb_bot *b);

extern const struct scsi_pass_thru_ops usb_bot_ops;

#endif
