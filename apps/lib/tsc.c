/* The time-stamp counter: apps/lib/tsc.h. */
#include "tsc.h"
#include "app.h"

UINT64 app_tsc(void)
{
	return __builtin_ia32_rdtsc();
}

UINT64 app_tsc_hz(void)
{
	static UINT64 hz;

	if (!hz) {
		UINT64 start = app_tsc();

		app_bs->Stall(100000);
		hz = (app_tsc() - start) * 10;
	}
	return hz;
}
