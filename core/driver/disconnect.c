/* DisconnectController (UEFI 2.10, section 7.3): asks the drivers managing a controller
 * to stop, children first. */
#define LOG_PREFIX "disconnect: "
#include "../handle/handle.h"
#include "../services.h"
#include <efi/protocol/driver_binding.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

/* The agents that hold the controller's protocols BY_DRIVER (one entry each). */
static EFI_STATUS managing_drivers(EFI_HANDLE controller, EFI_HANDLE **drivers, UINTN *count)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct handle *h = handle_lookup(controller);
	struct protocol_interface *pif;
	struct open_entry *o;
	UINTN n = 0, capacity = 0;

	list_for_each_entry (pif, &h->interfaces, handle_link)
		list_for_each_entry (o, &pif->opens, link)
			capacity++;
	*drivers = pool_alloc((capacity ? capacity : 1) * sizeof(EFI_HANDLE));
	if (!*drivers) {
		tpl_restore(old);
		return EFI_OUT_OF_RESOURCES;
	}
	list_for_each_entry (pif, &h->interfaces, handle_link)
		list_for_each_entry (o, &pif->opens, link) {
			bool seen = false;
			if (!(o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER))
				continue;
			for (UINTN i = 0; i < n; i++)
				seen |= (*drivers)[i] == o->agent;
			if (!seen)
				(*drivers)[n++] = o->agent;
		}
	*count = n;
	tpl_restore(old);
	return EFI_SUCCESS;
}

static bool driver_manages(EFI_HANDLE controller, EFI_HANDLE driver)
{
	EFI_HANDLE *drivers;
	UINTN count;
	bool found = false;

	if (EFI_ERROR(managing_drivers(controller, &drivers, &count)))
		return false;
	for (UINTN i = 0; i < count; i++)
		found |= drivers[i] == driver;
	pool_free(drivers);
	return found;
}

/* Stops one driver on the controller: the given child, or all children and then itself. */
static EFI_STATUS stop_driver(EFI_HANDLE controller, EFI_HANDLE driver, EFI_HANDLE child)
{
	EFI_DRIVER_BINDING_PROTOCOL *db;
	EFI_HANDLE *children;
	UINTN count, stopping = 0;
	EFI_STATUS status;
	bool child_found = false;

	if (EFI_ERROR(protocol_get(driver, &efi_driver_binding_protocol_guid, (void **)&db)))
		return EFI_INVALID_PARAMETER;
	if (!driver_manages(controller, driver))
		return EFI_SUCCESS;
	/* A Start still running holds the interfaces it opened: stopping it now would free
	 * them under it (a medium changing while a driver's Start reads the disk). */
	if (driver_is_starting(driver, controller)) {
		log_debug("driver %p is starting on %p: not stopped\n", driver, controller);
		return EFI_ACCESS_DENIED;
	}
	status = driver_children(controller, driver, &children, &count);
	if (EFI_ERROR(status))
		return status;
	for (UINTN i = 0; i < count; i++)
		child_found |= children[i] == child;
	if (child && !child_found) {
		pool_free(children);
		return EFI_SUCCESS; /* not this driver's child */
	}
	if (count) {
		stopping = child ? 1 : count;
		status = db->Stop(db, controller, stopping, child ? &child : children);
	}
	/* The controller itself stops once it has no children left to stop. */
	if (!EFI_ERROR(status) && (!child || count == stopping))
		status = db->Stop(db, controller, 0, NULL);
	pool_free(children);
	return status;
}

EFI_STATUS driver_disconnect(EFI_HANDLE controller, EFI_HANDLE driver_image, EFI_HANDLE child)
{
	EFI_HANDLE *drivers;
	UINTN count;
	EFI_STATUS status, result = EFI_SUCCESS;

	if (driver_image)
		return stop_driver(controller, driver_image, child);
	status = managing_drivers(controller, &drivers, &count);
	if (EFI_ERROR(status))
		return status;
	for (UINTN i = 0; i < count; i++) {
		status = stop_driver(controller, drivers[i], child);
		if (EFI_ERROR(status))
			result = status;
	}
	pool_free(drivers);
	return result;
}

EFI_STATUS EFIAPI efi_disconnect_controller(EFI_HANDLE controller, EFI_HANDLE driver_image,
					    EFI_HANDLE child)
{
	void *db;

	if (!handle_is_valid(controller) || (driver_image && !handle_is_valid(driver_image)) ||
	    (child && !handle_is_valid(child)))
		return EFI_INVALID_PARAMETER;
	if (driver_image &&
	    EFI_ERROR(protocol_get(driver_image, &efi_driver_binding_protocol_guid, &db)))
		return EFI_INVALID_PARAMETER;
	return driver_disconnect(controller, driver_image, child);
}
