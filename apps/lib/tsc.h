/* The time-stamp counter as the applications' clock (benchmarks, waits): read it, and its
 * rate measured once against Stall(). */
#ifndef APP_LIB_TSC_H
#define APP_LIB_TSC_H

#include <efi/efi.h>

/* The counter now. */
UINT64 app_tsc(void);

/* Ticks per second, measured over a 100 ms Stall() at the first call. */
UINT64 app_tsc_hz(void);

#endif
