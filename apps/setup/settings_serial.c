/* The serial console's speed (settings.h): the terminal driver sets it on the UART at its
 * next Start (drivers/terminal). */
#include "settings.h"
#include <ember/lib/guids.h>

const UINT32 settings_bauds[] = {9600, 19200, 38400, 57600, 115200};
const UINTN settings_baud_count = ARRAY_SIZE(settings_bauds);

UINT32 settings_serial_baud(void)
{
	struct ember_serial_console value;
	UINTN size = sizeof(value);

	if (EFI_ERROR(app_rt->GetVariable(EMBER_SERIAL_CONSOLE_VARIABLE,
					  (EFI_GUID *)&ember_settings_guid, NULL, &size, &value)) ||
	    size != sizeof(value))
		return 0;
	return value.baud;
}

EFI_STATUS settings_serial_set_baud(UINT32 baud)
{
	struct ember_serial_console value = {baud};
	EFI_STATUS status;
	bool known = false;

	if (!baud) {
		status = app_rt->SetVariable(EMBER_SERIAL_CONSOLE_VARIABLE,
					     (EFI_GUID *)&ember_settings_guid, 0, 0, NULL);
		return status == EFI_NOT_FOUND ? EFI_SUCCESS : status;
	}
	for (UINTN i = 0; i < settings_baud_count; i++)
		known |= settings_bauds[i] == baud;
	if (!known)
		return EFI_INVALID_PARAMETER;
	return app_rt->SetVariable(EMBER_SERIAL_CONSOLE_VARIABLE, (EFI_GUID *)&ember_settings_guid,
				   EMBER_SETTINGS_ATTRIBUTES, sizeof(value), &value);
}
