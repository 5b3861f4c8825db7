/* The firmware's own image handle: the parent of the images the platform loads, and the
 * agent for the core's own protocol opens (as HandleProtocol records them). */
#include "image.h"
#include "../services.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

EFI_HANDLE core_image_handle;

EFI_STATUS image_init(void)
{
	struct image *img = pool_alloc(sizeof(*img));
	EFI_STATUS status;

	if (!img)
		return EFI_OUT_OF_RESOURCES;
	img->signature = IMAGE_SIGNATURE;
	img->started = true;
	img->pe.subsystem = EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER; /* it stays */
	img->loaded = (EFI_LOADED_IMAGE_PROTOCOL){
	    .Revision = EFI_LOADED_IMAGE_PROTOCOL_REVISION,
	    .SystemTable = core_st,
	    .ImageCodeType = EfiBootServicesCode,
	    .ImageDataType = EfiBootServicesData,
	};
	mem_copy(img->name, "ember", 6);
	status = protocol_install(&img->handle, &efi_loaded_image_protocol_guid, &img->loaded);
	if (EFI_ERROR(status)) {
		pool_free(img);
		return status;
	}
	list_add_tail(&img->link, &image_list);
	core_image_handle = img->handle;
	return EFI_SUCCESS;
}
