/* Built-in UEFI drivers: each file registers its driver with EMBER_DRIVER(level, driver),
 * and the platform installs them all (driver_install_builtin), level by level and by name
 * within a level (core/init.h), before connecting controllers. The install order breaks
 * ties between bindings of equal Version in ConnectController.
 * Each gets its own handle carrying EFI_DRIVER_BINDING_PROTOCOL and
 * EFI_COMPONENT_NAME2_PROTOCOL, which is both its image and its driver-binding handle. */
#ifndef EMBER_DRIVER_H
#define EMBER_DRIVER_H

#include <stdbool.h>
#include <efi/protocol/component_name2.h>
#include <efi/protocol/driver_binding.h>
#include <ember/core/init.h>

struct ember_driver {
	const CHAR16 *name; /* what `drivers` shows, e.g. u"FAT File System Driver" */
	EFI_DRIVER_BINDING_PROTOCOL *binding; /* Supported/Start/Stop/Version filled in */
	/* Optional: names of the controllers it manages (else GetControllerName is
	 * EFI_UNSUPPORTED). */
	EFI_COMPONENT_NAME2_GET_CONTROLLER_NAME controller_name;
	/* Optional: called once before the binding is installed (e.g. to publish a
	 * protocol the driver provides globally). */
	EFI_STATUS (*init)(void);
};

struct ember_driver_entry {
	const struct ember_driver *driver;
	enum init_level level;
};

#define EMBER_DRIVER(level, var)                                                                   \
	__attribute__((used, section("ember_drivers"), aligned(8),                                 \
		       no_sanitize("address"))) static const struct ember_driver_entry             \
	    ember_driver_entry_##var = {&(var), level}

/* Supported()'s test of a protocol on controller (drivers/binding): opens it BY_DRIVER as
 * Start would, and returns that status when it fails (EFI_ALREADY_STARTED, EFI_ACCESS_DENIED
 * ...); else EFI_UNSUPPORTED when accept (optional) refuses the interface. The protocol is
 * closed again either way. */
EFI_STATUS driver_can_open(EFI_HANDLE driver, EFI_HANDLE controller, const EFI_GUID *protocol,
			   bool (*accept)(void *interface));

/* Installs every registered driver; returns the first error, after trying them all. */
EFI_STATUS driver_install_builtin(void);

/* The ComponentName2 "en" language tag every built-in driver supports. */
extern CHAR8 ember_driver_languages[];

#endif
