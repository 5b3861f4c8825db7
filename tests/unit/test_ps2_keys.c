/* The PS/2 scan code set 1 decoder (platform/qemu-x86_64/pure/ps2_keys.c). */
#include "support/test.h"
#include "../../platform/qemu-x86_64/pure/ps2_keys.h"
#include <ember/lib/util.h>

struct result {
	EFI_KEY_DATA key[16];
	UINT32 count, locks_changed;
};

static struct result feed(struct ps2_keys *k, const UINT8 *bytes, size_t n)
{
	struct result r = {0};

	for (size_t i = 0; i < n; i++) {
		EFI_KEY_DATA key;
		UINT32 what = ps2_keys_feed(k, bytes[i], &key);
		if ((what & PS2_KEY) && r.count < ARRAY_SIZE(r.key))
			r.key[r.count++] = key;
		if (what & PS2_LOCKS_CHANGED)
			r.locks_changed++;
	}
	return r;
}

#define FEED(k, ...) feed(k, (const UINT8[]){__VA_ARGS__}, sizeof((const UINT8[]){__VA_ARGS__}))

static bool is_char(const EFI_KEY_DATA *key, CHAR16 c)
{
	return key->Key.ScanCode == SCAN_NULL && key->Key.UnicodeChar == c;
}

static bool is_scan(const EFI_KEY_DATA *key, UINT16 scan)
{
	return key->Key.ScanCode == scan && key->Key.UnicodeChar == 0;
}

TEST(ps2_letters_digits_and_breaks)
{
	struct ps2_keys k;
	struct result r;

	ps2_keys_init(&k);
	/* a down, a up, 1 down, 1 up, Enter, Space, Tab, Backspace */
	r = FEED(&k, 0x1e, 0x9e, 0x02, 0x82, 0x1c, 0x39, 0x0f, 0x0e);
	ASSERT_EQ(r.count, 6);
	EXPECT(is_char(&r.key[0], 'a'));
	EXPECT(is_char(&r.key[1], '1'));
	EXPECT(is_char(&r.key[2], CHAR_CARRIAGE_RETURN));
	EXPECT(is_char(&r.key[3], ' '));
	EXPECT(is_char(&r.key[4], CHAR_TAB));
	EXPECT(is_char(&r.key[5], CHAR_BACKSPACE));
	EXPECT_EQ(r.key[0].KeyState.KeyShiftState, EFI_SHIFT_STATE_VALID);
	EXPECT_EQ(r.key[0].KeyState.KeyToggleState, EFI_TOGGLE_STATE_VALID);
}

TEST(ps2_shift_ctrl_and_caps_lock)
{
	struct ps2_keys k;
	struct result r;

	ps2_keys_init(&k);
	/* Shift+a, Shift+1, Shift up, Ctrl+c, Ctrl up, right Ctrl (e0 1d) + a */
	r = FEED(&k, 0x2a, 0x1e, 0x02, 0xaa, 0x1d, 0x2e, 0x9d, 0xe0, 0x1d, 0x1e, 0xe0, 0x9d);
	ASSERT_EQ(r.count, 4);
	EXPECT(is_char(&r.key[0], 'A'));
	EXPECT_EQ(r.key[0].KeyState.KeyShiftState, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
	EXPECT(is_char(&r.key[1], '!'));
	EXPECT(is_char(&r.key[2], 0x03));
	EXPECT_EQ(r.key[2].KeyState.KeyShiftState,
		  EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED);
	EXPECT(is_char(&r.key[3], 0x01));
	EXPECT_EQ(r.key[3].KeyState.KeyShiftState,
		  EFI_SHIFT_STATE_VALID | EFI_RIGHT_CONTROL_PRESSED);

	/* Caps Lock toggles once however long it is held; Shift undoes it for letters only. */
	r = FEED(&k, 0x3a, 0x3a, 0x3a, 0xba, 0x1e, 0x02, 0x36, 0x1e, 0xb6);
	EXPECT_EQ(r.locks_changed, 1);
	ASSERT_EQ(r.count, 3);
	EXPECT(is_char(&r.key[0], 'A'));
	EXPECT(is_char(&r.key[1], '1'));
	EXPECT(is_char(&r.key[2], 'a'));
	EXPECT_EQ(r.key[0].KeyState.KeyToggleState, EFI_TOGGLE_STATE_VALID | EFI_CAPS_LOCK_ACTIVE);
	EXPECT_EQ(ps2_keys_leds(&k), 4);
}

TEST(ps2_extended_and_function_keys)
{
	static const struct {
		UINT8 code;
		UINT16 scan;
	} gray[] = {
	    {0x48, SCAN_UP},	 {0x50, SCAN_DOWN},   {0x4b, SCAN_LEFT},    {0x4d, SCAN_RIGHT},
	    {0x47, SCAN_HOME},	 {0x4f, SCAN_END},    {0x49, SCAN_PAGE_UP}, {0x51, SCAN_PAGE_DOWN},
	    {0x52, SCAN_INSERT}, {0x53, SCAN_DELETE},
	};
	struct ps2_keys k;
	struct result r;

	ps2_keys_init(&k);
	for (size_t i = 0; i < ARRAY_SIZE(gray); i++) {
		r = FEED(&k, 0xe0, gray[i].code, 0xe0, (UINT8)(gray[i].code | 0x80));
		ASSERT_EQ(r.count, 1);
		EXPECT(is_scan(&r.key[0], gray[i].scan));
	}
	r = FEED(&k, 0x01, 0x3b, 0x44, 0x57, 0x58, 0xe0, 0x1c, 0xe0, 0x35);
	ASSERT_EQ(r.count, 7);
	EXPECT(is_scan(&r.key[0], SCAN_ESC));
	EXPECT(is_scan(&r.key[1], SCAN_F1));
	EXPECT(is_scan(&r.key[2], SCAN_F10));
	EXPECT(is_scan(&r.key[3], SCAN_F11));
	EXPECT(is_scan(&r.key[4], SCAN_F12));
	EXPECT(is_char(&r.key[5], CHAR_CARRIAGE_RETURN));
	EXPECT(is_char(&r.key[6], '/'));
}

TEST(ps2_keypad_follows_num_lock)
{
	struct ps2_keys k;
	struct result r;

	ps2_keys_init(&k);
	r = FEED(&k, 0x48, 0x4c, 0x4a, 0x45, 0xc5, 0x48, 0x4c, 0x53);
	EXPECT_EQ(r.locks_changed, 1);
	ASSERT_EQ(r.count, 5);
	EXPECT(is_scan(&r.key[0], SCAN_UP)); /* keypad 5 without Num Lock is nothing */
	EXPECT(is_char(&r.key[1], '-'));
	EXPECT(is_char(&r.key[2], '8'));
	EXPECT(is_char(&r.key[3], '5'));
	EXPECT(is_char(&r.key[4], '.'));
	EXPECT_EQ(ps2_keys_leds(&k), 2);
}

TEST(ps2_pause_replies_and_fake_shifts)
{
	struct ps2_keys k;
	struct result r;

	ps2_keys_init(&k);
	/* ACK, Pause, Print Screen with its fake shift (e0 2a e0 37), then x */
	r = FEED(&k, 0xfa, 0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5, 0xe0, 0x2a, 0xe0, 0x37, 0x2d);
	ASSERT_EQ(r.count, 2);
	EXPECT(is_scan(&r.key[0], SCAN_PAUSE));
	EXPECT(is_char(&r.key[1], 'x'));
	EXPECT_EQ(r.key[1].KeyState.KeyShiftState, EFI_SHIFT_STATE_VALID | EFI_SYS_REQ_PRESSED);
}
