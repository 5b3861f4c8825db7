/* Helpers for the EFI_DRIVER_BINDING_PROTOCOL functions of Ember's drivers (UEFI 2.10, 11.1). */
#include <ember/core/core.h>
#include <ember/core/driver.h>

EFI_STATUS driver_can_open(EFI_HANDLE driver, EFI_HANDLE controller, const EFI_GUID *protocol,
			   bool (*accept)(void *interface))
{
	void *interface;
	EFI_STATUS status = protocol_open(controller, protocol, &interface, driver, controller,
					  EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (EFI_ERROR(status))
		return status;
	if (accept && !accept(interface))
		status = EFI_UNSUPPORTED;
	protocol_close(controller, protocol, driver, controller);
	return status;
}
