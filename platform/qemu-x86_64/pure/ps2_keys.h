/* PS/2 keyboard decoding: scan code set 1 bytes (what an i8042 delivers with translation
 * on) to UEFI keys, with the modifier and lock states. Pure logic, US layout. */
#ifndef EMBER_PS2_KEYS_H
#define EMBER_PS2_KEYS_H

#include <stdbool.h>
#include <efi/protocol/simple_text_input_ex.h>

struct ps2_keys {
	UINT8 prefix;	    /* 0xe0 while a two-byte code is read, else 0 */
	UINT8 pause_left;   /* bytes of the Pause sequence still to come */
	UINT32 shift_state; /* EFI_*_PRESSED bits of the modifiers held down */
	UINT8 toggle_state; /* EFI_*_LOCK_ACTIVE bits */
	UINT8 locks_held;   /* lock keys held down (their repeats toggle nothing) */
};

/* What one byte did. */
#define PS2_KEY 0x1	      /* *key holds a key press */
#define PS2_LOCKS_CHANGED 0x2 /* a lock key toggled: the keyboard lights should follow */

void ps2_keys_init(struct ps2_keys *k);

/* Feeds one byte from the keyboard; returns PS2_* flags. Keys carry the shift and toggle
 * states (both marked valid); Ctrl with a letter gives its control code (Ctrl-C is 0x03),
 * as a terminal does. Keyboard replies (ACK, resend, errors) are ignored. */
UINT32 ps2_keys_feed(struct ps2_keys *k, UINT8 byte, EFI_KEY_DATA *key);

/* The lights byte of the Set LEDs command (0xED) for the lock states. */
UINT8 ps2_keys_leds(const struct ps2_keys *k);

#endif
