/* Asks for the firmware's setup screen at the next boot, as Linux's `systemctl reboot
 * --firmware-setup` does: when OsIndicationsSupported has EFI_OS_INDICATIONS_BOOT_TO_FW_UI
 * (UEFI 2.10, 8.5.4), sets that bit in OsIndications and resets. Booted as removable media
 * (\EFI\BOOT\BOOTAA64.EFI); the firmware opens its setup screen before booting it again. */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#define BOOT_TO_FW_UI 1ULL
#define ATTRIBUTES                                                                                 \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

static EFI_GUID global_guid = {
    0x8be4df61, 0x93ca, 0x11d2, {0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c}};

static void say(EFI_SYSTEM_TABLE *st, const CHAR16 *text)
{
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)text);
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_RUNTIME_SERVICES *rt = st->RuntimeServices;
	UINT64 supported = 0, indications = BOOT_TO_FW_UI;
	UINTN size = sizeof(supported);

	(void)image;
	if (rt->GetVariable(u"OsIndicationsSupported", &global_guid, NULL, &size, &supported) !=
		EFI_SUCCESS ||
	    !(supported & BOOT_TO_FW_UI)) {
		say(st, u"fw-ui: not supported\r\n");
		return EFI_UNSUPPORTED;
	}
	if (rt->SetVariable(u"OsIndications", &global_guid, ATTRIBUTES, sizeof(indications),
			    &indications) != EFI_SUCCESS) {
		say(st, u"fw-ui: cannot set OsIndications\r\n");
		return EFI_DEVICE_ERROR;
	}
	say(st, u"fw-ui: OsIndications set; resetting\r\n");
	rt->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	say(st, u"fw-ui: reset returned\r\n");
	return EFI_DEVICE_ERROR;
}
