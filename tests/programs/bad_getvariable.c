/* A buggy loader: it asks GetVariable to fill a buffer it never allocated, a NULL pointer
 * plus the offset of a field (0x10). The fault happens inside the firmware's code, in a
 * call the program made: the firmware reports it and ends the program (with --keep-going
 * on ember-run, always on QEMU), not itself. */
#include <efi.h>
#include <efilib.h>

/* On AArch64 page 0 is the code flash, which takes writes as commands: there the pointer
 * lies past the 1 TiB the page tables map, where it faults as page 0 does on x86-64. */
#ifdef __aarch64__
#define BAD_DATA 0x00000dead0000010ULL
#else
#define BAD_DATA 0x10ULL
#endif

static EFI_GUID guid = {
    0x6c1f53bd, 0x5a42, 0x4d0e, {0x8a, 0x0d, 0x43, 0x21, 0x9a, 0x7e, 0x51, 0x02}};

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	UINT32 value = 0x12345678;
	UINTN size = sizeof(value);
	EFI_STATUS status;

	InitializeLib(image, systab);
	status = uefi_call_wrapper(RT->SetVariable, 5, L"EmberCrashTest", &guid,
				   EFI_VARIABLE_BOOTSERVICE_ACCESS, sizeof(value), &value);
	if (EFI_ERROR(status)) {
		Print(L"bad_getvariable: SetVariable: %r\n", status);
		return status;
	}
	Print(L"bad_getvariable: calling GetVariable with Data at 0x%lx\n", BAD_DATA);
	status = uefi_call_wrapper(RT->GetVariable, 5, L"EmberCrashTest", &guid, NULL, &size,
				   (VOID *)(UINTN)BAD_DATA);
	Print(L"bad_getvariable: GetVariable returned %r\n", status);
	return EFI_SUCCESS;
}
