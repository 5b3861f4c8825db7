/* The platform API: what the core asks of the machine it runs on.
 * Each platform (platform/qemu-x86_64, platform/hosted, the unit-test platform)
 * implements every function here; the core calls nothing else outside itself. */
#ifndef EMBER_PLATFORM_H
#define EMBER_PLATFORM_H

#include <stdbool.h>
#include <efi/runtime_services.h>

/* Writes raw bytes to the platform's log channel (stderr, debug console, serial). */
void plat_log_write(const char *s, size_t n);

/* A monotonic clock in nanoseconds; safe to call with interrupts disabled. */
uint64_t plat_monotonic_ns(void);

/* Interrupt masking. The core raises to TPL_HIGH_LEVEL with these. */
bool plat_interrupts_disable(void); /* returns whether they were enabled */
void plat_interrupts_enable(void);

/* Waits for the next interrupt (or a short while); called with interrupts enabled. */
void plat_idle(void);

/* The real-time clock, as GetTime/SetTime define it. */
EFI_STATUS plat_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities);
EFI_STATUS plat_set_time(const EFI_TIME *time);

/* ResetSystem: never returns. */
_Noreturn void plat_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size,
			  const void *data);

/* Called once ExitBootServices has succeeded: stop the timer interrupt and device DMA. */
void plat_exit_boot_services(void);

#endif
