/* Stall (UEFI 2.10, section 7.5): a busy wait that lets timer interrupts run. */
#include "../services.h"
#include <ember/core/platform.h>
#include <ember/lib/arch.h>

/* Waits longer than this idle the CPU between interrupts instead of spinning. */
#define IDLE_THRESHOLD_NS 2000000ULL

void core_stall_us(UINT64 microseconds)
{
	UINT64 start = plat_monotonic_ns();
	UINT64 wait = microseconds > UINT64_MAX / 1000 ? UINT64_MAX / 2 : microseconds * 1000;

	for (;;) {
		UINT64 elapsed = plat_monotonic_ns() - start;
		if (elapsed >= wait)
			break;
		if (wait - elapsed > IDLE_THRESHOLD_NS && tpl_current() < TPL_HIGH_LEVEL)
			plat_idle();
		else
			arch_cpu_relax();
	}
}

EFI_STATUS EFIAPI efi_stall(UINTN microseconds)
{
	core_stall_us(microseconds);
	return EFI_SUCCESS;
}
