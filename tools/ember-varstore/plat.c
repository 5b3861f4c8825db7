/* The platform API for ember-varstore: the tool links the firmware's code to use its
 * variable store, but runs none of the core, so these only have to exist (the absent
 * wake-up alarm comes from platform/common/clock.c). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <ember/core/platform.h>

void plat_log_write(const char *s, size_t n)
{
	fwrite(s, 1, n, stderr);
}

uint64_t plat_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool plat_interrupts_disable(void)
{
	return false;
}

void plat_interrupts_enable(void)
{
}

void plat_idle(void)
{
}

EFI_STATUS plat_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS plat_set_time(const EFI_TIME *time)
{
	return EFI_UNSUPPORTED;
}

_Noreturn void plat_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, const void *data)
{
	exit(EFI_ERROR(status) ? 1 : 0);
}

void plat_exit_boot_services(void)
{
}

EFI_STATUS plat_memory_protect(uint64_t start, uint64_t pages, uint64_t attributes)
{
	return EFI_UNSUPPORTED; /* never started: the tool runs no programs */
}
