/* The boot manager's measurements (PFP 1.05 3.3.4.2, 3.3.4.5, 8.2.4): at the first boot
 * attempt the boot variables (PCR 1, EV_EFI_VARIABLE_BOOT, digest of the variable's data)
 * and the separators that end the pre-OS measurements of PCRs 0-6 (PCR 7's follows the
 * Secure Boot policy); at every attempt "Calling EFI Application from Boot Option" in PCR 4,
 * and when the application returns, "Returning from EFI Application from Boot Option". */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/log.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>

static void measure_boot_variable(const CHAR16 *name)
{
	void *data = NULL;
	UINTN size = 0;

	if (EFI_ERROR(variable_read(name, &efi_global_variable_guid, &data, &size, NULL)))
		return;
	measure_variable(PCR_PLATFORM_CONFIG, EV_EFI_VARIABLE_BOOT, name, &efi_global_variable_guid,
			 data, size, true);
	pool_free(data);
}

void measure_boot_variables(void)
{
	UINTN count;
	UINT16 *order;

	if (!measure_enabled())
		return;
	order = bds_order_read(u"BootOrder", &count);
	measure_boot_variable(u"BootOrder");
	for (UINTN i = 0; i < count; i++) {
		CHAR16 name[16];
		bds_option_name(name, u"Boot", order[i]);
		measure_boot_variable(name);
	}
	pool_free(order);
}

void measure_boot_attempt(void)
{
	static bool attempted;
	bool first = !attempted;

	if (!measure_enabled())
		return;
	attempted = true;
	if (first) {
		measure_secure_boot_policy();
		measure_boot_variables();
	}
	measure_action(PCR_BOOT_MANAGER_CODE, TCG_ACTION_CALLING_BOOT_OPTION);
	for (UINT32 pcr = 0; first && pcr < PCR_SECURE_BOOT_POLICY; pcr++)
		measure_separator(pcr);
}

void measure_boot_returned(void)
{
	measure_action(PCR_BOOT_MANAGER_CODE, TCG_ACTION_RETURNING_BOOT_OPTION);
}
