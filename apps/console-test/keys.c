/* Text input: ConIn and SimpleTextInputEx, keys printed as they are decoded. */
#include "console_test.h"

#define SECOND_100NS 10000000ULL

static EFI_EVENT idle_timer;

/* Waits for one of an input's events or for timeout; true when the input signalled. */
static bool wait_input(EFI_EVENT input, UINT64 timeout_100ns)
{
	EFI_EVENT events[2] = {input, idle_timer};
	UINTN index = 0;

	if (!idle_timer &&
	    !CHECK_STATUS(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &idle_timer), EFI_SUCCESS))
		return false;
	events[1] = idle_timer;
	app_bs->SetTimer(idle_timer, TimerRelative, timeout_100ns);
	if (!CHECK_STATUS(app_bs->WaitForEvent(2, events, &index), EFI_SUCCESS))
		return false;
	app_bs->SetTimer(idle_timer, TimerCancel, 0);
	return index == 0;
}

/* The next key, or false once no key has come for idle_100ns. */
static bool next_key(EFI_INPUT_KEY *key, UINT64 idle_100ns)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = app_st->ConIn;

	for (;;) {
		EFI_STATUS status = in->ReadKeyStroke(in, key);
		if (status == EFI_SUCCESS)
			return true;
		if (!CHECK_STATUS(status, EFI_NOT_READY) || !wait_input(in->WaitForKey, idle_100ns))
			return false;
	}
}

static bool next_key_ex(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex, EFI_KEY_DATA *key)
{
	for (;;) {
		EFI_STATUS status = ex->ReadKeyStrokeEx(ex, key);
		if (status == EFI_SUCCESS)
			return true;
		if (!CHECK_STATUS(status, EFI_NOT_READY) ||
		    !wait_input(ex->WaitForKeyEx, SECOND_100NS))
			return false;
	}
}

void ct_read_keys(UINT32 idle_seconds)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = app_st->ConIn;
	EFI_INPUT_KEY key;

	CHECK_STATUS(in->ReadKeyStroke(in, NULL), EFI_INVALID_PARAMETER);
	while (next_key(&key, idle_seconds * SECOND_100NS))
		app_print("key %04x %04x\n", key.ScanCode, key.UnicodeChar);
	app_print("keys done\n");
}

void ct_keys(void)
{
	ct_read_keys(1);
}

/* ---- SimpleTextInputEx ---- */

static UINT32 notified[4];

static EFI_STATUS EFIAPI notify_0(EFI_KEY_DATA *key)
{
	notified[0]++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI notify_1(EFI_KEY_DATA *key)
{
	notified[1]++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI notify_2(EFI_KEY_DATA *key)
{
	notified[2]++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI notify_3(EFI_KEY_DATA *key)
{
	notified[3]++;
	return EFI_SUCCESS;
}

static void check_set_state(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex)
{
	EFI_KEY_TOGGLE_STATE state = 0;

	CHECK_STATUS(ex->SetState(ex, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(ex->SetState(ex, &state), EFI_UNSUPPORTED);
	state = EFI_TOGGLE_STATE_VALID | EFI_NUM_LOCK_ACTIVE;
	CHECK_STATUS(ex->SetState(ex, &state), EFI_SUCCESS);
}

static void check_register_errors(EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex)
{
	EFI_KEY_DATA z = {{SCAN_NULL, 'z'}, {0, 0}};
	VOID *h = NULL, *h2 = NULL;
	UINT64 bogus = 0;

	CHECK_STATUS(ex->RegisterKeyNotify(ex, NULL, notify_3, &h), EFI_INVALID_PARAMETER);
	CHECK_STATUS(ex->RegisterKeyNotify(ex, &z, NULL, &h), EFI_INVALID_PARAMETER);
	CHECK_STATUS(ex->RegisterKeyNotify(ex, &z, notify_3, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(ex->RegisterKeyNotify(ex, &z, notify_3, &h), EFI_SUCCESS);
	CHECK_STATUS(ex->RegisterKeyNotify(ex, &z, notify_3, &h2), EFI_SUCCESS);
	CHECK(h && h == h2); /* the same registration twice is one */
	CHECK_STATUS(ex->UnregisterKeyNotify(ex, &bogus), EFI_INVALID_PARAMETER);
	CHECK_STATUS(ex->UnregisterKeyNotify(ex, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(ex->UnregisterKeyNotify(ex, h), EFI_SUCCESS);
	CHECK_STATUS(ex->UnregisterKeyNotify(ex, h), EFI_INVALID_PARAMETER);
}

/* Registers x, F5, n and Ctrl-C (by its letter); reports how often each one was seen,
 * before any key is read (the notifications need no reader) and after. */
void ct_keys_ex(void)
{
	EFI_GUID in_ex_guid = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex = NULL;
	EFI_KEY_DATA want[4] = {
	    {{SCAN_NULL, 'x'}, {0, 0}},
	    {{SCAN_F5, 0}, {0, 0}},
	    {{SCAN_NULL, 'n'}, {0, 0}},
	    {{SCAN_NULL, 'c'}, {EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED, 0}},
	};
	EFI_KEY_NOTIFY_FUNCTION functions[4] = {notify_0, notify_1, notify_2, notify_3};
	VOID *handles[4] = {NULL};
	EFI_KEY_DATA key;

	if (!CHECK_STATUS(
		app_bs->HandleProtocol(app_st->ConsoleInHandle, &in_ex_guid, (void **)&ex),
		EFI_SUCCESS))
		return;
	check_set_state(ex);
	check_register_errors(ex);
	for (int i = 0; i < 4; i++)
		CHECK_STATUS(ex->RegisterKeyNotify(ex, &want[i], functions[i], &handles[i]),
			     EFI_SUCCESS);
	/* The test types once it sees this line; keys typed earlier would have reached no
	 * registration. Wait for the five keys (or ten seconds) without reading any. */
	app_print("notifications registered\n");
	for (int waited = 0; waited < 1000; waited++) {
		if (notified[0] + notified[1] + notified[2] + notified[3] >= 5)
			break;
		app_bs->Stall(10000);
	}
	app_print("before reading: x=%u f5=%u n=%u ctrl-c=%u\n", notified[0], notified[1],
		  notified[2], notified[3]);
	CHECK_STATUS(ex->ReadKeyStrokeEx(ex, NULL), EFI_INVALID_PARAMETER);
	while (next_key_ex(ex, &key))
		app_print("keyex %04x %04x shift=%08x toggle=%02x\n", key.Key.ScanCode,
			  key.Key.UnicodeChar, key.KeyState.KeyShiftState,
			  key.KeyState.KeyToggleState);
	app_print("notified: x=%u f5=%u n=%u ctrl-c=%u\n", notified[0], notified[1], notified[2],
		  notified[3]);
	for (int i = 0; i < 4; i++)
		CHECK_STATUS(ex->UnregisterKeyNotify(ex, handles[i]), EFI_SUCCESS);
}

/* Nothing to read yet: EFI_NOT_READY, an unsignalled WaitForKey; then one key arrives;
 * then input ends, which is no key at all. */
void ct_no_input(void)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = app_st->ConIn;
	EFI_INPUT_KEY key = {0, 0};
	bool signalled;

	CHECK_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	CHECK_STATUS(app_bs->CheckEvent(in->WaitForKey), EFI_NOT_READY);
	app_print("waiting\n");
	signalled = wait_input(in->WaitForKey, 10 * SECOND_100NS);
	CHECK(signalled);
	CHECK_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	app_print("got %04x %04x\n", key.ScanCode, key.UnicodeChar);
	CHECK_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	app_print("waiting for the end\n");
	signalled = wait_input(in->WaitForKey, SECOND_100NS);
	CHECK(!signalled);
	CHECK_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	app_print("no keys after the end\n");
}
