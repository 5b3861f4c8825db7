/* Images from outside the firmware (PFP 1.05 3.3.4.3, 3.3.4.5, 10.4.3): boot applications
 * into PCR 4 as EV_EFI_BOOT_SERVICES_APPLICATION, drivers (option ROMs, drivers from disks)
 * into PCR 2 as EV_EFI_BOOT_SERVICES_DRIVER or EV_EFI_RUNTIME_SERVICES_DRIVER. The digest is
 * the file's Authenticode digest, the one its signature signs (and sbverify shows). */
#define LOG_PREFIX "measure: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/core/pe.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>

static void image_event_kind(UINT16 subsystem, UINT32 *pcr, UINT32 *type)
{
	*pcr = PCR_DRIVER_CODE;
	if (subsystem == EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER) {
		*type = EV_EFI_BOOT_SERVICES_DRIVER;
	} else if (subsystem == EFI_IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER) {
		*type = EV_EFI_RUNTIME_SERVICES_DRIVER;
	} else {
		*pcr = PCR_BOOT_MANAGER_CODE;
		*type = EV_EFI_BOOT_SERVICES_APPLICATION;
	}
}

void measure_image(const void *file, UINTN file_size, UINT16 subsystem, UINT64 base,
		   UINT64 size_in_memory, UINT64 link_address, const EFI_DEVICE_PATH_PROTOCOL *path)
{
	UINTN path_size = path ? dp_size(path) : 0;
	UEFI_IMAGE_LOAD_EVENT *event;
	UINT32 pcr, type, event_size = (UINT32)(sizeof(*event) + path_size);
	EFI_STATUS status;

	if (!measure_enabled())
		return;
	/* Nothing from outside runs before the policy it runs under is measured. */
	measure_secure_boot_policy();
	measure_gpt(path);
	image_event_kind(subsystem, &pcr, &type);
	event = pool_alloc(event_size);
	if (!event) {
		log_warn("image not measured: no memory\n");
		return;
	}
	*event = (UEFI_IMAGE_LOAD_EVENT){base, size_in_memory, link_address, path_size};
	if (path_size)
		mem_copy(event + 1, path, path_size);
	status = measure_pe_image(pcr, type, file, file_size, event, event_size);
	if (EFI_ERROR(status))
		log_warn("image into PCR %u not measured: %r\n", pcr, status);
	pool_free(event);
}
