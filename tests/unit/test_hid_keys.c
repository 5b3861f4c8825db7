/* The HID boot keyboard's reports to UEFI keys (drivers/usb/hid/hid_keys.c): presses,
 * releases, modifiers, locks and their lights, the key that repeats, and reports that are
 * short, repeat a usage or signal rollover. */
#include <string.h>

#include "support/test.h"
#include "../../drivers/usb/hid/hid_keys.h"

static UINTN feed(struct hid_keys *k, const UINT8 *report, UINTN len, EFI_KEY_DATA *keys,
		  UINT32 *flags)
{
	UINTN n = 0;

	*flags = hid_keys_report(k, report, len, keys, HID_KEYS_MAX, &n);
	return n;
}

TEST(hid_keys_letters_shift_and_release)
{
	struct hid_keys k;
	EFI_KEY_DATA keys[HID_KEYS_MAX];
	UINT32 flags;

	hid_keys_init(&k);
	ASSERT_EQ(feed(&k, (const UINT8[]){0, 0, 0x04, 0, 0, 0, 0, 0}, 8, keys, &flags), 1);
	EXPECT_EQ(keys[0].Key.UnicodeChar, 'a');
	EXPECT(flags & HID_REPEAT_STARTED);
	EXPECT_EQ(k.repeat, 0x04);
	/* Still held: no new key. Then Left Shift and b: 'B' with the shift state. */
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0x04, 0, 0, 0, 0, 0}, 8, keys, &flags), 0);
	ASSERT_EQ(feed(&k, (const UINT8[]){0x02, 0, 0x04, 0x05, 0, 0, 0, 0}, 8, keys, &flags), 1);
	EXPECT_EQ(keys[0].Key.UnicodeChar, 'B');
	EXPECT_EQ(keys[0].KeyState.KeyShiftState, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
	EXPECT_EQ(k.repeat, 0x05);
	/* Everything let go: nothing repeats. */
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0, 0, 0, 0, 0, 0}, 8, keys, &flags), 0);
	EXPECT_EQ(k.repeat, 0);
}

TEST(hid_keys_special_keys)
{
	static const struct {
		UINT8 usage, modifiers;
		UINT16 scan;
		CHAR16 ch;
	} cases[] = {
	    {0x28, 0, 0, '\r'},	    {0x29, 0, SCAN_ESC, 0}, {0x2a, 0, 0, '\b'},
	    {0x2b, 0, 0, '\t'},	    {0x2c, 0, 0, ' '},	    {0x1e, 2, 0, '!'},
	    {0x27, 0, 0, '0'},	    {0x38, 2, 0, '?'},	    {0x3a, 0, SCAN_F1, 0},
	    {0x45, 0, SCAN_F12, 0}, {0x52, 0, SCAN_UP, 0},  {0x4c, 0, SCAN_DELETE, 0},
	    {0x06, 1, 0, 0x03},	    {0x59, 0, SCAN_END, 0}, {0x48, 0, SCAN_PAUSE, 0},
	    {0x58, 0, 0, '\r'},
	};

	for (UINTN i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hid_keys k;
		EFI_KEY_DATA keys[HID_KEYS_MAX];
		UINT32 flags;
		UINT8 report[8] = {cases[i].modifiers, 0, cases[i].usage};

		hid_keys_init(&k);
		ASSERT_EQ(feed(&k, report, 8, keys, &flags), 1);
		EXPECT_EQ(keys[0].Key.ScanCode, cases[i].scan);
		EXPECT_EQ(keys[0].Key.UnicodeChar, cases[i].ch);
	}
}

TEST(hid_keys_locks_toggle_once_and_light)
{
	struct hid_keys k;
	EFI_KEY_DATA keys[HID_KEYS_MAX];
	UINT32 flags;

	hid_keys_init(&k);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0x39, 0, 0, 0, 0, 0}, 8, keys, &flags), 0);
	EXPECT(flags & HID_LOCKS_CHANGED);
	EXPECT_EQ(hid_keys_leds(&k), 2);
	/* Held: no second toggle. Released, then 'a' is 'A'; with Shift 'a'. */
	feed(&k, (const UINT8[]){0, 0, 0x39, 0, 0, 0, 0, 0}, 8, keys, &flags);
	EXPECT_EQ(flags, 0);
	feed(&k, (const UINT8[]){0, 0, 0, 0, 0, 0, 0, 0}, 8, keys, &flags);
	ASSERT_EQ(feed(&k, (const UINT8[]){0, 0, 0x04, 0, 0, 0, 0, 0}, 8, keys, &flags), 1);
	EXPECT_EQ(keys[0].Key.UnicodeChar, 'A');
	EXPECT_EQ(keys[0].KeyState.KeyToggleState, EFI_TOGGLE_STATE_VALID | EFI_CAPS_LOCK_ACTIVE);
	ASSERT_EQ(feed(&k, (const UINT8[]){0x20, 0, 0x04, 0x05, 0, 0, 0, 0}, 8, keys, &flags), 1);
	EXPECT_EQ(keys[0].Key.UnicodeChar, 'b');
	/* Num Lock: the keypad gives digits. */
	feed(&k, (const UINT8[]){0, 0, 0x53, 0, 0, 0, 0, 0}, 8, keys, &flags);
	EXPECT_EQ(hid_keys_leds(&k), 3);
	ASSERT_EQ(feed(&k, (const UINT8[]){0, 0, 0x59, 0, 0, 0, 0, 0}, 8, keys, &flags), 1);
	EXPECT_EQ(keys[0].Key.UnicodeChar, '1');
}

TEST(hid_keys_odd_reports)
{
	struct hid_keys k;
	EFI_KEY_DATA keys[HID_KEYS_MAX];
	UINT32 flags;

	hid_keys_init(&k);
	/* Too short to hold a key; rollover error; a usage named twice counts once. */
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0}, 2, keys, &flags), 0);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 1, 1, 1, 1, 1, 1}, 8, keys, &flags), 0);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0x04, 0x04, 0, 0, 0, 0}, 8, keys, &flags), 1);
	/* A 3-byte report holds one key; longer reports are read as 8 bytes. */
	hid_keys_init(&k);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0x05}, 3, keys, &flags), 1);
	hid_keys_init(&k);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0x05, 0x06, 0, 0, 0, 0, 0x07}, 9, keys, &flags),
		  2);
	/* Unknown usages give nothing; all six new keys fit in the room given. */
	hid_keys_init(&k);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 0xa5, 0, 0, 0, 0, 0}, 8, keys, &flags), 0);
	EXPECT_EQ(feed(&k, (const UINT8[]){0, 0, 4, 5, 6, 7, 8, 9}, 8, keys, &flags), 6);
}
