/* Executes an instruction a program may not: "privileged" runs HLT (ring 0 only), anything
 * else runs UD2. ember-run must report it, not hang or die silently. */
#include <efi.h>
#include <efilib.h>

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li;
	CHAR16 *arg;

	InitializeLib(image, systab);
	uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	arg = li->LoadOptions;
	while (arg && *arg && *arg != L' ')
		arg++;
	if (arg && *arg == L' ' && StrCmp(arg + 1, L"privileged") == 0)
		__asm__ __volatile__("hlt");
	else
		__asm__ __volatile__("ud2");
	return EFI_SUCCESS;
}
