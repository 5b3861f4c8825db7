/* The article's first program, for AArch64, with Ember's UEFI headers (gnu-efi's arm64
 * package is not installed): ConOut->OutputString. */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *conout = systab->ConOut;

	conout->OutputString(conout, u"Hello World!\n\r");
	return EFI_SUCCESS;
}
