/* Built-in UEFI drivers: each file registers its driver with EMBER_DRIVER(), and the
 * platform installs them all (driver_install_builtin) before connecting controllers.
 * Each gets its own handle carrying EFI_DRIVER_BINDING_PROTOCOL and
 * EFI_COMPONENT_NAME2_PROTOCOL, which is both its image and its driver-binding handle. */
#ifndef EMBER_DRIVER_H
#define EMBER_DRIVER_H

#include <stdbool.h>
#include <efi/protocol/component_name2.h>
#include <efi/protocol/driver_binding.h>

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

#define EMBER_DRIVER(var)                                                                 \
	__attribute__((used, section("ember_drivers"), aligned(8), no_sanitize("address")))  \
	static const struct ember_driver *const ember_driver_entry_##var = &(var)

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
