/* USB HID boot keyboard reports (HID 1.11, appendix B.1; usages from the HID Usage Tables,
 * Keyboard/Keypad page 0x07) to UEFI keys, with the modifier and lock states and the key
 * to repeat. Pure logic, US layout: reports are outside data, taken only as long as they
 * are. */
#ifndef EMBER_HID_KEYS_H
#define EMBER_HID_KEYS_H

#include <stdbool.h>
#include <efi/protocol/simple_text_input_ex.h>

#define HID_BOOT_REPORT_SIZE 8
#define HID_KEYS_MAX 6

struct hid_keys {
	UINT8 down[HID_KEYS_MAX]; /* usages held in the last report */
	UINT32 shift_state;	  /* EFI_*_PRESSED bits */
	UINT8 toggle_state;	  /* EFI_*_LOCK_ACTIVE bits */
	UINT8 repeat;		  /* the usage that repeats while held, 0 for none */
};

/* What a report did. */
#define HID_LOCKS_CHANGED 0x1  /* the lights should follow toggle_state */
#define HID_REPEAT_STARTED 0x2 /* a new key repeats from now */

void hid_keys_init(struct hid_keys *k);

/* Takes a report of len bytes; stores the keys newly pressed (at most max) in keys and
 * their number in *count; returns HID_* flags. A report shorter than 3 bytes, or the
 * keyboard's rollover error (usages of 0x01), changes nothing. */
UINT32 hid_keys_report(struct hid_keys *k, const UINT8 *report, UINTN len, EFI_KEY_DATA *keys,
		       UINTN max, UINTN *count);

/* The key a usage gives in the current states; false for none (modifiers, locks,
 * unknown usages). */
bool hid_keys_key(const struct hid_keys *k, UINT8 usage, EFI_KEY_DATA *key);

/* The LED output report's byte (Num 1, Caps 2, Scroll 4). */
UINT8 hid_keys_leds(const struct hid_keys *k);

#endif
