/* A program with a bug: it reads through a NULL pointer (a structure that was never
 * found). The firmware reports it; with --keep-going (ember-run) or from a boot option
 * (QEMU) the program ends as if it had called Exit(EFI_ABORTED) and the rest goes on. */
#include <efi.h>
#include <efilib.h>

struct config {
	UINT64 magic;
	UINT64 flags;
};

static struct config *volatile found; /* never set */

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	Print(L"null_pointer: reading a NULL pointer\n");
	if (found->flags == 0x1234)
		Print(L"null_pointer: still running\n");
	Print(L"null_pointer: still running\n");
	return EFI_SUCCESS;
}
