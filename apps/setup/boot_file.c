/* The boot page's file actions: add a boot option for a file chosen with the picker, or
 * start such a file now (UEFI 2.10, 7.4 LoadImage and StartImage). */
#include "boot_page.h"
#include "ui.h"
#include "../lib/devpath.h"
#include <ember/lib/guids.h>

#define PATH_UNITS 256

/* The volume's device path and a file-path node. */
EFI_DEVICE_PATH_PROTOCOL *boot_file_path(EFI_HANDLE volume, const CHAR16 *path)
{
	EFI_DEVICE_PATH_PROTOCOL *device, *file, *whole;

	if (EFI_ERROR(app_bs->HandleProtocol(volume, (EFI_GUID *)&efi_device_path_protocol_guid,
					     (void **)&device)))
		return NULL;
	file = dp_file_path(path);
	if (!file)
		return NULL;
	whole = dp_append(device, file);
	app_free(file);
	return whole;
}

/* The last part of a path: the new option's description. */
static const CHAR16 *base_name(const CHAR16 *path)
{
	const CHAR16 *base = path;

	for (; *path; path++)
		if (*path == '\\')
			base = path + 1;
	return base;
}

/* Adds an option for a chosen file, then rebuilds the forms to show it. */
EFI_STATUS boot_file_add(EFI_BROWSER_ACTION_REQUEST *request)
{
	static CHAR16 path[PATH_UNITS];
	EFI_DEVICE_PATH_PROTOCOL *whole;
	EFI_HANDLE volume;
	EFI_STATUS status;

	status =
	    setup_pick_file("Add a boot option: choose an EFI program", &volume, path, PATH_UNITS);
	if (EFI_ERROR(status))
		return status == EFI_ABORTED ? EFI_SUCCESS : status;
	whole = boot_file_path(volume, path);
	if (!whole)
		return EFI_OUT_OF_RESOURCES;
	status = boot_vars_add(whole, base_name(path));
	app_free(whole);
	if (!EFI_ERROR(status))
		setup_rebuild(SETUP_FORM_BOOT, request);
	return status;
}

/* Starts a chosen file; its status is shown until a key is pressed. */
EFI_STATUS boot_file_start(void)
{
	static CHAR16 path[PATH_UNITS];
	EFI_DEVICE_PATH_PROTOCOL *whole;
	EFI_HANDLE volume, image;
	EFI_STATUS status;
	EFI_INPUT_KEY key;
	UINTN cols, rows;
	char line[80];

	status =
	    setup_pick_file("Boot from a file: choose an EFI program", &volume, path, PATH_UNITS);
	if (EFI_ERROR(status))
		return status == EFI_ABORTED ? EFI_SUCCESS : status;
	whole = boot_file_path(volume, path);
	if (!whole)
		return EFI_OUT_OF_RESOURCES;
	app_st->ConOut->ClearScreen(app_st->ConOut);
	status = app_bs->LoadImage(FALSE, app_image, whole, NULL, 0, &image);
	app_free(whole);
	if (!EFI_ERROR(status))
		status = app_bs->StartImage(image, NULL, NULL);
	ui_size(&cols, &rows);
	format_sn(line, sizeof(line), "The program returned %r. Press a key.", status);
	ui_line(rows - 2, line, UI_SELECTED);
	ui_key(&key);
	return EFI_SUCCESS;
}
