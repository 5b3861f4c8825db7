/* The text input library (drivers/text_input, include/ember/drivers/text_input.h) over a
 * fake keyboard: SimpleTextIn and SimpleTextInEx share one queue (UEFI 2.10 12.2, 12.3);
 * Reset empties it; SetState needs EFI_TOGGLE_STATE_VALID and marks the keys that follow;
 * WaitForKey is signalled once a key is there; key notifications (12.2.5) run at
 * TPL_CALLBACK without taking the key, while a timer watches the device. */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/lib/term_keys.h>
#include <ember/drivers/text_input.h>

/* A keyboard whose typed keys wait in `typed` until the library polls it; with `delay`
 * they arrive only at that many polls from now. */
struct fake_keyboard {
	struct text_input ti;
	EFI_KEY_DATA typed[80];
	unsigned ntyped, polls, delay, resets;
	bool last_reset_extended;
	EFI_STATUS reset_status, set_state_status;
	EFI_KEY_TOGGLE_STATE lights;
};

static void kb_poll(struct text_input *ti)
{
	struct fake_keyboard *kb = container_of(ti, struct fake_keyboard, ti);

	kb->polls++;
	if (kb->delay && --kb->delay)
		return;
	for (unsigned i = 0; i < kb->ntyped; i++)
		text_input_push(ti, &kb->typed[i]);
	kb->ntyped = 0;
}

static EFI_STATUS kb_reset(struct text_input *ti, bool extended)
{
	struct fake_keyboard *kb = container_of(ti, struct fake_keyboard, ti);

	kb->resets++;
	kb->last_reset_extended = extended;
	return kb->reset_status;
}

static EFI_STATUS kb_set_state(struct text_input *ti, EFI_KEY_TOGGLE_STATE state)
{
	struct fake_keyboard *kb = container_of(ti, struct fake_keyboard, ti);

	if (EFI_ERROR(kb->set_state_status))
		return kb->set_state_status;
	kb->lights = state;
	return EFI_SUCCESS;
}

static const struct text_input_ops kb_ops = {kb_poll, kb_reset, kb_set_state};
static const struct text_input_ops poll_only_ops = {kb_poll};

static void type_key(struct fake_keyboard *kb, UINT16 scan, CHAR16 c, UINT32 shift)
{
	kb->typed[kb->ntyped++] = (EFI_KEY_DATA){{scan, c}, {shift, 0}};
}

static void start(struct fake_keyboard *kb, const struct text_input_ops *ops, bool poll_always)
{
	memset(kb, 0, sizeof(*kb));
	ASSERT_STATUS(text_input_init(&kb->ti, ops, poll_always), EFI_SUCCESS);
}

TEST(text_input_reads_keys_in_order_through_both_protocols)
{
	struct fake_keyboard kb;
	EFI_INPUT_KEY key;
	EFI_KEY_DATA data;

	start(&kb, &kb_ops, false);
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = &kb.ti.in;
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex = &kb.ti.in_ex;
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	EXPECT_STATUS(ex->ReadKeyStrokeEx(ex, &data), EFI_NOT_READY);
	type_key(&kb, 0, 'a', 0);
	type_key(&kb, SCAN_UP, 0, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
	type_key(&kb, 0, 'b', 0);
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT(key.ScanCode == 0 && key.UnicodeChar == 'a');
	EXPECT_STATUS(ex->ReadKeyStrokeEx(ex, &data), EFI_SUCCESS);
	EXPECT(data.Key.ScanCode == SCAN_UP &&
	       data.KeyState.KeyShiftState == (EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED));
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'b');
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	/* Arguments: ours only, with somewhere to put the key. */
	EXPECT_STATUS(in->ReadKeyStroke(in, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->ReadKeyStrokeEx(ex, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(in->ReadKeyStroke(NULL, &key), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(in->Reset(NULL, FALSE), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->Reset(NULL, FALSE), EFI_INVALID_PARAMETER);
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL foreign = *ex;
	EXPECT_STATUS(ex->ReadKeyStrokeEx(&foreign, &data), EFI_INVALID_PARAMETER);
	EXPECT(text_input_from_in(NULL) == NULL && text_input_from_in_ex(NULL) == NULL);
	text_input_fini(&kb.ti);
}

TEST(text_input_queue_drops_keys_when_full)
{
	struct fake_keyboard kb;
	EFI_INPUT_KEY key;

	start(&kb, &kb_ops, false);
	EXPECT_EQ(text_input_room(&kb.ti), TEXT_INPUT_QUEUE_SIZE);
	for (unsigned i = 0; i < TEXT_INPUT_QUEUE_SIZE + 3; i++)
		type_key(&kb, 0, (CHAR16)('0' + i), 0);
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, '0');
	EXPECT_EQ(text_input_room(&kb.ti), 1);
	unsigned n = 1;
	while (!EFI_ERROR(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key)))
		n++;
	EXPECT_EQ(n, TEXT_INPUT_QUEUE_SIZE); /* the three past the queue's end were dropped */
	EXPECT_EQ(key.UnicodeChar, '0' + TEXT_INPUT_QUEUE_SIZE - 1);
	text_input_fini(&kb.ti);
}

TEST(text_input_reset_empties_the_queue)
{
	struct fake_keyboard kb;
	EFI_INPUT_KEY key;

	start(&kb, &kb_ops, false);
	type_key(&kb, 0, 'x', 0);
	kb_poll(&kb.ti); /* the key is queued */
	EXPECT_STATUS(kb.ti.in.Reset(&kb.ti.in, TRUE), EFI_SUCCESS);
	EXPECT(kb.resets == 1 && kb.last_reset_extended);
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_NOT_READY);
	/* The device's error comes back; the Ex reset is the same reset. */
	kb.reset_status = EFI_DEVICE_ERROR;
	EXPECT_STATUS(kb.ti.in_ex.Reset(&kb.ti.in_ex, FALSE), EFI_DEVICE_ERROR);
	EXPECT(kb.resets == 2 && !kb.last_reset_extended);
	/* Input fed ahead of time survives a reset when the device asks for that. */
	kb.reset_status = EFI_SUCCESS;
	kb.ti.reset_keeps_keys = true;
	type_key(&kb, 0, 'y', 0);
	kb_poll(&kb.ti);
	EXPECT_STATUS(kb.ti.in_ex.Reset(&kb.ti.in_ex, FALSE), EFI_SUCCESS);
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'y');
	text_input_fini(&kb.ti);

	/* A device without a reset of its own. */
	start(&kb, &poll_only_ops, false);
	EXPECT_STATUS(kb.ti.in.Reset(&kb.ti.in, TRUE), EFI_SUCCESS);
	text_input_fini(&kb.ti);
}

TEST(text_input_set_state_marks_the_keys_that_follow)
{
	struct fake_keyboard kb;
	EFI_KEY_DATA data;
	EFI_KEY_TOGGLE_STATE state;
	struct term_key caps_a = {0, 'A', 0};

	start(&kb, &kb_ops, false);
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex = &kb.ti.in_ex;
	EXPECT_STATUS(ex->SetState(ex, NULL), EFI_INVALID_PARAMETER);
	state = EFI_CAPS_LOCK_ACTIVE; /* without EFI_TOGGLE_STATE_VALID */
	EXPECT_STATUS(ex->SetState(ex, &state), EFI_UNSUPPORTED);
	EXPECT_EQ(kb.lights, 0);
	/* Undefined bits are not passed on. */
	state = EFI_TOGGLE_STATE_VALID | EFI_CAPS_LOCK_ACTIVE | EFI_KEY_STATE_EXPOSED | 0x30;
	EXPECT_STATUS(ex->SetState(ex, &state), EFI_SUCCESS);
	EXPECT_EQ(kb.lights, EFI_TOGGLE_STATE_VALID | EFI_CAPS_LOCK_ACTIVE | EFI_KEY_STATE_EXPOSED);
	text_input_push_term_keys(&kb.ti, &caps_a, 1);
	EXPECT_STATUS(ex->ReadKeyStrokeEx(ex, &data), EFI_SUCCESS);
	EXPECT(data.Key.UnicodeChar == 'A' &&
	       data.KeyState.KeyToggleState ==
		   (EFI_TOGGLE_STATE_VALID | EFI_CAPS_LOCK_ACTIVE | EFI_KEY_STATE_EXPOSED));
	/* A device that cannot set its lights keeps the old state. */
	kb.set_state_status = EFI_DEVICE_ERROR;
	state = EFI_TOGGLE_STATE_VALID | EFI_NUM_LOCK_ACTIVE;
	EXPECT_STATUS(ex->SetState(ex, &state), EFI_DEVICE_ERROR);
	text_input_push_term_keys(&kb.ti, &caps_a, 1);
	EXPECT_STATUS(ex->ReadKeyStrokeEx(ex, &data), EFI_SUCCESS);
	EXPECT(data.KeyState.KeyToggleState & EFI_CAPS_LOCK_ACTIVE);
	EXPECT_STATUS(ex->SetState(NULL, &state), EFI_INVALID_PARAMETER);
	text_input_fini(&kb.ti);
	/* A device with no lights takes any valid state. */
	start(&kb, &poll_only_ops, false);
	state = EFI_TOGGLE_STATE_VALID | EFI_NUM_LOCK_ACTIVE;
	EXPECT_STATUS(kb.ti.in_ex.SetState(&kb.ti.in_ex, &state), EFI_SUCCESS);
	EXPECT_EQ(kb.ti.toggle_state, state);
	text_input_fini(&kb.ti);
}

TEST(text_input_wait_for_key_signals_once_a_key_is_there)
{
	struct fake_keyboard kb;
	EFI_INPUT_KEY key;
	UINTN index = 9;

	start(&kb, &kb_ops, false);
	EXPECT_STATUS(event_check(kb.ti.in.WaitForKey), EFI_NOT_READY);
	EXPECT_STATUS(event_check(kb.ti.in_ex.WaitForKeyEx), EFI_NOT_READY);
	type_key(&kb, 0, 'k', 0);
	EXPECT_STATUS(event_check(kb.ti.in_ex.WaitForKeyEx), EFI_SUCCESS);
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_STATUS(event_check(kb.ti.in.WaitForKey), EFI_NOT_READY);
	/* WaitForEvent: the key arrives at the fourth look. */
	type_key(&kb, 0, 'w', 0);
	kb.delay = 4;
	unsigned polls = kb.polls;
	EFI_EVENT events[] = {kb.ti.in.WaitForKey};
	EXPECT_STATUS(event_wait(1, events, &index), EFI_SUCCESS);
	EXPECT_EQ(index, 0);
	EXPECT(kb.polls - polls >= 4);
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'w');
	text_input_fini(&kb.ti);
}

/* ---- Key notifications ---- */

static unsigned ctrl_c_calls, f1_calls, any_a_calls;
static EFI_TPL notify_tpl;
static EFI_KEY_DATA notified;
static struct fake_keyboard *self_unregistering;
static void *self_handle;

static EFI_STATUS EFIAPI on_ctrl_c(EFI_KEY_DATA *key)
{
	ctrl_c_calls++;
	notify_tpl = tpl_current();
	notified = *key;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI on_f1(EFI_KEY_DATA *key)
{
	f1_calls++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI on_a_once(EFI_KEY_DATA *key)
{
	any_a_calls++;
	/* A notification may unregister itself. */
	self_unregistering->ti.in_ex.UnregisterKeyNotify(&self_unregistering->ti.in_ex,
							 self_handle);
	return EFI_SUCCESS;
}

TEST(text_input_key_notifications_run_at_callback_and_keep_the_key)
{
	struct fake_keyboard kb;
	EFI_KEY_DATA ctrl_c = {{0, 'c'}, {EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED, 0}};
	EFI_KEY_DATA f1 = {{SCAN_F1, 0}, {0, EFI_TOGGLE_STATE_VALID}};
	void *h1, *h2, *h3;
	EFI_INPUT_KEY key;

	start(&kb, &kb_ops, false);
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex = &kb.ti.in_ex;
	EXPECT_STATUS(ex->RegisterKeyNotify(ex, NULL, on_ctrl_c, &h1), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->RegisterKeyNotify(ex, &ctrl_c, NULL, &h1), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->RegisterKeyNotify(ex, &ctrl_c, on_ctrl_c, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->RegisterKeyNotify(ex, &ctrl_c, on_ctrl_c, &h1), EFI_SUCCESS);
	/* The same key and function again: the same registration. */
	EXPECT_STATUS(ex->RegisterKeyNotify(ex, &ctrl_c, on_ctrl_c, &h2), EFI_SUCCESS);
	EXPECT(h1 == h2);
	/* F1 only while the toggle state is exactly "none". */
	EXPECT_STATUS(ex->RegisterKeyNotify(ex, &f1, on_f1, &h3), EFI_SUCCESS);

	/* Ctrl-C from the right Ctrl key, as a control code: it matches. Nobody reads, yet
	 * the timer polls the keyboard while notifications are registered. */
	ctrl_c_calls = f1_calls = 0;
	type_key(&kb, 0, 3, EFI_SHIFT_STATE_VALID | EFI_RIGHT_CONTROL_PRESSED);
	type_key(&kb, 0, 'c', EFI_SHIFT_STATE_VALID); /* plain c: no */
	test_advance_time_ns(10 * 1000 * 1000);
	EXPECT_EQ(ctrl_c_calls, 1);
	EXPECT_EQ(notify_tpl, TPL_CALLBACK);
	EXPECT_EQ(notified.Key.UnicodeChar, 3);
	/* The keys stay in the queue for whoever reads. */
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 3);
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.UnicodeChar, 'c');

	/* F1 with Caps Lock on is another key for that registration. */
	EFI_KEY_TOGGLE_STATE caps = EFI_TOGGLE_STATE_VALID | EFI_CAPS_LOCK_ACTIVE;
	kb.typed[kb.ntyped++] = (EFI_KEY_DATA){{SCAN_F1, 0}, {0, caps}};
	kb.typed[kb.ntyped++] = (EFI_KEY_DATA){{SCAN_F1, 0}, {0, EFI_TOGGLE_STATE_VALID}};
	EXPECT_STATUS(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key), EFI_SUCCESS);
	EXPECT_EQ(f1_calls, 1);

	/* Unregistered: no more calls, and the handle is no longer one. */
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, h1), EFI_SUCCESS);
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, h1), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, &kb), EFI_INVALID_PARAMETER);
	type_key(&kb, 0, 3, EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED);
	test_advance_time_ns(10 * 1000 * 1000);
	EXPECT_EQ(ctrl_c_calls, 1);
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, h3), EFI_SUCCESS);
	/* With no registration left nothing polls the keyboard any more. */
	unsigned polls = kb.polls;
	test_advance_time_ns(50 * 1000 * 1000);
	EXPECT_EQ(kb.polls, polls);
	text_input_fini(&kb.ti);
}

TEST(text_input_notification_may_unregister_itself)
{
	struct fake_keyboard kb;
	EFI_KEY_DATA ctrl_a = {{0, 'A'}, {EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED, 0}};
	EFI_KEY_DATA plain_a = {{0, 'a'}, {0, 0}};
	void *kept;
	EFI_INPUT_KEY key;

	start(&kb, &kb_ops, true);
	self_unregistering = &kb;
	any_a_calls = 0;
	/* An upper-case letter with Ctrl names the same control code (Ctrl-A is 1). */
	ASSERT_STATUS(kb.ti.in_ex.RegisterKeyNotify(&kb.ti.in_ex, &ctrl_a, on_a_once, &self_handle),
		      EFI_SUCCESS);
	ASSERT_STATUS(kb.ti.in_ex.RegisterKeyNotify(&kb.ti.in_ex, &plain_a, on_f1, &kept),
		      EFI_SUCCESS);
	type_key(&kb, 0, 1, EFI_SHIFT_STATE_VALID | EFI_RIGHT_CONTROL_PRESSED);
	type_key(&kb, 0, 1, EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED);
	test_advance_time_ns(10 * 1000 * 1000);
	EXPECT_EQ(any_a_calls, 1);
	/* A registration without a valid shift state matches the key in any shift state. */
	f1_calls = 0;
	type_key(&kb, 0, 'a', EFI_SHIFT_STATE_VALID | EFI_LEFT_ALT_PRESSED);
	test_advance_time_ns(10 * 1000 * 1000);
	EXPECT_EQ(f1_calls, 1);
	while (!EFI_ERROR(kb.ti.in.ReadKeyStroke(&kb.ti.in, &key)))
		;
	/* Stopping the device frees what is still registered. */
	EXPECT(kb.ti.notifies != NULL);
	text_input_fini(&kb.ti);
	EXPECT(kb.ti.notifies == NULL);
}

TEST(text_input_always_polled_devices_are_watched_by_the_timer)
{
	struct fake_keyboard kb;

	start(&kb, &poll_only_ops, true);
	unsigned polls = kb.polls;
	for (int i = 0; i < 3; i++)
		test_advance_time_ns(10 * 1000 * 1000);
	EXPECT(kb.polls >= polls + 2);
	text_input_fini(&kb.ti);
	polls = kb.polls;
	for (int i = 0; i < 3; i++)
		test_advance_time_ns(10 * 1000 * 1000);
	EXPECT_EQ(kb.polls, polls);
}
