/* Sample USB descriptors (see usb_descs.h). */
#include "usb_descs.h"

const UINT8 usb_test_kbd_device[18] = {
    18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x27, 0x06, 0x01, 0x00, 0x00, 0x00, 1, 2, 3, 1,
};

const UINT8 usb_test_kbd_config[34] = {
    9, 2,    34,   0,	 1, 1, 0,    0xa0, 50, /* configuration 1, one interface */
    9, 4,    0,	   0,	 1, 3, 1,    1,	   0,  /* interface 0: HID, boot, keyboard */
    9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63,   0,  /* HID descriptor */
    7, 5,    0x81, 3,	 8, 0, 10,	       /* endpoint 1 IN, interrupt, 8 bytes */
};

const UINT8 usb_test_storage_config[32] = {
    9, 2, 32,	0, 1, 1, 0, 0x80, 50, /* configuration 1 */
    9, 4, 0,	0, 2, 8, 6, 0x50, 0,  /* interface 0: mass storage, SCSI, bulk-only */
    7, 5, 0x81, 2, 0, 2, 0,	      /* endpoint 1 IN, bulk, 512 */
    7, 5, 0x02, 2, 0, 2, 0,	      /* endpoint 2 OUT, bulk, 512 */
};

const UINT8 usb_test_languages[4] = {4, 3, 0x09, 0x04};

const UINT8 usb_test_product[12] = {12, 3, 'K', 0, 'e', 0, 'y', 0, 'b', 0, 'd', 0};

const UINT8 usb_test_hub_device[18] = {
    18, 1, 0x00, 0x02, 9, 0, 0, 64, 0x09, 0x04, 0x0a, 0x00, 0x01, 0x01, 0, 0, 0, 1,
};

const UINT8 usb_test_hub_config[25] = {
    9, 2, 25,	0, 1, 1, 0,    0xe0, 0, /* configuration 1, self-powered */
    9, 4, 0,	0, 1, 9, 0,    0,    0, /* interface 0: hub */
    7, 5, 0x81, 3, 1, 0, 0xff,		/* endpoint 1 IN, interrupt: the status change bitmap */
};

const UINT8 usb_test_hub_desc[9] = {
    9, 0x29, 4, 0x09, 0x00, 10, 0, 0x00, 0xff, /* 4 ports, 20 ms to power good */
};
