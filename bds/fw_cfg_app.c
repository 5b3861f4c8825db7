/* A program handed in by the machine rather than found by the boot manager: QEMU's fw_cfg
 * files "opt/ember/app" (the PE image) and "opt/ember/args" (its command line, UTF-8), for
 * tests and development. The platforms differ only in how they reach fw_cfg and report. */
#define LOG_PREFIX "boot: "
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define WATCHDOG_SECONDS 300 /* the spec's five minutes for a boot option */
#define ARGS_MAX 1024
#define APP_NAME "app.efi"

/* Gives an image its command line (UCS-2 LoadOptions) from UTF-8 text. */
static void set_load_options(EFI_HANDLE image, const char *text, size_t len)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	CHAR16 *units;

	if (EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return;
	units = pool_alloc_typed(EfiLoaderData, (len + 1) * sizeof(CHAR16));
	if (!units) {
		log_debug("no memory for a command line of %llu bytes\n", (unsigned long long)len);
		return;
	}
	li->LoadOptionsSize = (UINT32)((utf8_to_ucs2(units, len + 1, text, len) + 1) * 2);
	li->LoadOptions = units;
}

/* opt/ember/args without its trailing newlines and NULs, or the program's name. */
static void load_args(const struct bds_fw_cfg *fw_cfg, EFI_HANDLE image)
{
	char args[ARGS_MAX];
	uint16_t select;
	uint32_t size = 0;

	if (fw_cfg->find("opt/ember/args", &select, &size)) {
		size = MIN(size, (uint32_t)sizeof(args));
		fw_cfg->read(select, args, size);
		while (size && (args[size - 1] == '\n' || !args[size - 1]))
			size--;
	}
	if (!size) {
		mem_copy(args, APP_NAME, sizeof(APP_NAME) - 1);
		size = sizeof(APP_NAME) - 1;
	}
	set_load_options(image, args, size);
}

bool bds_fw_cfg_app(const struct bds_fw_cfg *fw_cfg, EFI_STATUS *status)
{
	uint16_t select;
	uint32_t size;
	void *file;
	EFI_HANDLE image;
	const char *reason = NULL;

	if (!fw_cfg->find("opt/ember/app", &select, &size))
		return false;
	file = pool_alloc_typed(EfiBootServicesData, size);
	if (!file) {
		fw_cfg->report("Ember: no memory for opt/ember/app (%u bytes)\n", size);
		return false;
	}
	fw_cfg->read(select, file, size);
	measure_boot_attempt(); /* as a boot option's: the separators precede the app */
	*status = image_load(false, core_image_handle, NULL, file, size, &image, &reason);
	pool_free(file);
	if (EFI_ERROR(*status)) {
		fw_cfg->report("Ember: opt/ember/app: %s\n", reason ? reason : "cannot load it");
		return true;
	}
	image_set_name(image, APP_NAME);
	load_args(fw_cfg, image);
	log_info("starting opt/ember/app\n");
	core_watchdog_set(WATCHDOG_SECONDS);
	*status = image_start(image, NULL, NULL);
	core_watchdog_set(0);
	log_info("opt/ember/app returned %r\n", *status);
	return true;
}
