/* pointer-test: prints the range of the first EFI_ABSOLUTE_POINTER_PROTOCOL and then every
 * state it reports ("abs X Y BUTTONS"), until none has come for three seconds, ending with
 * "pointer done". tests/qemu/test_usb.py moves a usb-tablet with QMP and reads the lines. */
#include "../lib/app.h"
#include <efi/protocol/absolute_pointer.h>

#define IDLE_100NS (3 * 10000000ULL)

/* Waits for input or for the idle time; true when input came. */
static bool wait_input(EFI_EVENT input, EFI_EVENT timer)
{
	EFI_EVENT events[2] = {input, timer};
	UINTN index = 1;

	app_bs->SetTimer(timer, TimerRelative, IDLE_100NS);
	if (EFI_ERROR(app_bs->WaitForEvent(2, events, &index)))
		return false;
	return index == 0;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_GUID guid = EFI_ABSOLUTE_POINTER_PROTOCOL_GUID;
	EFI_ABSOLUTE_POINTER_PROTOCOL *abs = NULL;
	EFI_ABSOLUTE_POINTER_STATE state;
	EFI_EVENT timer;

	app_init(image, st);
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	if (EFI_ERROR(app_bs->LocateProtocol(&guid, NULL, (void **)&abs))) {
		app_print("no absolute pointer\n");
		return EFI_NOT_FOUND;
	}
	app_print("abs range x %lu-%lu y %lu-%lu\n", abs->Mode->AbsoluteMinX,
		  abs->Mode->AbsoluteMaxX, abs->Mode->AbsoluteMinY, abs->Mode->AbsoluteMaxY);
	if (EFI_ERROR(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer)))
		return EFI_OUT_OF_RESOURCES;
	app_print("pointer ready\n");
	while (wait_input(abs->WaitForInput, timer))
		if (abs->GetState(abs, &state) == EFI_SUCCESS)
			app_print("abs %lu %lu %u\n", state.CurrentX, state.CurrentY,
				  state.ActiveButtons);
	app_print("pointer done\n");
	return EFI_SUCCESS;
}
