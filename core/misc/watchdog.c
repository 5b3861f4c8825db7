/* SetWatchdogTimer (UEFI 2.10, section 7.5): if the timeout passes, the platform resets,
 * as a hung boot option would otherwise hang the machine for good. */
#include "../services.h"
#include <ember/core/log.h>

static EFI_EVENT watchdog;

static VOID EFIAPI watchdog_expired(EFI_EVENT event, VOID *context)
{
	log_error("watchdog timer expired: resetting\n");
	/* Through ResetSystem, so the reset notifications run as for any other reset. */
	efi_reset_system(EfiResetCold, EFI_TIMEOUT, 0, NULL);
}

EFI_STATUS core_watchdog_set(UINT64 seconds)
{
	return efi_set_watchdog_timer(seconds, 0, 0, NULL);
}

EFI_STATUS EFIAPI efi_set_watchdog_timer(UINTN timeout, UINT64 code, UINTN data_size, CHAR16 *data)
{
	EFI_STATUS status;

	if (!watchdog) {
		status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_NOTIFY, watchdog_expired,
				      NULL, NULL, &watchdog);
		if (EFI_ERROR(status))
			return status;
	}
	if (timeout == 0)
		return event_set_timer(watchdog, TimerCancel, 0);
	if (timeout > UINT64_MAX / 10000000ULL)
		timeout = UINT64_MAX / 10000000ULL;
	return event_set_timer(watchdog, TimerRelative, (UINT64)timeout * 10000000ULL);
}
