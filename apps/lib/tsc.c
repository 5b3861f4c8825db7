/* The time-stamp counter: apps/lib/tsc.h. */
#include "tsc.h"
#include "app.h"

UINT64 app_tsc(void)
{
#if defined(__aarch64__)
	UINT64 count;

	/* The generic timer's virtual count, the AArch64 counterpart of the TSC. */
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(count));
	return count;
#else
	return __builtin_ia32_rdtsc();
#endif
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
