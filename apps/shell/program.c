/* Running .efi programs: LoadImage from the file's contents and device path, then
 * StartImage with EFI_SHELL_PARAMETERS_PROTOCOL on the child's handle. */
#include "../lib/devpath.h"
#include "internal.h"

static EFI_GUID params_guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;
static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

EFI_STATUS sh_load_image(struct shell *sh, const CHAR16 *name, EFI_HANDLE *image)
{
	EFI_DEVICE_PATH_PROTOCOL *path;
	void *data;
	UINTN size;
	EFI_STATUS status = sh_read_file(sh, name, &data, &size);

	if (EFI_ERROR(status))
		return status;
	path = sh_file_device_path(sh, name);
	/* With the file's bytes given, LoadImage takes the path only to record where it came
	 * from (DeviceHandle and FilePath of the LoadedImage). */
	status = app_bs->LoadImage(FALSE, sh->image, path, data, size, image);
	app_free(path);
	app_free(data);
	return status;
}

/* Sets LoadOptions to the command line, for programs that parse it themselves. */
static CHAR16 *set_load_options(EFI_HANDLE image, UINTN argc, CHAR16 **argv)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	CHAR16 *line = sh_join_words(argv, argc);

	if (line && !EFI_ERROR(app_bs->HandleProtocol(image, &loaded_image_guid, (void **)&li))) {
		li->LoadOptions = line;
		li->LoadOptionsSize = (UINT32)str16_size(line);
	}
	return line;
}

static bool still_loaded(EFI_HANDLE image)
{
	void *li;

	return !EFI_ERROR(app_bs->HandleProtocol(image, &loaded_image_guid, &li));
}

EFI_STATUS sh_start_image(struct shell *sh, EFI_HANDLE image, UINTN argc, CHAR16 **argv,
			  EFI_STATUS *exit_status)
{
	EFI_SHELL_PARAMETERS_PROTOCOL params = {argv, argc, &sh->in->file, &sh->out->file,
						&sh->err->file};
	EFI_HANDLE handle = image;
	struct sh_console_swap *swap;
	CHAR16 *exit_data = NULL, *line;
	UINTN exit_size = 0;
	EFI_STATUS status;

	line = set_load_options(image, argc, argv);
	status =
	    app_bs->InstallProtocolInterface(&handle, &params_guid, EFI_NATIVE_INTERFACE, &params);
	if (EFI_ERROR(status)) {
		app_free(line);
		return status;
	}
	swap = sh_console_swap_begin(sh);
	*exit_status = app_bs->StartImage(image, &exit_size, &exit_data);
	sh_console_swap_end(sh, swap);
	/* An application's image is gone now; a driver's stays, without our protocol. */
	app_bs->UninstallProtocolInterface(handle, &params_guid, &params);
	if (exit_data)
		app_free(exit_data);
	if (!still_loaded(image))
		app_free(line); /* a resident driver keeps its LoadOptions */
	return EFI_SUCCESS;
}

EFI_STATUS sh_run_program(struct shell *sh, const CHAR16 *full, UINTN argc, CHAR16 **argv)
{
	EFI_HANDLE image = NULL;
	EFI_STATUS exit_status, status = sh_load_image(sh, full, &image);

	if (EFI_ERROR(status)) {
		sh_error(sh, "%ls: cannot load %ls: %r\n", argv[0], full, status);
		return status;
	}
	status = sh_start_image(sh, image, argc, argv, &exit_status);
	if (EFI_ERROR(status)) {
		sh_error(sh, "%ls: cannot start: %r\n", argv[0], status);
		app_bs->UnloadImage(image);
		return status;
	}
	return exit_status;
}
