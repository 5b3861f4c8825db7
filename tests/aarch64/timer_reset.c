/* Checks the AArch64 platform's time and reset: a 100 ms timer event must fire (the
 * generic timer's tick), a timer's notification must run while the program spins without
 * calling the firmware (the tick is an interrupt through the GIC, not polled while idle),
 * GetTime must read the PL031, then ResetSystem(EfiResetShutdown) must call the function
 * registered through EFI_RESET_NOTIFICATION_PROTOCOL and power QEMU off (PSCI SYSTEM_OFF). */
#include <efi/system_table.h>
#include <efi/protocol/reset_notification.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#define MS_100 1000000 /* in 100 ns units */
#define MS_10 100000
#define SPIN_SECONDS 5

static volatile int notified;
static EFI_SYSTEM_TABLE *table;

static void EFIAPI notify(EFI_EVENT event, void *context)
{
	notified = 1;
}

static UINT64 counter(void)
{
	UINT64 value;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(value));
	return value;
}

/* Spins, calling nothing, until the notification ran or SPIN_SECONDS went by. */
static int interrupt_ticks(EFI_SYSTEM_TABLE *st)
{
	EFI_EVENT timer;
	UINT64 freq, end;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(freq));
	if (st->BootServices->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, notify, NULL,
					  &timer) != EFI_SUCCESS ||
	    st->BootServices->SetTimer(timer, TimerRelative, MS_10) != EFI_SUCCESS)
		return 0;
	end = counter() + freq * SPIN_SECONDS;
	while (!notified && counter() < end)
		;
	st->BootServices->CloseEvent(timer);
	return notified;
}

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

static VOID EFIAPI reset_notify(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
	say(table, type == EfiResetShutdown ? u"reset: notified of the shutdown\r\n"
					    : u"reset: notified of another type\r\n");
}

static void register_reset_notify(EFI_SYSTEM_TABLE *st)
{
	EFI_GUID guid = EFI_RESET_NOTIFICATION_PROTOCOL_GUID;
	EFI_RESET_NOTIFICATION_PROTOCOL *p;

	if (st->BootServices->LocateProtocol(&guid, NULL, (void **)&p) != EFI_SUCCESS ||
	    p->RegisterResetNotify(p, reset_notify) != EFI_SUCCESS)
		say(st, u"reset: no notification\r\n");
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
	say(st, interrupt_ticks(st) ? u"tick: interrupt\r\n" : u"tick: polled\r\n");
	if (st->RuntimeServices->GetTime(&now, NULL) != EFI_SUCCESS) {
		say(st, u"time: failed\r\n");
	} else {
		say(st, u"time: year ");
		say_number(st, now.Year);
		say(st, u"\r\n");
	}
	table = st;
	register_reset_notify(st);
	say(st, u"reset: shutdown\r\n");
	st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	say(st, u"reset: returned\r\n");
	return EFI_DEVICE_ERROR;
}
