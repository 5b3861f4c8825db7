/* Runs an undefined instruction: the firmware must report the exception on the serial
 * port (class, PC, registers) and halt. */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	st->ConOut->OutputString(st->ConOut, u"about to fault\r\n");
	__asm__ __volatile__("udf #0x42");
	return EFI_SUCCESS;
}
