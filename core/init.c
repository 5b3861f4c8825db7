/* Core start-up: the order in which the core's pieces come to life. */
#include "services.h"
#include <ember/core/devpath.h>

EFI_STATUS core_init(const struct core_config *config)
{
	EFI_STATUS status;

	mem_set_runtime_granularity(config->runtime_granularity);
	status = mem_init(config->ranges, config->range_count);
	if (!EFI_ERROR(status))
		status = runtime_init();
	if (!EFI_ERROR(status))
		status = boot_services_init();
	if (!EFI_ERROR(status))
		status = system_table_init(config->firmware_vendor, config->firmware_revision);
	if (!EFI_ERROR(status))
		status = runtime_tables_init();
	if (!EFI_ERROR(status))
		status = image_init();
	if (!EFI_ERROR(status))
		status = devpath_install_protocols();
	return status;
}
