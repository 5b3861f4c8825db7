/* A USB mass storage device (Bulk-Only Transport) for the tests, on the fake USB host
 * controller (fake_usb_hc.c): the interface of usb_test_storage_config (bulk IN 0x81, OUT
 * 0x02) carrying SCSI commands to a fake_scsi target 0, with the class requests (Get Max
 * LUN, Bulk-Only Mass Storage Reset), halted endpoints that stay halted until cleared, and
 * faults to inject: a phase error, a stalled data stage, a stalled status stage, a CSW with
 * a wrong tag. It checks what the host sends (CBW signature and length, the stage it is in)
 * and counts the host's mistakes. */
#ifndef EMBER_TEST_FAKE_USB_BOT_H
#define EMBER_TEST_FAKE_USB_BOT_H

#include "fake_scsi.h"
#include "fake_usb_hc.h"

#define FAKE_BOT_BUF 0x20000

enum fake_bot_stage { FAKE_BOT_CBW, FAKE_BOT_DATA_IN, FAKE_BOT_DATA_OUT, FAKE_BOT_CSW };

struct fake_usb_bot {
	struct fake_usb_device dev; /* first: the fake host's callbacks find the rest */
	struct fake_scsi scsi;
	UINT8 max_lun;
	/* State. */
	enum fake_bot_stage stage;
	bool halted_in, halted_out;
	UINT32 tag, expected, residue;
	UINT8 flags, lun, cdb[16], cdb_len, status;
	UINT8 buf[FAKE_BOT_BUF];
	UINT32 buf_len;
	UINT8 sense[252];
	UINT32 sense_len;
	/* Faults for the next command. */
	bool phase_error, stall_data, stall_csw, wrong_tag;
	/* What the host did. */
	UINTN resets, clears_in, clears_out, commands, host_errors;
};

/* Sets the device up: its descriptors, no logical units yet (add them to scsi). */
void fake_usb_bot_init(struct fake_usb_bot *b);

#endif
