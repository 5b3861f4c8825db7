/* Installs the drivers linked into the firmware (registered with EMBER_DRIVER). */
#include "../services.h"
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

extern const struct ember_driver_entry __start_ember_drivers[] __attribute__((weak));
extern const struct ember_driver_entry __stop_ember_drivers[] __attribute__((weak));

CHAR8 ember_driver_languages[] = "en";

struct driver_names {
	EFI_COMPONENT_NAME2_PROTOCOL protocol;
	const struct ember_driver *driver;
};

/* Accepts "en" and its regional forms ("en-US"), the only language Ember speaks. */
static bool language_is_english(const CHAR8 *language)
{
	return language && language[0] == 'e' && language[1] == 'n' &&
	       (language[2] == 0 || language[2] == '-');
}

static EFI_STATUS EFIAPI get_driver_name(EFI_COMPONENT_NAME2_PROTOCOL *this, CHAR8 *language,
					 CHAR16 **name)
{
	struct driver_names *names = container_of(this, struct driver_names, protocol);

	if (!language || !name)
		return EFI_INVALID_PARAMETER;
	if (!language_is_english(language))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)names->driver->name;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					     EFI_HANDLE controller, EFI_HANDLE child,
					     CHAR8 *language, CHAR16 **name)
{
	struct driver_names *names = container_of(this, struct driver_names, protocol);

	if (!controller || !language || !name)
		return EFI_INVALID_PARAMETER;
	if (!language_is_english(language) || !names->driver->controller_name)
		return EFI_UNSUPPORTED;
	return names->driver->controller_name(this, controller, child, language, name);
}

static EFI_STATUS install_one(const struct ember_driver *driver)
{
	struct driver_names *names = pool_alloc(sizeof(*names));
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;

	if (!names)
		return EFI_OUT_OF_RESOURCES;
	names->protocol = (EFI_COMPONENT_NAME2_PROTOCOL){get_driver_name, get_controller_name,
							 ember_driver_languages};
	names->driver = driver;
	if (driver->init) {
		status = driver->init();
		if (EFI_ERROR(status))
			goto fail;
	}
	status =
	    protocol_install_multiple(&handle, &efi_driver_binding_protocol_guid, driver->binding,
				      &efi_component_name2_protocol_guid, &names->protocol, NULL);
	if (EFI_ERROR(status))
		goto fail;
	driver->binding->ImageHandle = handle;
	driver->binding->DriverBindingHandle = handle;
	return EFI_SUCCESS;
fail:
	log_warn("driver %ls: %r\n", driver->name, status);
	pool_free(names);
	return status;
}

/* The driver of level after `done` in name order (NULL: none left); as for init steps. */
static const struct ember_driver *next_driver(enum init_level level,
					      const struct ember_driver *done)
{
	const struct ember_driver *best = NULL;

	for (const struct ember_driver_entry *e = __start_ember_drivers;
	     e && e < __stop_ember_drivers; e++) {
		if (e->level != level || (done && str16_cmp(e->driver->name, done->name) <= 0))
			continue;
		if (!best || str16_cmp(e->driver->name, best->name) < 0)
			best = e->driver;
	}
	return best;
}

EFI_STATUS driver_install_builtin(void)
{
	EFI_STATUS first_error = EFI_SUCCESS;

	for (int level = 0; level < INIT_LEVELS; level++) {
		for (const struct ember_driver *d = next_driver(level, NULL); d;
		     d = next_driver(level, d)) {
			EFI_STATUS status = install_one(d);
			if (EFI_ERROR(status) && !EFI_ERROR(first_error))
				first_error = status;
		}
	}
	return first_error;
}
