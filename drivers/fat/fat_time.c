/* FAT dates and times (local time, 2-second resolution plus a 10 ms field for creation;
 * 1980-01-01 to 2107-12-31) and EFI_TIME. */
#include "fat_format.h"
#include <ember/lib/str.h>

static UINT8 days_in_month(UINT32 year, UINT32 month)
{
	static const UINT8 days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return (UINT8)(days[month - 1] + (month == 2 && leap));
}

void fat_time_encode(const EFI_TIME *t, UINT16 *date, UINT16 *time, UINT8 *tenths)
{
	if (t->Year < 1980 || t->Month < 1 || t->Month > 12 || t->Day < 1) {
		*date = 1 << 5 | 1; /* 1980-01-01 00:00:00 */
		*time = 0;
		*tenths = 0;
		return;
	}
	if (t->Year > 2107) {
		*date = 127 << 9 | 12 << 5 | 31;
		*time = 23 << 11 | 59 << 5 | 29;
		*tenths = 100;
		return;
	}
	*date = (UINT16)((t->Year - 1980) << 9 | t->Month << 5 | t->Day);
	*time = (UINT16)(MIN(t->Hour, 23) << 11 | MIN(t->Minute, 59) << 5 | MIN(t->Second, 59) / 2);
	*tenths = (UINT8)(MIN(t->Second, 59) % 2 * 100 + MIN(t->Nanosecond, 999999999u) / 10000000);
}

void fat_time_decode(UINT16 date, UINT16 time, UINT8 tenths, EFI_TIME *t)
{
	UINT32 day = date & 31, month = date >> 5 & 15, year = 1980 + (date >> 9);
	UINT32 hour = time >> 11, minute = time >> 5 & 63, seconds = (time & 31) * 2;

	mem_set(t, 0, sizeof(*t));
	if (day == 0 || month == 0 || month > 12 || day > days_in_month(year, month))
		return;
	t->Year = (UINT16)year;
	t->Month = (UINT8)month;
	t->Day = (UINT8)day;
	if (hour < 24 && minute < 60 && seconds < 60) {
		t->Hour = (UINT8)hour;
		t->Minute = (UINT8)minute;
		t->Second = (UINT8)seconds;
		if (tenths < 200) {
			t->Second = (UINT8)(seconds + tenths / 100);
			t->Nanosecond = (UINT32)(tenths % 100) * 10000000;
		}
	}
	t->TimeZone = EFI_UNSPECIFIED_TIMEZONE;
}
