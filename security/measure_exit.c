/* PCR 5 at ExitBootServices (PFP 1.05 3.3.4.6, 10.4.4): "Exit Boot Services Invocation" and
 * "Exit Boot Services Returned with Success", measured from the exit-boot-services group,
 * which the core signals only once the caller's map key was accepted. Neither allocates,
 * so the memory map the caller holds stays valid. A call the core refuses (a stale map
 * key) is "Exit Boot Services Invocation" and "Exit Boot Services Returned with Failure",
 * from the core's own group for that; the caller gets a new map after it anyway. */
#define LOG_PREFIX "measure: "
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/guids.h>

static void EFIAPI measure_exit_boot_services(EFI_EVENT event, void *context)
{
	(void)event, (void)context;
	measure_action(PCR_BOOT_MANAGER_CONFIG, TCG_ACTION_EBS_INVOCATION);
	measure_action(PCR_BOOT_MANAGER_CONFIG, TCG_ACTION_EBS_SUCCESS);
}

static void EFIAPI measure_exit_boot_services_failed(EFI_EVENT event, void *context)
{
	(void)event, (void)context;
	measure_action(PCR_BOOT_MANAGER_CONFIG, TCG_ACTION_EBS_INVOCATION);
	measure_action(PCR_BOOT_MANAGER_CONFIG, TCG_ACTION_EBS_FAILURE);
}

static EFI_STATUS measure_exit_install(void)
{
	EFI_EVENT event;
	EFI_STATUS status;

	status = event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, measure_exit_boot_services, NULL,
			      &efi_event_group_exit_boot_services_guid, &event);
	if (EFI_ERROR(status))
		return status;
	return event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, measure_exit_boot_services_failed,
			    NULL, &core_event_group_exit_boot_services_failed_guid, &event);
}
EMBER_INIT(INIT_LATE, measure_exit_install);
