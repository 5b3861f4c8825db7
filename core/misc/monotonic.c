/* GetNextMonotonicCount and GetNextHighMonotonicCount (UEFI 2.10, 7.5 and 8.4.1): the low
 * 32 bits count calls, the high 32 bits count wraps of the low half and platform resets. */
#include "../services.h"

static UINT64 monotonic_count;

EFI_STATUS EFIAPI efi_get_next_monotonic_count(UINT64 *count)
{
	EFI_TPL old;

	if (!count)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_HIGH_LEVEL);
	*count = monotonic_count++;
	tpl_restore(old);
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI efi_get_next_high_monotonic_count(UINT32 *high_count)
{
	if (!high_count)
		return EFI_INVALID_PARAMETER;
	monotonic_count = (monotonic_count & 0xffffffff00000000ULL) + (1ULL << 32);
	*high_count = (UINT32)(monotonic_count >> 32);
	return EFI_SUCCESS;
}
