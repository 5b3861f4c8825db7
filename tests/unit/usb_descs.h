/* Descriptors of sample USB devices for the USB tests: a boot keyboard as QEMU's usb-kbd
 * describes itself, and builders of configurations. */
#ifndef EMBER_TEST_USB_DESCS_H
#define EMBER_TEST_USB_DESCS_H

#include <efi/types.h>

extern const UINT8 usb_test_kbd_device[18];
extern const UINT8 usb_test_kbd_config[34];	/* config, interface, HID, endpoint */
extern const UINT8 usb_test_storage_config[32]; /* one interface, two bulk endpoints */
extern const UINT8 usb_test_languages[4];
extern const UINT8 usb_test_product[12]; /* "Keybd" */

#endif
