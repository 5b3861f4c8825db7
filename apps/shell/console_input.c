/* The console's keys: reading one, and knowing when nobody types or none will come.
 *
 * The rule (README, "Console input"): the console input is interactive (a person answers)
 * unless ConIn is not the console device's own protocol (another shell has put a pipe or
 * a file there) or the device says otherwise through Ember's text input state protocol
 * (ember-run with stdin a file or a pipe). The input has ended once ReadKeyStroke fails
 * with anything but EFI_NOT_READY, or answers EFI_NOT_READY on a device that says its
 * input has ended. Output pauses only for an interactive input, and nothing waits for a
 * key after the end. */
#include <ember/drivers/text_input_state.h>
#include "internal.h"

/* While keys are awaited from a device that can end: how often to look whether it has. */
#define END_CHECK_100NS (50 * 10000)

static EFI_GUID text_in_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
static EFI_GUID state_guid = EMBER_TEXT_INPUT_STATE_PROTOCOL_GUID;

/* Whether ConIn is the protocol of the console input's handle, as firmware sets it up. */
static bool con_in_is_device(struct shell *sh)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *device;
	EFI_HANDLE h = app_st->ConsoleInHandle;

	if (!h || EFI_ERROR(app_bs->HandleProtocol(h, &text_in_guid, (void **)&device)))
		return true; /* nothing to compare with: take it as the device */
	return device == sh->con_in;
}

void sh_input_init(struct shell *sh)
{
	void *state;

	sh->in_redirected = !con_in_is_device(sh);
	if (!sh->in_redirected && app_st->ConsoleInHandle &&
	    !EFI_ERROR(app_bs->HandleProtocol(app_st->ConsoleInHandle, &state_guid, &state)))
		sh->in_state = state;
	if (sh->in_state &&
	    EFI_ERROR(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &sh->end_check_timer)))
		sh->end_check_timer = NULL;
}

void sh_input_fini(struct shell *sh)
{
	if (sh->end_check_timer)
		app_bs->CloseEvent(sh->end_check_timer);
	sh->end_check_timer = NULL;
}

bool sh_input_interactive(struct shell *sh)
{
	const EMBER_TEXT_INPUT_STATE_PROTOCOL *state = sh->in_state;

	return sh->con_in && !sh->in_redirected && (!state || state->Interactive);
}

/* Waits until a key may be there; with a device that can end, also wakes up now and then
 * (the end does not signal WaitForKey). */
static EFI_STATUS wait_for_key(struct shell *sh)
{
	EFI_EVENT events[2] = {sh->con_in->WaitForKey, sh->end_check_timer};
	UINTN index;

	if (events[1])
		app_bs->SetTimer(events[1], TimerRelative, END_CHECK_100NS);
	return app_bs->WaitForEvent(events[1] ? 2 : 1, events, &index);
}

EFI_STATUS sh_read_key(struct shell *sh, EFI_INPUT_KEY *key)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = sh->con_in;
	const EMBER_TEXT_INPUT_STATE_PROTOCOL *state = sh->in_state;

	if (!in || sh->input_ended)
		return EFI_ABORTED;
	for (;;) {
		EFI_STATUS status = in->ReadKeyStroke(in, key);
		if (status == EFI_SUCCESS)
			return EFI_SUCCESS;
		if (status != EFI_NOT_READY || (state && state->Ended) ||
		    EFI_ERROR(wait_for_key(sh))) {
			sh->input_ended = true;
			return EFI_ABORTED;
		}
	}
}
