/* Images from Ember's firmware volume are platform code (PI 1.8 volume 2, 10.3; TCG PC
 * Client PFP 1.05, 3.3.4.1): measured into PCR 0 with the platform's other code, not into
 * PCR 2 or 4 as code from outside the firmware, by their Authenticode digest with a
 * UEFI_IMAGE_LOAD_EVENT naming the image by its Fv()/FvFile() path. Secure Boot does not
 * judge them (core/image/load.c), as it does not judge the rest of the firmware. */
#define LOG_PREFIX "fv: "
#include "fv_internal.h"
#include <ember/core/log.h>
#include <ember/core/pe.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>

void fv_measure_image(const void *file, UINTN file_size, UINT16 subsystem, UINT64 base,
		      UINT64 size_in_memory, UINT64 link_address,
		      const EFI_DEVICE_PATH_PROTOCOL *path)
{
	UINTN path_size = path ? dp_size(path) : 0;
	UINT32 event_size = (UINT32)(sizeof(UEFI_IMAGE_LOAD_EVENT) + path_size);
	UINT32 type = subsystem == EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER
			  ? EV_EFI_BOOT_SERVICES_DRIVER
		      : subsystem == EFI_IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER
			  ? EV_EFI_RUNTIME_SERVICES_DRIVER
			  : EV_EFI_BOOT_SERVICES_APPLICATION;
	UEFI_IMAGE_LOAD_EVENT *event;
	EFI_STATUS status;

	if (!measure_enabled())
		return;
	event = pool_alloc(event_size);
	if (!event) {
		log_warn("image from the volume not measured: no memory\n");
		return;
	}
	*event = (UEFI_IMAGE_LOAD_EVENT){base, size_in_memory, link_address, path_size};
	if (path_size)
		mem_copy(event + 1, path, path_size);
	status = measure_pe_image(PCR_PLATFORM_CODE, type, file, file_size, event, event_size);
	if (EFI_ERROR(status))
		log_warn("image from the volume not measured into PCR 0: %r\n", status);
	pool_free(event);
}
