/* SimpleTextIn and SimpleTextInEx over a key queue (UEFI 2.10, 12.2 and 12.3), for every
 * text input device: the device only turns its input into keys (ops->poll). Input is
 * polled when someone asks (ReadKeyStroke, the WaitForKey events) and by a timer while
 * key notifications are registered, or all the time for devices that need it. */
#define LOG_PREFIX "text-input: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/term_keys.h>
#include <ember/drivers/text_input.h>
#include "text_input_internal.h"

#define TEXT_INPUT_SIGNATURE SIGNATURE_32('t', 'x', 'i', 'n')

/* ---- The queue (callers hold TPL_NOTIFY) ---- */

bool text_input_push(struct text_input *ti, const EFI_KEY_DATA *key)
{
	if (ti->count == TEXT_INPUT_QUEUE_SIZE)
		return false;
	ti->queue[(ti->head + ti->count++) % TEXT_INPUT_QUEUE_SIZE] = *key;
	key_notify_queue(ti, key);
	return true;
}

void text_input_push_term_keys(struct text_input *ti, const struct term_key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		EFI_KEY_DATA key = {
		    .Key = {.ScanCode = keys[i].scan, .UnicodeChar = keys[i].unicode},
		    .KeyState = {.KeyShiftState = keys[i].shift_state,
				 .KeyToggleState = ti->toggle_state},
		};
		text_input_push(ti, &key);
	}
}

UINT32 text_input_room(const struct text_input *ti)
{
	return TEXT_INPUT_QUEUE_SIZE - ti->count;
}

static bool pop(struct text_input *ti, EFI_KEY_DATA *key)
{
	if (!ti->count)
		return false;
	*key = ti->queue[ti->head];
	ti->head = (ti->head + 1) % TEXT_INPUT_QUEUE_SIZE;
	ti->count--;
	return true;
}

static void poll(struct text_input *ti)
{
	if (ti->ops->poll)
		ti->ops->poll(ti);
}

static bool read_key(struct text_input *ti, EFI_KEY_DATA *key)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);
	bool got;

	poll(ti);
	got = pop(ti, key);
	tpl_restore(old);
	return got;
}

/* ---- Events ---- */

/* WaitForKey and WaitForKeyEx (EVT_NOTIFY_WAIT): signalled once a key is there. */
static void EFIAPI wait_notify(EFI_EVENT event, void *context)
{
	struct text_input *ti = context;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	poll(ti);
	if (ti->count)
		event_signal(event);
	tpl_restore(old);
}

static void EFIAPI poll_timer_notify(EFI_EVENT event, void *context)
{
	struct text_input *ti = context;
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	poll(ti);
	tpl_restore(old);
}

/* ---- Protocol functions ---- */

struct text_input *text_input_from_in(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in)
{
	struct text_input *ti;

	if (!in)
		return NULL;
	ti = container_of(in, struct text_input, in);
	return ti->signature == TEXT_INPUT_SIGNATURE ? ti : NULL;
}

struct text_input *text_input_from_in_ex(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *in_ex)
{
	struct text_input *ti;

	if (!in_ex)
		return NULL;
	ti = container_of(in_ex, struct text_input, in_ex);
	return ti->signature == TEXT_INPUT_SIGNATURE ? ti : NULL;
}

static EFI_STATUS reset(struct text_input *ti, bool extended)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);
	EFI_STATUS status = EFI_SUCCESS;

	if (!ti->reset_keeps_keys)
		ti->count = 0;
	if (ti->ops->reset)
		status = ti->ops->reset(ti, extended);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI in_reset(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this, BOOLEAN extended)
{
	struct text_input *ti = text_input_from_in(this);

	return ti ? reset(ti, extended) : EFI_INVALID_PARAMETER;
}

static EFI_STATUS EFIAPI in_read_key(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this, EFI_INPUT_KEY *key)
{
	struct text_input *ti = text_input_from_in(this);
	EFI_KEY_DATA data;

	if (!ti || !key)
		return EFI_INVALID_PARAMETER;
	if (!read_key(ti, &data))
		return EFI_NOT_READY;
	*key = data.Key;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI in_ex_reset(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this, BOOLEAN extended)
{
	struct text_input *ti = text_input_from_in_ex(this);

	return ti ? reset(ti, extended) : EFI_INVALID_PARAMETER;
}

static EFI_STATUS EFIAPI in_ex_read_key(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					EFI_KEY_DATA *key_data)
{
	struct text_input *ti = text_input_from_in_ex(this);

	if (!ti || !key_data)
		return EFI_INVALID_PARAMETER;
	return read_key(ti, key_data) ? EFI_SUCCESS : EFI_NOT_READY;
}

static EFI_STATUS EFIAPI in_ex_set_state(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					 EFI_KEY_TOGGLE_STATE *toggle_state)
{
	struct text_input *ti = text_input_from_in_ex(this);
	EFI_KEY_TOGGLE_STATE state;
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!ti || !toggle_state)
		return EFI_INVALID_PARAMETER;
	if (!(*toggle_state & EFI_TOGGLE_STATE_VALID))
		return EFI_UNSUPPORTED;
	state =
	    *toggle_state & (EFI_TOGGLE_STATE_VALID | EFI_KEY_STATE_EXPOSED |
			     EFI_SCROLL_LOCK_ACTIVE | EFI_NUM_LOCK_ACTIVE | EFI_CAPS_LOCK_ACTIVE);
	old = tpl_raise(TPL_NOTIFY);
	if (ti->ops->set_state)
		status = ti->ops->set_state(ti, state);
	if (!EFI_ERROR(status))
		ti->toggle_state = state;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI in_ex_register(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					EFI_KEY_DATA *key_data, EFI_KEY_NOTIFY_FUNCTION function,
					VOID **notify_handle)
{
	struct text_input *ti = text_input_from_in_ex(this);

	if (!ti || !key_data || !function || !notify_handle)
		return EFI_INVALID_PARAMETER;
	return key_notify_register(ti, key_data, function, notify_handle);
}

static EFI_STATUS EFIAPI in_ex_unregister(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *this,
					  VOID *notify_handle)
{
	struct text_input *ti = text_input_from_in_ex(this);

	if (!ti || !notify_handle)
		return EFI_INVALID_PARAMETER;
	return key_notify_unregister(ti, notify_handle);
}

/* ---- Life cycle ---- */

static EFI_STATUS create_events(struct text_input *ti)
{
	EFI_STATUS status;

	status =
	    event_create(EVT_NOTIFY_WAIT, TPL_NOTIFY, wait_notify, ti, NULL, &ti->in.WaitForKey);
	if (EFI_ERROR(status)) {
		log_debug("creating WaitForKey: %r\n", status);
		return status;
	}
	status = event_create(EVT_NOTIFY_WAIT, TPL_NOTIFY, wait_notify, ti, NULL,
			      &ti->in_ex.WaitForKeyEx);
	if (EFI_ERROR(status)) {
		log_debug("creating WaitForKeyEx: %r\n", status);
		goto err_wait;
	}
	status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, poll_timer_notify, ti,
			      NULL, &ti->poll_timer);
	if (EFI_ERROR(status)) {
		log_debug("creating the poll timer: %r\n", status);
		goto err_wait_ex;
	}
	status = event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, key_notify_run, ti, NULL,
			      &ti->notify_event);
	if (EFI_ERROR(status)) {
		log_debug("creating the key notification event: %r\n", status);
		goto err_timer;
	}
	return EFI_SUCCESS;

err_timer:
	event_close(ti->poll_timer);
err_wait_ex:
	event_close(ti->in_ex.WaitForKeyEx);
err_wait:
	event_close(ti->in.WaitForKey);
	return status;
}

static const EFI_SIMPLE_TEXT_INPUT_PROTOCOL in_template = {
    .Reset = in_reset,
    .ReadKeyStroke = in_read_key,
};

static const EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL in_ex_template = {
    .Reset = in_ex_reset,
    .ReadKeyStrokeEx = in_ex_read_key,
    .SetState = in_ex_set_state,
    .RegisterKeyNotify = in_ex_register,
    .UnregisterKeyNotify = in_ex_unregister,
};

EFI_STATUS text_input_init(struct text_input *ti, const struct text_input_ops *ops,
			   bool poll_always)
{
	EFI_STATUS status;

	*ti = (struct text_input){
	    .signature = TEXT_INPUT_SIGNATURE,
	    .in = in_template,
	    .in_ex = in_ex_template,
	    .ops = ops,
	    .poll_always = poll_always,
	    .toggle_state = EFI_TOGGLE_STATE_VALID,
	};
	status = create_events(ti);
	if (EFI_ERROR(status))
		return status;
	if (poll_always)
		event_set_timer(ti->poll_timer, TimerPeriodic, TEXT_INPUT_POLL_100NS);
	return EFI_SUCCESS;
}

void text_input_fini(struct text_input *ti)
{
	event_close(ti->notify_event);
	event_close(ti->poll_timer);
	event_close(ti->in_ex.WaitForKeyEx);
	event_close(ti->in.WaitForKey);
	key_notify_free_all(ti);
	ti->signature = 0;
}
