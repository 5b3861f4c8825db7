/* The article's second program: which graphics mode is running, through the Graphics
 * Output Protocol. InitializeLib is added so that gnu-efi's BS is set. */
#include <efi.h>
#include <efilib.h>

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_STATUS status;
	EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	UINTN size_of_info;

	InitializeLib(image, systab);
	status = uefi_call_wrapper(BS->LocateProtocol, 3, &gop_guid, NULL, (void **)&gop);
	if (EFI_ERROR(status)) {
		Print(L"LocateProtocol(GOP): %r\n", status);
		return status;
	}
	status = uefi_call_wrapper(gop->QueryMode, 4, gop, gop->Mode->Mode, &size_of_info, &info);
	if (EFI_ERROR(status)) {
		Print(L"QueryMode: %r\n", status);
		return status;
	}
	Print(L"Mode %d is running at %dx%d\n", gop->Mode->Mode, info->HorizontalResolution,
	      info->VerticalResolution);
	return EFI_SUCCESS;
}
