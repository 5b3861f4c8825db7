/* pointer-test: reads the PS/2 mouse's EFI_SIMPLE_POINTER_PROTOCOL (UEFI 2.10, 12.5) until the
 * pointer has moved at least 40 counts to the right and the left button was pressed and
 * released, or 60 seconds passed, then prints the motion it summed and the keys typed
 * meanwhile, for tests that move a
 * mouse through QEMU's QMP input-send-event (tests/qemu/test_video_devices.py). Takes no
 * arguments, so it also runs on OVMF as BOOTX64.EFI. */
#include "../lib/app.h"
#include <efi/protocol/simple_pointer.h>
#include <ember/lib/devpath_node.h>

#define PNP_PS2_MOUSE 0x0f03

#define WANT_X 40
#define TICK_100NS 1000000ULL /* 100 ms */
#define TICKS 600

struct totals {
	INT64 x, y;
	bool pressed, clicked; /* left button seen down; then seen up again */
};

/* Whether a handle's device path ends in the PS/2 mouse's node, Acpi(PNP0F03,...). */
static bool is_ps2_mouse(EFI_HANDLE handle)
{
	EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *node = NULL;

	if (EFI_ERROR(app_bs->HandleProtocol(handle, &path_guid, (void **)&node)) || !node)
		return false;
	for (int i = 0; i < 32 && !dp_is_end(node); i++, node = dp_next(node))
		if (node->Type == ACPI_DEVICE_PATH && node->SubType == ACPI_DP &&
		    dp_node_length(node) >= sizeof(ACPI_HID_DEVICE_PATH) &&
		    ((ACPI_HID_DEVICE_PATH *)node)->HID == EISA_PNP_ID(PNP_PS2_MOUSE))
			return true;
	return false;
}

/* The PS/2 mouse among the pointers (a firmware's console splitter has one too). */
static EFI_SIMPLE_POINTER_PROTOCOL *find_pointer(void)
{
	EFI_GUID guid = EFI_SIMPLE_POINTER_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	void *pointer = NULL;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &guid, NULL, &count, &handles)))
		count = 0;
	app_print("pointer: %u devices\n", (unsigned)count);
	for (UINTN i = 0; i < count && !pointer; i++)
		if (is_ps2_mouse(handles[i]))
			app_bs->HandleProtocol(handles[i], &guid, &pointer);
	if (handles)
		app_bs->FreePool(handles);
	if (!pointer)
		app_print("pointer: no PS/2 mouse\n");
	return pointer;
}

/* One GetState: the motion and the left button's story. */
static void read_state(EFI_SIMPLE_POINTER_PROTOCOL *p, struct totals *t)
{
	EFI_SIMPLE_POINTER_STATE s;

	if (EFI_ERROR(p->GetState(p, &s)))
		return;
	t->x += s.RelativeMovementX;
	t->y += s.RelativeMovementY;
	if (s.LeftButton)
		t->pressed = true;
	else if (t->pressed)
		t->clicked = true;
}

static void follow(EFI_SIMPLE_POINTER_PROTOCOL *p, struct totals *t)
{
	EFI_EVENT timer, events[2];
	UINTN index;

	if (EFI_ERROR(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer)))
		return;
	app_bs->SetTimer(timer, TimerPeriodic, TICK_100NS);
	events[0] = p->WaitForInput;
	events[1] = timer;
	for (int ticks = 0; ticks < TICKS && (t->x < WANT_X || !t->clicked);) {
		if (EFI_ERROR(app_bs->WaitForEvent(2, events, &index)))
			break;
		if (index == 0)
			read_state(p, t);
		else
			ticks++;
	}
	app_bs->CloseEvent(timer);
}

/* The keys typed meanwhile, as text: keyboard and mouse share a controller, and neither
 * may lose the other's bytes. */
static void print_keys(void)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = app_st->ConIn;
	EFI_INPUT_KEY key;
	char text[32];
	UINTN n = 0;

	while (n + 1 < sizeof(text) && !EFI_ERROR(in->ReadKeyStroke(in, &key)))
		if (key.UnicodeChar >= 0x20 && key.UnicodeChar < 0x7f)
			text[n++] = (char)key.UnicodeChar;
	text[n] = 0;
	app_print("pointer: keys '%s'\n", text);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_SIMPLE_POINTER_PROTOCOL *p;
	EFI_SIMPLE_POINTER_STATE s;
	struct totals t = {0, 0, false, false};
	EFI_STATUS idle;

	app_init(image, st);
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	p = find_pointer();
	if (!p)
		return EFI_NOT_FOUND;
	app_print(
	    "pointer: resolution %llu,%llu,%llu buttons %d,%d\n",
	    (unsigned long long)p->Mode->ResolutionX, (unsigned long long)p->Mode->ResolutionY,
	    (unsigned long long)p->Mode->ResolutionZ, p->Mode->LeftButton, p->Mode->RightButton);
	p->Reset(p, FALSE);
	idle = p->GetState(p, &s);
	app_print("pointer: idle %r\n", idle);
	app_print("pointer: ready\n");
	follow(p, &t);
	app_print("pointer: moved %lld,%lld left %s\n", (long long)t.x, (long long)t.y,
		  t.clicked   ? "clicked"
		  : t.pressed ? "held"
			      : "untouched");
	print_keys();
	return EFI_SUCCESS;
}
