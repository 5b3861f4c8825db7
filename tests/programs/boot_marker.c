/* A boot option's program for the setup screen's tests: prints "boot-marker: " and the file
 * path it was loaded from (copies of it at different paths tell which option booted).
 * Loaded as the removable-media file (\EFI\BOOT\BOOTX64.EFI), it asks for the firmware's setup
 * screen instead, as Linux's `systemctl reboot --firmware-setup` does: when OsIndicationsSupported
 * has EFI_OS_INDICATIONS_BOOT_TO_FW_UI it sets that bit in OsIndications and resets. */
#include <efi.h>
#include <efilib.h>

#define BOOT_TO_FW_UI 1ULL

static EFI_GUID global = EFI_GLOBAL_VARIABLE;

static void ask_for_setup(void)
{
	UINT64 supported = 0, indications = BOOT_TO_FW_UI;
	UINTN size = sizeof(supported);
	UINT32 attributes = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
			    EFI_VARIABLE_RUNTIME_ACCESS;
	EFI_STATUS status;

	status = uefi_call_wrapper(RT->GetVariable, 5, L"OsIndicationsSupported", &global, NULL,
				   &size, &supported);
	Print(L"boot-marker: OsIndicationsSupported %r %lx\n", status, supported);
	if (EFI_ERROR(status) || !(supported & BOOT_TO_FW_UI))
		return;
	status = uefi_call_wrapper(RT->SetVariable, 5, L"OsIndications", &global, attributes,
				   sizeof(indications), &indications);
	Print(L"boot-marker: OsIndications set %r; resetting\n", status);
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetCold, EFI_SUCCESS, 0, NULL);
}

static BOOLEAN contains(const CHAR16 *s, const CHAR16 *word)
{
	for (; *s; s++) {
		UINTN i = 0;
		while (word[i] && s[i] == word[i])
			i++;
		if (!word[i])
			return TRUE;
	}
	return FALSE;
}

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li;
	CHAR16 *path;

	InitializeLib(image, systab);
	uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	path = DevicePathToStr(li->FilePath);
	Print(L"boot-marker: %s\n", path);
	if (contains(path, L"BOOTX64"))
		ask_for_setup();
	return EFI_SUCCESS;
}
