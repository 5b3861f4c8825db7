/* The clock's capabilities and the absent wake-up alarm, for the platforms whose clock
 * counts seconds and who have no alarm (ember-run, QEMU's AArch64 virt with its PL031). */
#include <ember/core/platform.h>
#include <ember/core/platform_common.h>

void plat_seconds_clock_capabilities(EFI_TIME_CAPABILITIES *capabilities)
{
	*capabilities =
	    (EFI_TIME_CAPABILITIES){.Resolution = 1,
				    .Accuracy = 50000000 /* 50 ppm, in parts per 10^12 */,
				    .SetsToZero = FALSE};
}

/* An alarm that never rings would lie to the caller: the RT properties table leaves
 * GetWakeupTime and SetWakeupTime out. */
bool plat_has_wakeup_alarm(void)
{
	return false;
}

EFI_STATUS plat_get_wakeup_time(BOOLEAN *enabled, BOOLEAN *pending, EFI_TIME *time)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS plat_set_wakeup_time(BOOLEAN enable, const EFI_TIME *time)
{
	return EFI_UNSUPPORTED;
}
