/* Key notifications of a text input device (UEFI 2.10, 12.2.5 RegisterKeyNotify and
 * 12.2.6 UnregisterKeyNotify): registrations, matching, and the calls at TPL_CALLBACK. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/drivers/text_input.h>
#include "text_input_internal.h"

#define NOTIFY_SIGNATURE SIGNATURE_32('t', 'i', 'n', 'f')
#define NOTIFY_CALLS_MAX 16

/* Left and right count as one modifier: a terminal cannot tell them apart, and a
 * registration for "Ctrl" should not care which Ctrl key was used. */
static bool shift_folded_equal(UINT32 a, UINT32 b)
{
	static const UINT32 groups[] = {
	    EFI_LEFT_SHIFT_PRESSED | EFI_RIGHT_SHIFT_PRESSED,
	    EFI_LEFT_CONTROL_PRESSED | EFI_RIGHT_CONTROL_PRESSED,
	    EFI_LEFT_ALT_PRESSED | EFI_RIGHT_ALT_PRESSED,
	    EFI_LEFT_LOGO_PRESSED | EFI_RIGHT_LOGO_PRESSED,
	    EFI_MENU_KEY_PRESSED,
	    EFI_SYS_REQ_PRESSED,
	};

	for (size_t i = 0; i < ARRAY_SIZE(groups); i++)
		if (!(a & groups[i]) != !(b & groups[i]))
			return false;
	return true;
}

/* Ctrl-letter arrives as a control code; a registration may name the letter instead. */
static bool char_matches(const EFI_KEY_DATA *reg, const EFI_KEY_DATA *key)
{
	CHAR16 want = reg->Key.UnicodeChar, got = key->Key.UnicodeChar;

	if (want == got)
		return true;
	if (!(reg->KeyState.KeyShiftState & (EFI_LEFT_CONTROL_PRESSED | EFI_RIGHT_CONTROL_PRESSED)))
		return false;
	if (want >= 'a' && want <= 'z')
		return got == want - 'a' + 1;
	return want >= 'A' && want <= 'Z' && got == want - 'A' + 1;
}

bool text_input_key_matches(const EFI_KEY_DATA *reg, const EFI_KEY_DATA *key)
{
	UINT32 reg_shift = reg->KeyState.KeyShiftState;
	EFI_KEY_TOGGLE_STATE reg_toggle = reg->KeyState.KeyToggleState;

	if (reg->Key.ScanCode != key->Key.ScanCode || !char_matches(reg, key))
		return false;
	if ((reg_shift & EFI_SHIFT_STATE_VALID) &&
	    !shift_folded_equal(reg_shift, key->KeyState.KeyShiftState))
		return false;
	if ((reg_toggle & EFI_TOGGLE_STATE_VALID) && reg_toggle != key->KeyState.KeyToggleState)
		return false;
	return true;
}

void key_notify_queue(struct text_input *ti, const EFI_KEY_DATA *key)
{
	for (struct text_input_notify *n = ti->notifies; n; n = n->next) {
		if (!text_input_key_matches(&n->key, key))
			continue;
		if (ti->notify_count < TEXT_INPUT_NOTIFY_QUEUE_SIZE)
			ti->notify_keys[ti->notify_count++] = *key;
		event_signal(ti->notify_event);
		return;
	}
}

/* The functions are collected under the lock and called outside it, so that they may
 * unregister themselves or read keys. */
void EFIAPI key_notify_run(EFI_EVENT event, void *context)
{
	struct text_input *ti = context;

	for (;;) {
		EFI_KEY_NOTIFY_FUNCTION calls[NOTIFY_CALLS_MAX];
		size_t count = 0;
		EFI_KEY_DATA key;
		EFI_TPL old = tpl_raise(TPL_NOTIFY);

		if (!ti->notify_count) {
			tpl_restore(old);
			return;
		}
		key = ti->notify_keys[0];
		ti->notify_count--;
		mem_copy(ti->notify_keys, ti->notify_keys + 1, ti->notify_count * sizeof(key));
		for (struct text_input_notify *n = ti->notifies; n && count < NOTIFY_CALLS_MAX;
		     n = n->next)
			if (text_input_key_matches(&n->key, &key))
				calls[count++] = n->function;
		tpl_restore(old);
		for (size_t i = 0; i < count; i++)
			calls[i](&key);
	}
}

static struct text_input_notify *find_same(struct text_input *ti, const EFI_KEY_DATA *key,
					   EFI_KEY_NOTIFY_FUNCTION function)
{
	for (struct text_input_notify *n = ti->notifies; n; n = n->next)
		if (n->function == function && n->key.Key.ScanCode == key->Key.ScanCode &&
		    n->key.Key.UnicodeChar == key->Key.UnicodeChar &&
		    n->key.KeyState.KeyShiftState == key->KeyState.KeyShiftState &&
		    n->key.KeyState.KeyToggleState == key->KeyState.KeyToggleState)
			return n;
	return NULL;
}

EFI_STATUS key_notify_register(struct text_input *ti, const EFI_KEY_DATA *key,
			       EFI_KEY_NOTIFY_FUNCTION function, void **notify_handle)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);
	struct text_input_notify *n = find_same(ti, key, function);
	EFI_STATUS status = EFI_SUCCESS;

	if (!n) {
		n = pool_alloc(sizeof(*n));
		if (n) {
			*n = (struct text_input_notify){NOTIFY_SIGNATURE, ti->notifies, *key,
							function};
			if (!ti->notifies && !ti->poll_always)
				status = event_set_timer(ti->poll_timer, TimerPeriodic,
							 TEXT_INPUT_POLL_100NS);
			ti->notifies = n;
		} else {
			status = EFI_OUT_OF_RESOURCES;
		}
	}
	tpl_restore(old);
	if (!EFI_ERROR(status))
		*notify_handle = n;
	return status;
}

EFI_STATUS key_notify_unregister(struct text_input *ti, void *notify_handle)
{
	struct text_input_notify **link, *n = NULL;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	/* The handle is found by membership before anything of it is read. */
	for (link = &ti->notifies; *link; link = &(*link)->next)
		if (*link == notify_handle) {
			n = *link;
			*link = n->next;
			break;
		}
	if (n && !ti->notifies && !ti->poll_always)
		event_set_timer(ti->poll_timer, TimerCancel, 0);
	tpl_restore(old);
	if (!n)
		return EFI_INVALID_PARAMETER;
	n->signature = 0;
	pool_free(n);
	return EFI_SUCCESS;
}

void key_notify_free_all(struct text_input *ti)
{
	while (ti->notifies) {
		struct text_input_notify *n = ti->notifies;

		ti->notifies = n->next;
		n->signature = 0;
		pool_free(n);
	}
}
