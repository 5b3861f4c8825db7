/* Firmware services that are not drivers of a device (a protocol Ember publishes once,
 * such as Unicode collation) register an init step with EMBER_INIT(); the platform runs
 * them all once the core is up (init_run_all), before drivers are connected. */
#ifndef EMBER_INIT_H
#define EMBER_INIT_H

#include <efi/status.h>

struct ember_init_step {
	const char *name;
	EFI_STATUS (*run)(void);
};

#define EMBER_INIT(fn)                                                                    \
	__attribute__((used, section("ember_init"), aligned(8), no_sanitize("address")))     \
	static const struct ember_init_step ember_init_step_##fn = {#fn, fn}

/* Runs every registered step; a failing step is logged and the others still run. */
EFI_STATUS init_run_all(void);

#endif
