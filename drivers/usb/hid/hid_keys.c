/* HID boot keyboard reports to UEFI keys (see hid_keys.h). */
#include "hid_keys.h"
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define USAGE_A 0x04
#define USAGE_Z 0x1d
#define USAGE_1 0x1e
#define USAGE_SPACE_BLOCK_END 0x38
#define USAGE_CAPS_LOCK 0x39
#define USAGE_F1 0x3a
#define USAGE_F12 0x45
#define USAGE_SCROLL_LOCK 0x47
#define USAGE_PAUSE 0x48
#define USAGE_NUM_LOCK 0x53
#define USAGE_KP_1 0x59
#define USAGE_KP_DOT 0x63
#define ROLLOVER 0x01

/* Usages 0x1e-0x38: digits, then Enter, Escape (0x29, a scan code), Backspace, Tab,
 * Space and the punctuation keys. */
static const char plain[] = "1234567890\r\x1b\b\t -=[]\\\\;'`,./";
static const char shifted[] = "!@#$%^&*()\r\x1b\b\t _+{}||:\"~<>?";
_Static_assert(sizeof(plain) == USAGE_SPACE_BLOCK_END - USAGE_1 + 2, "usages 1e-38");
_Static_assert(sizeof(shifted) == sizeof(plain), "usages 1e-38");

/* 0x49-0x52: the editing and arrow keys. */
static const UINT16 editing[] = {SCAN_INSERT,	 SCAN_HOME,  SCAN_PAGE_UP, SCAN_DELETE, SCAN_END,
				 SCAN_PAGE_DOWN, SCAN_RIGHT, SCAN_LEFT,	   SCAN_DOWN,	SCAN_UP};
/* 0x59-0x63: keypad 1-9, 0 and the dot, as digits or as the keys printed below them. */
static const char keypad_chars[] = "1234567890.";
static const UINT16 keypad_scans[] = {SCAN_END,	    SCAN_DOWN,	 SCAN_PAGE_DOWN, SCAN_LEFT,
				      SCAN_NULL,    SCAN_RIGHT,	 SCAN_HOME,	 SCAN_UP,
				      SCAN_PAGE_UP, SCAN_INSERT, SCAN_DELETE};
_Static_assert(ARRAY_SIZE(keypad_scans) == USAGE_KP_DOT - USAGE_KP_1 + 1, "usages 59-63");

/* The modifier byte's bits: left Ctrl, Shift, Alt, GUI, then the right ones. */
static const UINT32 modifiers[8] = {
    EFI_LEFT_CONTROL_PRESSED, EFI_LEFT_SHIFT_PRESSED,	 EFI_LEFT_ALT_PRESSED,
    EFI_LEFT_LOGO_PRESSED,    EFI_RIGHT_CONTROL_PRESSED, EFI_RIGHT_SHIFT_PRESSED,
    EFI_RIGHT_ALT_PRESSED,    EFI_RIGHT_LOGO_PRESSED,
};

#define SHIFT (EFI_LEFT_SHIFT_PRESSED | EFI_RIGHT_SHIFT_PRESSED)
#define CONTROL (EFI_LEFT_CONTROL_PRESSED | EFI_RIGHT_CONTROL_PRESSED)

void hid_keys_init(struct hid_keys *k)
{
	*k = (struct hid_keys){.shift_state = 0};
}

UINT8 hid_keys_leds(const struct hid_keys *k)
{
	return (UINT8)((k->toggle_state & EFI_NUM_LOCK_ACTIVE ? 1 : 0) |
		       (k->toggle_state & EFI_CAPS_LOCK_ACTIVE ? 2 : 0) |
		       (k->toggle_state & EFI_SCROLL_LOCK_ACTIVE ? 4 : 0));
}

static CHAR16 letter(const struct hid_keys *k, UINT8 usage)
{
	bool upper = !(k->shift_state & SHIFT) != !(k->toggle_state & EFI_CAPS_LOCK_ACTIVE);
	char c = (char)((upper ? 'A' : 'a') + (usage - USAGE_A));

	if (k->shift_state & CONTROL)
		c = (char)(c & 0x1f); /* Ctrl-C is 0x03, as a terminal sends it */
	return (CHAR16)c;
}

static void keypad(const struct hid_keys *k, UINT8 usage, EFI_INPUT_KEY *key)
{
	UINT8 i = (UINT8)(usage - USAGE_KP_1);
	bool digits = (k->toggle_state & EFI_NUM_LOCK_ACTIVE) && !(k->shift_state & SHIFT);

	if (digits || keypad_scans[i] == SCAN_NULL)
		key->UnicodeChar = digits ? (CHAR16)keypad_chars[i] : 0;
	else
		key->ScanCode = keypad_scans[i];
}

static void key_of(const struct hid_keys *k, UINT8 usage, EFI_INPUT_KEY *key)
{
	*key = (EFI_INPUT_KEY){SCAN_NULL, 0};
	if (usage >= USAGE_A && usage <= USAGE_Z)
		key->UnicodeChar = letter(k, usage);
	else if (usage == 0x29)
		key->ScanCode = SCAN_ESC;
	else if (usage >= USAGE_1 && usage <= USAGE_SPACE_BLOCK_END)
		key->UnicodeChar =
		    (CHAR16)(k->shift_state & SHIFT ? shifted : plain)[usage - USAGE_1];
	else if (usage >= USAGE_F1 && usage <= USAGE_F12)
		key->ScanCode = (UINT16)(SCAN_F1 + (usage - USAGE_F1));
	else if (usage == USAGE_PAUSE)
		key->ScanCode = SCAN_PAUSE;
	else if (usage >= 0x49 && usage <= 0x52)
		key->ScanCode = editing[usage - 0x49];
	else if (usage >= 0x54 && usage <= 0x57)
		key->UnicodeChar = (CHAR16) "/*-+"[usage - 0x54];
	else if (usage == 0x58)
		key->UnicodeChar = CHAR_CARRIAGE_RETURN;
	else if (usage >= USAGE_KP_1 && usage <= USAGE_KP_DOT)
		keypad(k, usage, key);
}

bool hid_keys_key(const struct hid_keys *k, UINT8 usage, EFI_KEY_DATA *key)
{
	key_of(k, usage, &key->Key);
	if (!key->Key.ScanCode && !key->Key.UnicodeChar)
		return false;
	key->KeyState.KeyShiftState = EFI_SHIFT_STATE_VALID | k->shift_state;
	key->KeyState.KeyToggleState = EFI_TOGGLE_STATE_VALID | k->toggle_state;
	return true;
}

static UINT8 lock_bit(UINT8 usage)
{
	if (usage == USAGE_CAPS_LOCK)
		return EFI_CAPS_LOCK_ACTIVE;
	if (usage == USAGE_NUM_LOCK)
		return EFI_NUM_LOCK_ACTIVE;
	return usage == USAGE_SCROLL_LOCK ? EFI_SCROLL_LOCK_ACTIVE : 0;
}

/* Whether usage is among the first n of list (a report naming a key twice). */
static bool mem_find(const UINT8 *list, UINTN n, UINT8 usage)
{
	for (UINTN i = 0; i < n; i++)
		if (list[i] == usage)
			return true;
	return false;
}

static bool was_down(const struct hid_keys *k, UINT8 usage)
{
	return mem_find(k->down, HID_KEYS_MAX, usage);
}

/* A usage newly pressed: a lock toggles, another key is stored and repeats. */
static UINT32 press(struct hid_keys *k, UINT8 usage, EFI_KEY_DATA *keys, UINTN max, UINTN *count)
{
	UINT8 lock = lock_bit(usage);

	if (lock) {
		k->toggle_state ^= lock;
		return HID_LOCKS_CHANGED;
	}
	if (*count >= max || !hid_keys_key(k, usage, &keys[*count]))
		return 0;
	(*count)++;
	k->repeat = usage;
	return HID_REPEAT_STARTED;
}

UINT32 hid_keys_report(struct hid_keys *k, const UINT8 *report, UINTN len, EFI_KEY_DATA *keys,
		       UINTN max, UINTN *count)
{
	UINT8 now[HID_KEYS_MAX] = {0};
	UINTN n = len < HID_BOOT_REPORT_SIZE ? len : HID_BOOT_REPORT_SIZE;
	UINT32 flags = 0;

	*count = 0;
	if (!report || n < 3 || report[2] == ROLLOVER)
		return 0;
	mem_copy(now, report + 2, n - 2);
	k->shift_state = 0;
	for (UINTN bit = 0; bit < 8; bit++)
		if (report[0] & (1u << bit))
			k->shift_state |= modifiers[bit];
	for (UINTN i = 0; i < HID_KEYS_MAX; i++)
		if (now[i] && !was_down(k, now[i]) && !mem_find(now, i, now[i]))
			flags |= press(k, now[i], keys, max, count);
	mem_copy(k->down, now, sizeof(now));
	if (k->repeat && !was_down(k, k->repeat))
		k->repeat = 0; /* the repeating key was let go */
	return flags;
}
