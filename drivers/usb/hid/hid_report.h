/* Where a pointing device's report carries its position and buttons, from its HID report
 * descriptor (HID 1.11, 6.2.2: short items, globals, locals, Input main items). Outside
 * data: the parser is bounded by the descriptor's length and refuses what it cannot follow
 * (push and pop, fields past 64 bytes). Pure logic. */
#ifndef EMBER_HID_REPORT_H
#define EMBER_HID_REPORT_H

#include <stdbool.h>
#include <efi/types.h>
#include <efi/status.h>

#define HID_REPORT_MAX_BYTES 64

/* A field of an input report: bits [offset, offset + size) after the report ID byte (if
 * any), its logical range. */
struct hid_field {
	UINT16 offset;
	UINT8 size; /* 0: absent */
	INT32 min, max;
};

struct hid_pointer {
	UINT8 report_id; /* 0: reports carry no ID */
	bool relative;	 /* a mouse (X and Y are movements), else a tablet */
	struct hid_field x, y, wheel;
	struct hid_field buttons[3];
};

/* The pointer fields of a report descriptor: EFI_SUCCESS when X and Y lie in one report,
 * EFI_UNSUPPORTED when there are none, EFI_NOT_FOUND for a broken descriptor. */
EFI_STATUS hid_report_pointer(const UINT8 *desc, UINTN len, struct hid_pointer *out);

/* A field's value in a report of len bytes (sign-extended when its minimum is negative);
 * false when the report is too short for it or absent. */
bool hid_report_value(const UINT8 *report, UINTN len, const struct hid_field *f, INT32 *value);

#endif
