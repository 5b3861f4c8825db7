/* The consoles, and what to boot: for now a program handed in through fw_cfg as
 * "opt/ember/app" (-fw_cfg name=opt/ember/app,file=x.efi), as on x86-64. */
#define LOG_PREFIX "boot: "
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/console_splitter.h>
#include "aarch64.h"

#define WATCHDOG_SECONDS 300 /* the spec's five minutes for a boot option */

/* ConIn, ConOut and StdErr in the system table before anything can print; the PL011's
 * terminal joins them when its driver starts. */
static EFI_STATUS consoles_start(void)
{
	return console_splitter_start(CONSOLE_SPLITTER_ALL);
}
EMBER_INIT(INIT_EARLY, consoles_start);

static bool boot_fw_cfg_app(void)
{
	uint16_t select;
	uint32_t size;
	void *file;
	EFI_HANDLE image;
	const char *reason = NULL;
	EFI_STATUS status;

	if (!fw_cfg_find("opt/ember/app", &select, &size))
		return false;
	file = pool_alloc_typed(EfiBootServicesData, size);
	if (!file) {
		panic_printf("Ember: no memory for opt/ember/app (%u bytes)\n", size);
		return true;
	}
	fw_cfg_read(select, file, size);
	status = image_load(false, core_image_handle, NULL, file, size, &image, &reason);
	pool_free(file);
	if (EFI_ERROR(status)) {
		panic_printf("Ember: opt/ember/app: %s\n", reason ? reason : "cannot load it");
		return true;
	}
	image_set_name(image, "app.efi");
	core_watchdog_set(WATCHDOG_SECONDS);
	status = image_start(image, NULL, NULL);
	core_watchdog_set(0);
	panic_printf("Ember: opt/ember/app returned %r\n", status);
	return true;
}

void boot_something(void)
{
	if (!boot_fw_cfg_app())
		panic_printf("Ember: nothing to boot (no opt/ember/app; the boot manager is not "
			     "ported to AArch64 yet)\n");
}
