/* Reads one key from ConIn (the PL011 through the terminal driver) and prints it back. */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_INPUT_KEY key;
	UINTN index;
	CHAR16 line[] = u"key: ?\r\n";

	st->ConOut->OutputString(st->ConOut, u"press a key\r\n");
	if (st->BootServices->WaitForEvent(1, &st->ConIn->WaitForKey, &index) != EFI_SUCCESS ||
	    st->ConIn->ReadKeyStroke(st->ConIn, &key) != EFI_SUCCESS)
		return EFI_DEVICE_ERROR;
	line[5] = key.UnicodeChar;
	st->ConOut->OutputString(st->ConOut, line);
	return EFI_SUCCESS;
}
