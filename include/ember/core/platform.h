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

/* Gives the pages [start, start + pages * 4 KiB) exactly the access attributes
 * (EFI_MEMORY_RP, EFI_MEMORY_RO, EFI_MEMORY_XP; 0 for read, write and execute) in the
 * processor's page tables. The core calls it for memory in its map once
 * mem_protection_start has run; EFI_OUT_OF_RESOURCES when page tables could not be
 * split, EFI_UNSUPPORTED when the machine cannot protect memory at all. */
EFI_STATUS plat_memory_protect(uint64_t start, uint64_t pages, uint64_t attributes);

/* Called once ExitBootServices has succeeded: stop the timer interrupt and device DMA. */
void plat_exit_boot_services(void);

#endif
