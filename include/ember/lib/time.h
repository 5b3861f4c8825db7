/* Calendar arithmetic between EFI_TIME and seconds since 1970-01-01 (proleptic Gregorian,
 * no time zones): for clocks, file systems and timestamps. */
#ifndef EMBER_TIME_H
#define EMBER_TIME_H

#include <efi/runtime_services.h>

/* Seconds since the epoch for a valid EFI_TIME (its TimeZone is ignored). */
INT64 efi_time_to_unix(const EFI_TIME *time);
/* Fills Year..Second for a count of seconds since the epoch; Nanosecond, TimeZone and
 * Daylight are set to 0, EFI_UNSPECIFIED_TIMEZONE and 0. */
void efi_time_from_unix(INT64 seconds, EFI_TIME *time);

#endif
