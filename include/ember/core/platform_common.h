/* Pieces of the platform API (platform.h) that several platforms implement the same way
 * (platform/common): each platform links the files it uses. */
#ifndef EMBER_PLATFORM_COMMON_H
#define EMBER_PLATFORM_COMMON_H

#include <efi/runtime_services.h>

/* clock.c: what GetTime reports of a clock counting seconds (a crystal's 50 ppm). With it,
 * plat_has_wakeup_alarm, plat_get_wakeup_time and plat_set_wakeup_time for a machine
 * without a wake-up alarm (false, EFI_UNSUPPORTED). */
void plat_seconds_clock_capabilities(EFI_TIME_CAPABILITIES *capabilities);

/* reset_log.c: logs a ResetSystem call (its kind, status and the reason its data starts
 * with) as an error: after ExitBootServices the log is where a program's last words can
 * still be read. */
void plat_reset_log(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, const void *data);

#endif
