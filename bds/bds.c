/* The boot manager's order of work (UEFI 2.10, 3.1): connect every device, run the driver
 * and system-preparation options, publish the consoles, create default options, then boot:
 * the menu if asked for, BootNext once, BootOrder in turn, and the fallback last. */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define EFI_OS_INDICATIONS_BOOT_TO_FW_UI 0x1ULL

/* Driver#### in DriverOrder (drivers stay resident), then reconnect if one asks for it. */
static void run_driver_options(void)
{
	UINTN count;
	UINT16 *order = bds_order_read(u"DriverOrder", &count);
	bool reconnect = false;

	for (UINTN i = 0; i < count; i++) {
		struct bds_option o;
		EFI_HANDLE image;
		if (!bds_option_read(u"Driver", order[i], &o))
			continue;
		if ((o.lo.attributes & LOAD_OPTION_ACTIVE) &&
		    !EFI_ERROR(bds_load(o.lo.file_path, false, &image)) &&
		    !EFI_ERROR(bds_start_image(image, o.lo.description)))
			reconnect |= o.lo.attributes & LOAD_OPTION_FORCE_RECONNECT;
		bds_option_free(&o);
	}
	pool_free(order);
	if (reconnect)
		driver_connect_all();
}

/* SysPrep#### in SysPrepOrder: applications that prepare the system, before booting. */
static void run_sysprep_options(void)
{
	UINTN count;
	UINT16 *order = bds_order_read(u"SysPrepOrder", &count);

	for (UINTN i = 0; i < count; i++) {
		struct bds_option o;
		EFI_HANDLE image;
		if (!bds_option_read(u"SysPrep", order[i], &o))
			continue;
		if ((o.lo.attributes & LOAD_OPTION_ACTIVE) &&
		    !EFI_ERROR(bds_load(o.lo.file_path, false, &image)))
			bds_start_image(image, o.lo.description);
		bds_option_free(&o);
	}
	pool_free(order);
}

static EFI_STATUS boot_number(UINT16 number)
{
	struct bds_option o;
	EFI_STATUS status;

	if (!bds_option_read(u"Boot", number, &o))
		return EFI_NOT_FOUND;
	status = bds_boot(&o);
	bds_option_free(&o);
	return status;
}

/* BootNext is used once: it is deleted before the option starts. */
static void boot_next(void)
{
	UINT16 next;
	UINTN size = sizeof(next);
	EFI_STATUS status =
	    variable_get(u"BootNext", &efi_global_variable_guid, NULL, &size, &next);

	if (status == EFI_NOT_FOUND)
		return;
	if (EFI_ERROR(status) || size != sizeof(next)) {
		log_debug("BootNext: %llu bytes: %r\n", (unsigned long long)size, status);
		return;
	}
	variable_set(u"BootNext", &efi_global_variable_guid, 0, 0, NULL);
	boot_number(next);
}

static void boot_order(void)
{
	UINTN count;
	UINT16 *order = bds_order_read(u"BootOrder", &count);

	for (UINTN i = 0; i < count; i++) {
		struct bds_option o;
		bool bootable;
		if (!bds_option_read(u"Boot", order[i], &o))
			continue;
		/* Inactive options and applications are not booted on their own. */
		bootable = (o.lo.attributes & LOAD_OPTION_ACTIVE) &&
			   (o.lo.attributes & LOAD_OPTION_CATEGORY) == LOAD_OPTION_CATEGORY_BOOT;
		if (bootable)
			bds_boot(&o);
		bds_option_free(&o);
	}
	pool_free(order);
}

/* OsIndications' BOOT_TO_FW_UI: the OS asked for the firmware's interface, once. */
static bool os_asked_for_menu(void)
{
	UINT64 indications;
	UINTN size = sizeof(indications);
	UINT32 attributes;

	if (EFI_ERROR(variable_get(u"OsIndications", &efi_global_variable_guid, &attributes, &size,
				   &indications)) ||
	    size != sizeof(indications) || !(indications & EFI_OS_INDICATIONS_BOOT_TO_FW_UI))
		return false;
	indications &= ~EFI_OS_INDICATIONS_BOOT_TO_FW_UI;
	variable_set(u"OsIndications", &efi_global_variable_guid, attributes, size, &indications);
	return true;
}

/* How long to wait for the menu key: the Timeout variable's seconds (UEFI 2.10, 3.3: what
 * the setup screen sets) when longer than the platform's own wait. */
static UINT32 menu_wait_ms(const struct bds_platform *platform)
{
	UINT16 timeout = 0;
	UINTN size = sizeof(timeout);

	if (EFI_ERROR(variable_get(u"Timeout", &efi_global_variable_guid, NULL, &size, &timeout)) ||
	    size != sizeof(timeout) || (UINT32)timeout * 1000 <= platform->menu_wait_ms)
		return platform->menu_wait_ms;
	return (UINT32)timeout * 1000;
}

/* Starts a program the platform carries in memory (buffer), or makes when needed: false
 * when there is none or it does not load. */
static bool run_builtin(const void *buffer, UINTN size, const void *(*make)(UINTN *size),
			const CHAR16 *name, const char *image_name, bool owner)
{
	EFI_HANDLE image;
	const char *reason;
	EFI_STATUS status;

	if (!buffer && make)
		buffer = make(&size);
	if (!buffer)
		return false;
	status = image_load_builtin(core_image_handle, buffer, size, &image, &reason);
	if (EFI_ERROR(status)) {
		log_debug("loading %ls: %s: %r\n", name, reason ? reason : "", status);
		return false;
	}
	image_set_name(image, image_name);
	/* The setup screen may write Secure Boot keys as the owner (docs/setup-settings.md). */
	if (owner)
		variable_owner_grant(image);
	bds_start_image(image, name);
	if (owner)
		variable_owner_revoke(image);
	return true;
}

static void run_fallback(const struct bds_platform *platform)
{
	run_builtin(platform->fallback_image, platform->fallback_size, platform->fallback_make,
		    platform->fallback_name ? platform->fallback_name : u"fallback", "fallback",
		    false);
}

static bool run_setup(const struct bds_platform *platform)
{
	return run_builtin(NULL, 0, platform->setup_make, u"Ember settings", "setup", true);
}

/* The boot menu; the settings when chosen there, an option when one is. */
static void open_menu(const struct bds_platform *platform)
{
	int chosen = bds_menu_with(platform->setup_make != NULL);

	if (chosen == BDS_MENU_SETTINGS)
		run_setup(platform);
	else if (chosen >= 0)
		boot_number((UINT16)chosen);
}

void bds_run(const struct bds_platform *platform)
{
	bool asked;

	driver_connect_all();
	run_driver_options();
	bds_console_variables();
	bds_default_options(platform);
	run_sysprep_options();
	/* BOOT_TO_FW_UI opens the setup screen itself, as OVMF's opens its front page; the
	 * menu stands in for it on a platform without one. */
	asked = os_asked_for_menu();
	if (asked && platform->setup_make)
		run_setup(platform);
	else if (asked || bds_menu_key_pressed(menu_wait_ms(platform)))
		open_menu(platform);
	if (platform->direct_boot)
		platform->direct_boot();
	for (;;) {
		boot_next();
		boot_order();
		log_info("no boot option started a system\n");
		run_fallback(platform);
		/* The fallback (the shell) returned: the settings, then the boot order again. */
		if (!run_setup(platform))
			return;
	}
}
