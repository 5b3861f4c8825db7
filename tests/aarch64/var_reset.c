/* Checks that a non-volatile variable survives a reset: a counter, absent at the first
 * boot, is set and the machine reset (ResetSystem(EfiResetCold)) twice; at the third boot
 * it reads 2, is deleted and the machine powered off. Were the variables in RAM, every boot
 * would be the first and the machine would reset until the test's timeout. */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#define RESETS 2
#define ATTRIBUTES                                                                                 \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

static EFI_GUID test_guid = {
    0x5e0c7a1d, 0x42b9, 0x4c1e, {0x9d, 0x3a, 0x61, 0x0f, 0x27, 0xb8, 0xe4, 0x55}};
static CHAR16 name[] = u"EmberResetCount";

static void say(EFI_SYSTEM_TABLE *st, const CHAR16 *text)
{
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)text);
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_RUNTIME_SERVICES *rt = st->RuntimeServices;
	UINT8 count = 0;
	UINTN size = sizeof(count);
	UINT32 attributes;
	EFI_STATUS status = rt->GetVariable(name, &test_guid, &attributes, &size, &count);
	CHAR16 line[] = u"boot N\r\n";

	if (status == EFI_NOT_FOUND)
		count = 0;
	else if (status != EFI_SUCCESS || size != 1 || attributes != ATTRIBUTES) {
		say(st, u"variable: cannot read it\r\n");
		return EFI_DEVICE_ERROR;
	}
	line[5] = (CHAR16)(u'0' + count % 10);
	say(st, line);
	if (count < RESETS) {
		count++;
		if (rt->SetVariable(name, &test_guid, ATTRIBUTES, 1, &count) != EFI_SUCCESS) {
			say(st, u"variable: cannot write it\r\n");
			return EFI_DEVICE_ERROR;
		}
		say(st, u"reset: cold\r\n");
		rt->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	} else {
		say(st, u"variable: survived the resets\r\n");
		rt->SetVariable(name, &test_guid, 0, 0, NULL);
		rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	}
	say(st, u"reset: returned\r\n");
	return EFI_DEVICE_ERROR;
}
