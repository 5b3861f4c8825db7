/* Checks the AArch64 platform's time and reset: a 100 ms timer event must fire (the
 * generic timer's tick), GetTime must read the PL031, then ResetSystem(EfiResetShutdown)
 * must power QEMU off (PSCI SYSTEM_OFF). */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#define MS_100 1000000 /* in 100 ns units */

static void say(EFI_SYSTEM_TABLE *st, const CHAR16 *text)
{
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)text);
}

/* Writes value in decimal (at most 5 digits: a year). */
static void say_number(EFI_SYSTEM_TABLE *st, UINT32 value)
{
	CHAR16 digits[6];
	int at = 5;

	digits[at] = 0;
	do {
		digits[--at] = (CHAR16)(u'0' + value % 10);
		value /= 10;
	} while (value && at > 0);
	say(st, digits + at);
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_EVENT timer;
	UINTN index;
	EFI_TIME now;

	if (st->BootServices->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer) != EFI_SUCCESS ||
	    st->BootServices->SetTimer(timer, TimerRelative, MS_100) != EFI_SUCCESS ||
	    st->BootServices->WaitForEvent(1, &timer, &index) != EFI_SUCCESS) {
		say(st, u"timer: failed\r\n");
		return EFI_DEVICE_ERROR;
	}
	say(st, u"timer: fired\r\n");
	if (st->RuntimeServices->GetTime(&now, NULL) != EFI_SUCCESS) {
		say(st, u"time: failed\r\n");
	} else {
		say(st, u"time: year ");
		say_number(st, now.Year);
		say(st, u"\r\n");
	}
	say(st, u"reset: shutdown\r\n");
	st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	say(st, u"reset: returned\r\n");
	return EFI_DEVICE_ERROR;
}
