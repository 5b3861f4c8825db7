/* The console resolution setting (settings.h): what the GOP offers, and the size the
 * graphics drivers set at their next Start (drivers/gop_front: gop_front_set_boot_mode). */
#include "settings.h"
#include <efi/protocol/graphics_output.h>
#include <ember/lib/guids.h>

/* The console's GOP: on ConOut's handle, else the first there is. */
static EFI_GRAPHICS_OUTPUT_PROTOCOL *console_gop(void)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;

	if (!EFI_ERROR(app_bs->HandleProtocol(app_st->ConsoleOutHandle,
					      (EFI_GUID *)&efi_graphics_output_protocol_guid,
					      (void **)&gop)))
		return gop;
	if (!EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_graphics_output_protocol_guid, NULL,
					      (void **)&gop)))
		return gop;
	return NULL;
}

static bool listed(const struct settings_mode *modes, UINTN count, UINT32 w, UINT32 h)
{
	for (UINTN i = 0; i < count; i++)
		if (modes[i].width == w && modes[i].height == h)
			return true;
	return false;
}

EFI_STATUS settings_modes(struct settings_mode *modes, UINTN max, UINTN *count,
			  struct settings_mode *current)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = console_gop();
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	UINTN size;

	*count = 0;
	if (!gop)
		return EFI_NOT_FOUND;
	current->width = gop->Mode->Info->HorizontalResolution;
	current->height = gop->Mode->Info->VerticalResolution;
	for (UINT32 n = 0; n < gop->Mode->MaxMode && *count < max; n++) {
		if (EFI_ERROR(gop->QueryMode(gop, n, &size, &info)))
			continue;
		if (!listed(modes, *count, info->HorizontalResolution, info->VerticalResolution))
			modes[(*count)++] = (struct settings_mode){info->HorizontalResolution,
								   info->VerticalResolution};
		app_free(info);
	}
	return EFI_SUCCESS;
}

bool settings_resolution_get(struct settings_mode *mode)
{
	struct ember_console_resolution value;
	UINTN size = sizeof(value);

	if (EFI_ERROR(app_rt->GetVariable(EMBER_CONSOLE_RESOLUTION_VARIABLE,
					  (EFI_GUID *)&ember_settings_guid, NULL, &size, &value)) ||
	    size != sizeof(value) || !value.width || !value.height)
		return false;
	*mode = (struct settings_mode){value.width, value.height};
	return true;
}

EFI_STATUS settings_resolution_set(const struct settings_mode *mode)
{
	struct ember_console_resolution value = {mode->width, mode->height};
	EFI_STATUS status;

	if (!mode->width) {
		status = app_rt->SetVariable(EMBER_CONSOLE_RESOLUTION_VARIABLE,
					     (EFI_GUID *)&ember_settings_guid, 0, 0, NULL);
		return status == EFI_NOT_FOUND ? EFI_SUCCESS : status;
	}
	if (!mode->height)
		return EFI_INVALID_PARAMETER;
	return app_rt->SetVariable(EMBER_CONSOLE_RESOLUTION_VARIABLE,
				   (EFI_GUID *)&ember_settings_guid, EMBER_SETTINGS_ATTRIBUTES,
				   sizeof(value), &value);
}
