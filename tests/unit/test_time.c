/* Calendar arithmetic (lib/time.c) against the host's gmtime_r. */
#include <time.h>

#include "support/test.h"
#include <ember/lib/time.h>

TEST(calendar_against_libc)
{
	/* Every 7919th day from 1900 to 9999, compared with gmtime_r. */
	for (INT64 t = -2208988800LL; t < 253402300799LL; t += 86400LL * 7919 + 3599) {
		EFI_TIME e;
		struct tm tm;
		time_t tt = (time_t)t;
		efi_time_from_unix(t, &e);
		gmtime_r(&tt, &tm);
		if (!EXPECT(e.Year == tm.tm_year + 1900 && e.Month == tm.tm_mon + 1 &&
			    e.Day == tm.tm_mday && e.Hour == tm.tm_hour && e.Minute == tm.tm_min &&
			    e.Second == tm.tm_sec))
			break;
		EXPECT_EQ(efi_time_to_unix(&e), t);
	}
}
