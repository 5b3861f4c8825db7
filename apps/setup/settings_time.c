/* Date and time (settings.h): the runtime clock, as GetTime and SetTime keep it. */
#include "settings.h"

EFI_STATUS settings_time_get(EFI_TIME *time)
{
	return app_rt->GetTime(time, NULL);
}

EFI_STATUS settings_time_set(UINT16 year, UINT8 month, UINT8 day, UINT8 hour, UINT8 minute,
			     UINT8 second)
{
	EFI_TIME time;
	EFI_STATUS status = settings_time_get(&time);

	if (EFI_ERROR(status))
		return status;
	time.Year = year;
	time.Month = month;
	time.Day = day;
	time.Hour = hour;
	time.Minute = minute;
	time.Second = second;
	time.Nanosecond = 0;
	/* SetTime checks the date (8.3.2: EFI_INVALID_PARAMETER for one out of range). */
	return app_rt->SetTime(&time);
}
