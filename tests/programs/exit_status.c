/* Returns the status given as its first argument's name ("not-found", "success", ...);
 * for "exit", leaves through BS->Exit with exit data; for "watchdog", arms a one-second
 * watchdog and hangs. For ember-run's exit codes. */
#include <efi.h>
#include <efilib.h>

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li;
	CHAR16 *options, *arg;
	static CHAR16 message[] = L"leaving through Exit";

	InitializeLib(image, systab);
	uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	options = li->LoadOptions;
	if (!options)
		return EFI_INVALID_PARAMETER;
	arg = options;
	while (*arg && *arg != L' ')
		arg++;
	while (*arg == L' ')
		arg++;
	if (StrCmp(arg, L"success") == 0)
		return EFI_SUCCESS;
	if (StrCmp(arg, L"not-found") == 0)
		return EFI_NOT_FOUND;
	if (StrCmp(arg, L"watchdog") == 0) {
		/* One second, then the firmware resets the "machine": spin until it does. */
		uefi_call_wrapper(BS->SetWatchdogTimer, 4, 1, 0x10000, 0, NULL);
		for (;;)
			;
	}
	if (StrCmp(arg, L"exit") == 0) {
		CHAR16 *data;
		uefi_call_wrapper(BS->AllocatePool, 3, EfiBootServicesData, sizeof(message),
				  (void **)&data);
		CopyMem(data, message, sizeof(message));
		uefi_call_wrapper(BS->Exit, 4, image, EFI_ABORTED, sizeof(message), data);
	}
	Print(L"args: [%s]\n", options);
	return EFI_SUCCESS;
}
