/* Converts its argument (the command line after the program's name) with
 * EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL.ConvertTextToDevicePath, as a boot manager or a shell
 * does with text a user typed: prints "parsed" and returns EFI_SUCCESS, or prints
 * "refused" and returns EFI_INVALID_PARAMETER. For the debug trail of the parser. */
#include <efi.h>
#include <efilib.h>

static EFI_GUID from_text_guid = EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL_GUID;

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li;
	EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL *from_text;
	EFI_DEVICE_PATH_PROTOCOL *path;
	CHAR16 *text;

	InitializeLib(image, systab);
	uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(uefi_call_wrapper(BS->LocateProtocol, 3, &from_text_guid, NULL,
					(void **)&from_text)) ||
	    !li->LoadOptions)
		return EFI_UNSUPPORTED;
	text = li->LoadOptions;
	while (*text && *text != L' ')
		text++;
	while (*text == L' ')
		text++;
	path = (EFI_DEVICE_PATH_PROTOCOL *)(UINTN)uefi_call_wrapper(
	    from_text->ConvertTextToDevicePath, 1, text);
	if (!path) {
		Print(L"refused\n");
		return EFI_INVALID_PARAMETER;
	}
	Print(L"parsed\n");
	FreePool(path);
	return EFI_SUCCESS;
}
