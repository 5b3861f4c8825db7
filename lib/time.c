/* Days from civil dates and back, with the era arithmetic that keeps it exact for every
 * year EFI_TIME can hold. */
#include <ember/lib/time.h>

static INT64 days_from_civil(INT64 y, unsigned m, unsigned d)
{
	y -= m <= 2;
	INT64 era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (INT64)doe - 719468;
}

INT64 efi_time_to_unix(const EFI_TIME *t)
{
	INT64 days = days_from_civil(t->Year, t->Month, t->Day);

	return days * 86400 + t->Hour * 3600 + t->Minute * 60 + t->Second;
}

void efi_time_from_unix(INT64 seconds, EFI_TIME *t)
{
	INT64 days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
	INT64 rem = seconds - days * 86400;
	INT64 z = days + 719468;
	INT64 era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	unsigned d = doy - (153 * mp + 2) / 5 + 1;
	unsigned m = mp < 10 ? mp + 3 : mp - 9;

	*t = (EFI_TIME){0};
	t->Year = (UINT16)(yoe + era * 400 + (m <= 2));
	t->Month = (UINT8)m;
	t->Day = (UINT8)d;
	t->Hour = (UINT8)(rem / 3600);
	t->Minute = (UINT8)(rem / 60 % 60);
	t->Second = (UINT8)(rem % 60);
	t->TimeZone = EFI_UNSPECIFIED_TIMEZONE;
}
