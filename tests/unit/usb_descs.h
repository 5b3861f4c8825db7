/* Descriptors of sample USB devices for the USB tests: a boot keyboard as QEMU's usb-kbd
 * describes itself, a hub, and builders of configurations. */
#ifndef EMBER_TEST_USB_DESCS_H
#define EMBER_TEST_USB_DESCS_H

#include <efi/types.h>

extern const UINT8 usb_test_kbd_device[18];
extern const UINT8 usb_test_kbd_config[34];	/* config, interface, HID, endpoint */
extern const UINT8 usb_test_storage_config[32]; /* one interface, two bulk endpoints */
extern const UINT8 usb_test_languages[4];
extern const UINT8 usb_test_product[12]; /* "Keybd" */

/* A high-speed hub of four ports (device class 9, its hub class descriptor). */
extern const UINT8 usb_test_hub_device[18];
extern const UINT8 usb_test_hub_config[25];
extern const UINT8 usb_test_hub_desc[9];

#endif
