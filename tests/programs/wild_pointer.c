/* A program with a bug: it writes through a pointer to nowhere. The firmware must report
 * where (this image, this offset), not die silently. */
#include <efi.h>
#include <efilib.h>

static volatile UINT64 *target = (UINT64 *)0x00000dead0000000ULL;

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	Print(L"about to write through a wild pointer\n");
	*target = 0x1234;
	return EFI_SUCCESS;
}
