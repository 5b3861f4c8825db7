/* PS/2 scan code set 1 to UEFI keys (see ps2_keys.h). Make codes are 0x01-0x58,
 * a break code is its make code with bit 7 set; 0xe0 prefixes the keys the 101-key keyboard
 * added, and Pause sends e1 1d 45 e1 9d c5 with no break of its own. */
#include "ps2_keys.h"
#include <ember/lib/util.h>

#define BREAK 0x80
#define PAUSE_TAIL 5 /* bytes after the first 0xe1 */

/* Characters of the main block, make codes 0x00-0x39 (0: not a character key). */
static const char plain[] = "\0\0"
			    "1234567890-=\b\t"
			    "qwertyuiop[]\r\0"
			    "asdfghjkl;'`\0\\"
			    "zxcvbnm,./\0*\0 ";
static const char shifted[] = "\0\0"
			      "!@#$%^&*()_+\b\t"
			      "QWERTYUIOP{}\r\0"
			      "ASDFGHJKL:\"~\0|"
			      "ZXCVBNM<>?\0*\0 ";
_Static_assert(sizeof(plain) == 0x3a + 1 && sizeof(shifted) == 0x3a + 1, "main block 00-39");

/* The keypad 0x47-0x53: digits with Num Lock, else the keys printed below them. */
static const char keypad_chars[] = "789-456+1230.";
static const UINT16 keypad_scans[] = {
    SCAN_HOME, SCAN_UP,	 SCAN_PAGE_UP, SCAN_NULL,      SCAN_LEFT,   SCAN_NULL,	 SCAN_RIGHT,
    SCAN_NULL, SCAN_END, SCAN_DOWN,    SCAN_PAGE_DOWN, SCAN_INSERT, SCAN_DELETE,
};
_Static_assert(sizeof(keypad_scans) / sizeof(keypad_scans[0]) == 0x53 - 0x47 + 1, "47-53");

#define SHIFT (EFI_LEFT_SHIFT_PRESSED | EFI_RIGHT_SHIFT_PRESSED)
#define CONTROL (EFI_LEFT_CONTROL_PRESSED | EFI_RIGHT_CONTROL_PRESSED)

void ps2_keys_init(struct ps2_keys *k)
{
	*k = (struct ps2_keys){.toggle_state = 0};
}

UINT8 ps2_keys_leds(const struct ps2_keys *k)
{
	return (UINT8)((k->toggle_state & EFI_SCROLL_LOCK_ACTIVE ? 1 : 0) |
		       (k->toggle_state & EFI_NUM_LOCK_ACTIVE ? 2 : 0) |
		       (k->toggle_state & EFI_CAPS_LOCK_ACTIVE ? 4 : 0));
}

/* The shift-state bit of a modifier key, 0 for other keys. */
static UINT32 modifier_bit(UINT8 code, bool e0)
{
	if (!e0) {
		switch (code) {
		case 0x2a:
			return EFI_LEFT_SHIFT_PRESSED;
		case 0x36:
			return EFI_RIGHT_SHIFT_PRESSED;
		case 0x1d:
			return EFI_LEFT_CONTROL_PRESSED;
		case 0x38:
			return EFI_LEFT_ALT_PRESSED;
		default:
			return 0;
		}
	}
	switch (code) {
	case 0x1d:
		return EFI_RIGHT_CONTROL_PRESSED;
	case 0x38:
		return EFI_RIGHT_ALT_PRESSED;
	case 0x5b:
		return EFI_LEFT_LOGO_PRESSED;
	case 0x5c:
		return EFI_RIGHT_LOGO_PRESSED;
	case 0x5d:
		return EFI_MENU_KEY_PRESSED;
	case 0x37:
		return EFI_SYS_REQ_PRESSED; /* Print Screen / SysRq */
	default:
		return 0;
	}
}

/* The toggle bit of a lock key (never with 0xe0), 0 for other keys. */
static UINT8 lock_bit(UINT8 code, bool e0)
{
	if (e0)
		return 0;
	if (code == 0x3a)
		return EFI_CAPS_LOCK_ACTIVE;
	if (code == 0x45)
		return EFI_NUM_LOCK_ACTIVE;
	if (code == 0x46)
		return EFI_SCROLL_LOCK_ACTIVE;
	return 0;
}

static UINT16 function_scan(UINT8 code)
{
	if (code == 0x01)
		return SCAN_ESC;
	if (code >= 0x3b && code <= 0x44)
		return (UINT16)(SCAN_F1 + (code - 0x3b));
	if (code == 0x57)
		return SCAN_F11;
	if (code == 0x58)
		return SCAN_F12;
	return SCAN_NULL;
}

/* A character key of the main block, with Shift, Caps Lock and Ctrl applied. */
static CHAR16 main_char(const struct ps2_keys *k, UINT8 code)
{
	bool shift = k->shift_state & SHIFT;
	char c = shift ? shifted[code] : plain[code];

	if (c >= 'a' && c <= 'z' && (k->toggle_state & EFI_CAPS_LOCK_ACTIVE))
		c = shifted[code];
	else if (c >= 'A' && c <= 'Z' && (k->toggle_state & EFI_CAPS_LOCK_ACTIVE))
		c = plain[code];
	if ((k->shift_state & CONTROL) && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		c = (char)(c & 0x1f);
	return (CHAR16)(UINT8)c;
}

/* The keypad: digits with Num Lock (and no Shift), else the editing keys printed below
 * them; the gray editing keys (0xe0) are always editing keys. Keypad 5 without Num Lock is
 * no key. */
static void keypad_key(const struct ps2_keys *k, UINT8 code, bool e0, EFI_INPUT_KEY *key)
{
	UINT8 i = (UINT8)(code - 0x47);
	bool digits = !e0 && (k->toggle_state & EFI_NUM_LOCK_ACTIVE) && !(k->shift_state & SHIFT);

	if (keypad_scans[i] != SCAN_NULL && !digits)
		key->ScanCode = keypad_scans[i];
	else if (code != 0x4c || digits)
		key->UnicodeChar = (CHAR16)keypad_chars[i];
}

/* The key a make code stands for: a scan code or a character (both 0 for none). */
static void key_of(const struct ps2_keys *k, UINT8 code, bool e0, EFI_INPUT_KEY *key)
{
	*key = (EFI_INPUT_KEY){SCAN_NULL, 0};
	if (code >= 0x47 && code <= 0x53)
		keypad_key(k, code, e0, key);
	else if (e0)
		key->UnicodeChar = code == 0x1c ? CHAR_CARRIAGE_RETURN : code == 0x35 ? '/' : 0;
	else if (function_scan(code))
		key->ScanCode = function_scan(code);
	else if (code < sizeof(plain) - 1)
		key->UnicodeChar = main_char(k, code);
}

/* The state bits reported with each key. */
static void fill_state(const struct ps2_keys *k, EFI_KEY_DATA *key)
{
	key->KeyState.KeyShiftState = EFI_SHIFT_STATE_VALID | k->shift_state;
	key->KeyState.KeyToggleState = EFI_TOGGLE_STATE_VALID | k->toggle_state;
}

static UINT32 pause_byte(struct ps2_keys *k, EFI_KEY_DATA *key)
{
	if (--k->pause_left)
		return 0;
	*key = (EFI_KEY_DATA){{SCAN_PAUSE, 0}, {0, 0}};
	fill_state(k, key);
	return PS2_KEY;
}

/* A make or break code, after its prefix (if any) was taken. */
static UINT32 code_byte(struct ps2_keys *k, UINT8 byte, bool e0, EFI_KEY_DATA *key)
{
	UINT8 code = byte & ~BREAK;
	bool released = byte & BREAK;
	UINT32 modifier = modifier_bit(code, e0);
	UINT8 lock = lock_bit(code, e0);

	if (e0 && (code == 0x2a || code == 0x36))
		return 0; /* the fake shifts around Print Screen and the keypad keys */
	if (modifier) {
		k->shift_state = released ? k->shift_state & ~modifier : k->shift_state | modifier;
		return 0;
	}
	if (lock) {
		bool repeat = k->locks_held & lock;
		k->locks_held = released ? k->locks_held & ~lock : k->locks_held | lock;
		if (released || repeat)
			return 0;
		k->toggle_state ^= lock;
		return PS2_LOCKS_CHANGED;
	}
	if (released)
		return 0;
	key_of(k, code, e0, &key->Key);
	if (!key->Key.ScanCode && !key->Key.UnicodeChar)
		return 0;
	fill_state(k, key);
	return PS2_KEY;
}

UINT32 ps2_keys_feed(struct ps2_keys *k, UINT8 byte, EFI_KEY_DATA *key)
{
	UINT8 prefix = k->prefix;

	if (k->pause_left)
		return pause_byte(k, key);
	/* Replies to commands, not keys: ACK, resend, echo, buffer overrun, BAT failure. */
	if (byte == 0xfa || byte == 0xfe || byte == 0xee || byte == 0x00 || byte == 0xff ||
	    byte == 0xfc)
		return 0;
	if (byte == 0xe0) {
		k->prefix = byte;
		return 0;
	}
	if (byte == 0xe1) {
		k->prefix = 0;
		k->pause_left = PAUSE_TAIL;
		return 0;
	}
	k->prefix = 0;
	return code_byte(k, byte, prefix == 0xe0, key);
}
