/* usb-pointer-test: prints the range of the first EFI_ABSOLUTE_POINTER_PROTOCOL and then every
 * state it reports ("abs X Y BUTTONS"), or without one every state of the first
 * EFI_SIMPLE_POINTER_PROTOCOL ("rel DX DY LEFT RIGHT"; always so with the word "mouse" on
 * the command line), until none has come for three
 * seconds, ending with "pointer done". tests/qemu/test_usb.py moves a usb-tablet and a
 * usb-mouse with QMP and reads the lines. */
#include "../lib/app.h"
#include <efi/protocol/absolute_pointer.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/simple_pointer.h>

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

/* Whether the command line (LoadOptions) holds "mouse". */
static bool mouse_asked(void)
{
	EFI_GUID guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image;
	char line[128];

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &guid, (void **)&image)) ||
	    !image->LoadOptions)
		return false;
	line[ucs2_to_utf8(line, sizeof(line) - 1, image->LoadOptions,
			  image->LoadOptionsSize / sizeof(CHAR16))] = 0;
	for (size_t i = 0; line[i]; i++)
		if (str8_ncmp(line + i, "mouse", 5) == 0)
			return true;
	return false;
}

static EFI_STATUS mouse(EFI_EVENT timer)
{
	EFI_GUID guid = EFI_SIMPLE_POINTER_PROTOCOL_GUID;
	EFI_SIMPLE_POINTER_PROTOCOL *ptr = NULL;
	EFI_SIMPLE_POINTER_STATE state;

	if (EFI_ERROR(app_bs->LocateProtocol(&guid, NULL, (void **)&ptr))) {
		app_print("no pointer\n");
		return EFI_NOT_FOUND;
	}
	app_print("pointer ready\n");
	while (wait_input(ptr->WaitForInput, timer))
		if (ptr->GetState(ptr, &state) == EFI_SUCCESS)
			app_print("rel %d %d %u %u\n", state.RelativeMovementX,
				  state.RelativeMovementY, state.LeftButton, state.RightButton);
	app_print("pointer done\n");
	return EFI_SUCCESS;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_GUID guid = EFI_ABSOLUTE_POINTER_PROTOCOL_GUID;
	EFI_ABSOLUTE_POINTER_PROTOCOL *abs = NULL;
	EFI_ABSOLUTE_POINTER_STATE state;
	EFI_EVENT timer;

	app_init(image, st);
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	if (EFI_ERROR(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer)))
		return EFI_OUT_OF_RESOURCES;
	if (mouse_asked())
		return mouse(timer);
	if (EFI_ERROR(app_bs->LocateProtocol(&guid, NULL, (void **)&abs))) {
		app_print("no absolute pointer\n");
		return mouse(timer);
	}
	app_print("abs range x %lu-%lu y %lu-%lu\n", abs->Mode->AbsoluteMinX,
		  abs->Mode->AbsoluteMaxX, abs->Mode->AbsoluteMinY, abs->Mode->AbsoluteMaxY);
	app_print("pointer ready\n");
	while (wait_input(abs->WaitForInput, timer))
		if (abs->GetState(abs, &state) == EFI_SUCCESS)
			app_print("abs %lu %lu %u\n", state.CurrentX, state.CurrentY,
				  state.ActiveButtons);
	app_print("pointer done\n");
	return EFI_SUCCESS;
}
