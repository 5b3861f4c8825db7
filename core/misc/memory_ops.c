/* CalculateCrc32, CopyMem and SetMem (UEFI 2.10, section 7.5). */
#include "../services.h"
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>

EFI_STATUS EFIAPI efi_calculate_crc32(VOID *data, UINTN size, UINT32 *crc)
{
	if (!data || !crc || size == 0)
		return EFI_INVALID_PARAMETER;
	*crc = crc32(data, size);
	return EFI_SUCCESS;
}

VOID EFIAPI efi_copy_mem(VOID *destination, VOID *source, UINTN length)
{
	mem_copy(destination, source, length);
}

VOID EFIAPI efi_set_mem(VOID *buffer, UINTN size, UINT8 value)
{
	mem_set(buffer, value, size);
}
