/* mp-test's "exit" mode: after the tests, ExitBootServices, then the BSP halts. Its "boot"
 * mode: after the tests, the firmware's removable-media program
 * (\EFI\BOOT\BOOTX64.EFI) of the first file system that has one is started, so an OS
 * boots on processors the firmware used (tests/qemu/test_linux.py: Linux brings up the
 * APs mp-test ran procedures on, after the firmware's ExitBootServices parked them). */
#include "mp_test.h"
#include "../lib/devpath.h"
#include <efi/protocol/loaded_image.h>
#include <ember/lib/guids.h>

/* Whether the command line (LoadOptions) holds `word` (4 letters) after the program's name. */
static bool has_word(const char *word)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
	const CHAR16 *p, *end;

	if (app_bs->HandleProtocol(app_image, (EFI_GUID *)&efi_loaded_image_protocol_guid,
				   (void **)&li) != EFI_SUCCESS ||
	    !li->LoadOptions)
		return false;
	p = li->LoadOptions;
	end = p + li->LoadOptionsSize / sizeof(CHAR16);
	for (; p + 4 <= end; p++)
		if (p[0] == (CHAR16)word[0] && p[1] == (CHAR16)word[1] && p[2] == (CHAR16)word[2] &&
		    p[3] == (CHAR16)word[3] && (p + 4 == end || p[4] == u' ' || p[4] == 0))
			return true;
	return false;
}

bool mp_test_boot_mode(void)
{
	return has_word("boot");
}

bool mp_test_exit_mode(void)
{
	return has_word("exit");
}

/* Leaves boot services and stops (tests/qemu/test_mp.py then looks at the APs). */
void mp_test_exit_and_stop(void)
{
	UINTN size = 0, key = 0, desc_size = 0;
	UINT32 version;
	void *map = NULL;

	app_print("mp-test: ExitBootServices next\n");
	for (int tries = 0; tries < 4; tries++) {
		app_bs->GetMemoryMap(&size, NULL, &key, &desc_size, &version);
		size += 4096;
		map = app_alloc(size);
		if (map &&
		    app_bs->GetMemoryMap(&size, map, &key, &desc_size, &version) == EFI_SUCCESS &&
		    app_bs->ExitBootServices(app_image, key) == EFI_SUCCESS)
			for (;;)
				__asm__ __volatile__("cli; hlt");
		app_free(map);
	}
	app_print("mp-test: ExitBootServices failed\n");
}

static EFI_STATUS start_from(EFI_HANDLE fs)
{
	EFI_DEVICE_PATH_PROTOCOL *dev = NULL, *file, *full;
	EFI_HANDLE image = NULL;
	EFI_STATUS status;

	if (app_bs->HandleProtocol(fs, (EFI_GUID *)&efi_device_path_protocol_guid, (void **)&dev) !=
	    EFI_SUCCESS)
		return EFI_NOT_FOUND;
	file = dp_file_path(u"\\EFI\\BOOT\\BOOTX64.EFI");
	full = file ? dp_append(dev, file) : NULL;
	app_free(file);
	if (!full)
		return EFI_OUT_OF_RESOURCES;
	status = app_bs->LoadImage(TRUE, app_image, full, NULL, 0, &image);
	app_free(full);
	if (status != EFI_SUCCESS)
		return status;
	app_print("mp-test: starting the next program\n");
	return app_bs->StartImage(image, NULL, NULL);
}

void mp_test_boot_next(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (app_bs->LocateHandleBuffer(ByProtocol,
				       (EFI_GUID *)&efi_simple_file_system_protocol_guid, NULL,
				       &count, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < count; i++)
		if (start_from(handles[i]) != EFI_NOT_FOUND)
			break;
	app_bs->FreePool(handles);
	app_print("mp-test: nothing to boot\n");
}
