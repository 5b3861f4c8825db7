/* The application's view of the firmware: image handle, tables, pool helpers. */
#include "app.h"

EFI_HANDLE app_image;
EFI_SYSTEM_TABLE *app_st;
EFI_BOOT_SERVICES *app_bs;
EFI_RUNTIME_SERVICES *app_rt;

void app_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_image = image;
	app_st = st;
	app_bs = st->BootServices;
	app_rt = st->RuntimeServices;
	app_set_output(NULL, NULL);
}

void app_forget_boot_services(void)
{
	app_bs = NULL;
}

_Noreturn void app_halt(void)
{
	for (;;)
#if defined(__aarch64__)
		__asm__ volatile("wfi");
#else
		__asm__ volatile("hlt");
#endif
}

void *app_alloc(size_t size)
{
	void *p = NULL;

	if (!app_bs || EFI_ERROR(app_bs->AllocatePool(EfiLoaderData, size, &p)))
		return NULL;
	return p;
}

void *app_zalloc(size_t size)
{
	void *p = app_alloc(size);

	if (p)
		mem_set(p, 0, size);
	return p;
}

void app_free(void *p)
{
	if (p && app_bs)
		app_bs->FreePool(p);
}

bool app_firmware_is(const char *name)
{
	const CHAR16 *vendor = app_st->FirmwareVendor;
	size_t n = str8_len(name);

	if (!vendor)
		return false;
	for (; *vendor; vendor++) {
		size_t i = 0;
		while (i < n && vendor[i] == (CHAR16)(unsigned char)name[i])
			i++;
		if (i == n)
			return true;
	}
	return false;
}

void app_command_line(char *line, size_t size)
{
	EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image;

	line[0] = 0;
	if (!EFI_ERROR(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image)) &&
	    image->LoadOptions)
		ucs2_to_utf8(line, size, image->LoadOptions,
			     image->LoadOptionsSize / sizeof(CHAR16));
}

bool app_has_arg(const char *word)
{
	EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image = NULL;
	const CHAR16 *opt;
	UINTN units, n = str8_len(word);

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image)) ||
	    !image->LoadOptions)
		return false;
	opt = image->LoadOptions;
	units = image->LoadOptionsSize / sizeof(CHAR16);
	for (UINTN i = 0; i + n <= units; i++) {
		UINTN j = 0;

		while (j < n && opt[i + j] == (CHAR16)word[j])
			j++;
		if (j == n)
			return true;
	}
	return false;
}
