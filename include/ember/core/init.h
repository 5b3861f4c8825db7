/* Start-up order. Firmware services that are not drivers of a device (a protocol Ember
 * publishes once, such as Unicode collation) register an init step with EMBER_INIT(); the
 * built-in drivers register with EMBER_DRIVER() (core/driver.h). Each names its level, and
 * the platform brings levels up in order (init_run_all, then driver_install_builtin), so
 * that neither link order nor file names decide the boot. Within a level, entries run in
 * the order of their names: nothing in one level may depend on another entry of it. */
#ifndef EMBER_INIT_H
#define EMBER_INIT_H

#include <efi/status.h>

enum init_level {
	INIT_EARLY,   /* the console splitter in the system table, protocols others look up */
	INIT_CONSOLE, /* console devices, and their drivers, so that errors can be seen */
	INIT_NORMAL,  /* everything else: buses, disks, file systems, entropy */
	INIT_LATE,    /* what needs the others in place */
	INIT_LEVELS
};

struct ember_init_step {
	const char *name;
	EFI_STATUS (*run)(void);
	enum init_level level;
};

#define EMBER_INIT(level, fn)                                                                      \
	__attribute__((                                                                            \
	    used, section("ember_init"), aligned(8),                                               \
	    no_sanitize("address"))) static const struct ember_init_step ember_init_step_##fn = {  \
	    #fn, fn, level}

/* Runs every registered step, level by level; a failing step is logged and the others
 * still run. Returns the first error. */
EFI_STATUS init_run_all(void);

#endif
