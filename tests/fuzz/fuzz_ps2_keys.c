/* Fuzzes the PS/2 scan code decoder (platform/qemu-x86_64/pure/ps2_keys.c, pure logic): any byte
 * stream from a keyboard gives only well-formed keys (a scan code or a character, with valid
 * states), at most one per byte, and the lights byte stays within the three lock bits. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include "../../platform/qemu-x86_64/pure/ps2_keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ps2_keys k;

	ps2_keys_init(&k);
	for (size_t i = 0; i < size; i++) {
		EFI_KEY_DATA key;
		UINT32 what = ps2_keys_feed(&k, data[i], &key);

		if (what & ~(UINT32)(PS2_KEY | PS2_LOCKS_CHANGED))
			abort();
		if ((what & PS2_KEY) &&
		    ((key.Key.ScanCode == SCAN_NULL) == (key.Key.UnicodeChar == 0) ||
		     !(key.KeyState.KeyShiftState & EFI_SHIFT_STATE_VALID) ||
		     !(key.KeyState.KeyToggleState & EFI_TOGGLE_STATE_VALID)))
			abort();
		if (ps2_keys_leds(&k) & ~7u)
			abort();
	}
	return 0;
}
