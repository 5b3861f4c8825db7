/* HID report descriptors of pointing devices (drivers/usb/hid/hid_report.c): a tablet
 * (absolute X and Y), a mouse with report IDs (relative), fields read from reports with
 * their signs, and descriptors that are cut short, push state or have no position. */
#include <string.h>

#include "support/test.h"
#include "../../drivers/usb/hid/hid_report.h"

/* Buttons 1-3, five bits of padding, X and Y absolute 0-32767, a relative wheel. */
static const UINT8 tablet[] = {
    0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x09, 0x01, 0xa1, 0x00, /* pointer */
    0x05, 0x09, 0x19, 0x01, 0x29, 0x03, 0x15, 0x00, 0x25, 0x01, 0x95, 0x03, 0x75, 0x01,
    0x81, 0x02, 0x95, 0x01, 0x75, 0x05, 0x81, 0x01, /* buttons */
    0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x15, 0x00, 0x26, 0xff, 0x7f, 0x35, 0x00, 0x46,
    0xff, 0x7f, 0x75, 0x10, 0x95, 0x02, 0x81, 0x02,					/* X, Y */
    0x05, 0x01, 0x09, 0x38, 0x15, 0x81, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x06, /* wheel */
    0xc0, 0xc0,
};

/* Report ID 2: two buttons, padding, relative X and Y of 8 bits each. */
static const UINT8 mouse[] = {
    0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x02, 0x05, 0x09, 0x19, 0x01, 0x29, 0x02, 0x15, 0x00,
    0x25, 0x01, 0x75, 0x01, 0x95, 0x02, 0x81, 0x02, 0x75, 0x06, 0x95, 0x01, 0x81, 0x01, 0x05, 0x01,
    0x09, 0x30, 0x09, 0x31, 0x15, 0x81, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x02, 0x81, 0x06, 0xc0,
};

TEST(hid_report_tablet)
{
	struct hid_pointer p;
	const UINT8 report[] = {0x05, 0xe8, 0x03, 0xff, 0x7f, 0xff};
	INT32 v;

	ASSERT_STATUS(hid_report_pointer(tablet, sizeof(tablet), &p), EFI_SUCCESS);
	EXPECT(!p.relative);
	EXPECT_EQ(p.report_id, 0);
	EXPECT_EQ(p.x.offset, 8);
	EXPECT_EQ(p.x.size, 16);
	EXPECT_EQ(p.x.max, 32767);
	EXPECT_EQ(p.y.offset, 24);
	EXPECT_EQ(p.wheel.offset, 40);
	EXPECT_EQ(p.buttons[2].offset, 2);
	ASSERT(hid_report_value(report, sizeof(report), &p.x, &v));
	EXPECT_EQ(v, 1000);
	ASSERT(hid_report_value(report, sizeof(report), &p.y, &v));
	EXPECT_EQ(v, 32767);
	ASSERT(hid_report_value(report, sizeof(report), &p.wheel, &v));
	EXPECT_EQ(v, -1);
	ASSERT(hid_report_value(report, sizeof(report), &p.buttons[0], &v));
	EXPECT_EQ(v, 1);
	ASSERT(hid_report_value(report, sizeof(report), &p.buttons[1], &v));
	EXPECT_EQ(v, 0);
	/* A report too short for Y. */
	EXPECT(!hid_report_value(report, 4, &p.y, &v));
	/* Trailing zero bytes (a buffer longer than the descriptor) change nothing. */
	UINT8 padded[sizeof(tablet) + 40] = {0};
	memcpy(padded, tablet, sizeof(tablet));
	ASSERT_STATUS(hid_report_pointer(padded, sizeof(padded), &p), EFI_SUCCESS);
	EXPECT_EQ(p.y.offset, 24);
}

TEST(hid_report_mouse_with_report_id)
{
	struct hid_pointer p;
	const UINT8 body[] = {0x01, 0xfb, 0x05}; /* after the ID byte */
	INT32 v;

	ASSERT_STATUS(hid_report_pointer(mouse, sizeof(mouse), &p), EFI_SUCCESS);
	EXPECT(p.relative);
	EXPECT_EQ(p.report_id, 2);
	EXPECT_EQ(p.x.offset, 8);
	ASSERT(hid_report_value(body, sizeof(body), &p.x, &v));
	EXPECT_EQ(v, -5);
	ASSERT(hid_report_value(body, sizeof(body), &p.y, &v));
	EXPECT_EQ(v, 5);
}

TEST(hid_report_refuses_broken_descriptors)
{
	struct hid_pointer p;
	UINT8 buf[sizeof(tablet)];

	/* Cut inside an item; a push; a report count past any report; no X and Y. */
	EXPECT_STATUS(hid_report_pointer(tablet, 39, &p), EFI_NOT_FOUND);
	EXPECT_STATUS(hid_report_pointer((const UINT8[]){0xa4}, 1, &p), EFI_NOT_FOUND);
	EXPECT_STATUS(hid_report_pointer((const UINT8[]){0x96, 0xff, 0x7f}, 3, &p), EFI_NOT_FOUND);
	EXPECT_STATUS(hid_report_pointer(tablet, 32, &p), EFI_UNSUPPORTED);
	/* A long item whose length runs past the end. */
	EXPECT_STATUS(hid_report_pointer((const UINT8[]){0xfe, 9, 0}, 3, &p), EFI_NOT_FOUND);
	/* Fields wider than 32 bits are refused. */
	memcpy(buf, tablet, sizeof(buf));
	buf[49] = 0x40; /* report size 64 */
	EXPECT_STATUS(hid_report_pointer(buf, sizeof(buf), &p), EFI_NOT_FOUND);
}
