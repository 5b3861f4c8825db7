/* A boot application for the measured-boot tests: says it ran, then powers the machine off,
 * so that nothing is measured after it and the TPM's PCRs are final when QEMU ends. */
#include <efi.h>
#include <efilib.h>

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	Print(L"measured app ran\n");
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
