/* dh -d: a handle as the driver model sees it, as a controller and as a driver. */
#include "dh.h"
#include <ember/lib/guids.h>

/* "     Drv[1F] : name" for each handle of a list, named by name_of. */
static void print_list(struct shell *sh, const struct sys_db *db, const char *label,
		       const struct sys_handles *l,
		       CHAR16 *(*name_of)(struct shell *sh, const struct sys_db *db, EFI_HANDLE h))
{
	char n[20];

	for (UINTN i = 0; i < l->count && !sh_interrupted(sh); i++) {
		CHAR16 *name = name_of(sh, db, l->h[i]);
		sh_print(sh, "     %s[%s] : %ls\n", label, sys_hnum(sh, l->h[i], n),
			 name ? name : u"(no name)");
		app_free(name);
	}
	if (!l->count)
		sh_print(sh, "     none\n");
}

static CHAR16 *driver_name_of(struct shell *sh, const struct sys_db *db, EFI_HANDLE h)
{
	(void)sh;
	(void)db;
	return sys_driver_name(h);
}

static bool any_flag(const struct sys_handles *drivers, bool (*has)(EFI_HANDLE))
{
	for (UINTN i = 0; i < drivers->count; i++)
		if (has(drivers->h[i]))
			return true;
	return false;
}

static void as_controller(struct shell *sh, const struct sys_db *db, EFI_HANDLE h)
{
	struct sys_handles drivers = {0}, parents = {0}, children = {0};
	EFI_DEVICE_PATH_PROTOCOL *path = sys_protocol(h, &efi_device_path_protocol_guid);
	CHAR16 *name = sys_device_name(sh, db, h), *text = path ? sh_devpath_text(sh, path) : NULL;

	sys_managing_drivers(db, h, &drivers);
	sys_parents(db, h, &parents);
	sys_children(db, h, NULL, &children);
	sys_handles_sort(sh, &drivers);
	sys_handles_sort(sh, &children);
	sh_print(sh, "   Controller name    : %ls\n", name ? name : u"(none)");
	sh_print(sh, "   Device path        : %ls\n", text ? text : u"(none)");
	sh_print(sh, "   Controller type    : %s\n",
		 !parents.count	  ? "ROOT"
		 : children.count ? "BUS"
				  : "DEVICE");
	sh_print(sh, "   Configuration      : %s\n",
		 any_flag(&drivers, sys_driver_configurable) ? "YES" : "NO");
	sh_print(sh, "   Diagnostics        : %s\n",
		 any_flag(&drivers, sys_driver_diagnosable) ? "YES" : "NO");
	sh_print(sh, "   Managed by         :\n");
	print_list(sh, db, "Drv", &drivers, driver_name_of);
	sh_print(sh, "   Parent controllers :\n");
	print_list(sh, db, "Parent", &parents, sys_device_name);
	sh_print(sh, "   Child controllers  :\n");
	print_list(sh, db, "Child", &children, sys_device_name);
	app_free(name);
	app_free(text);
	sys_handles_free(&drivers);
	sys_handles_free(&parents);
	sys_handles_free(&children);
}

static void as_driver(struct shell *sh, const struct sys_db *db, EFI_HANDLE h,
		      EFI_DRIVER_BINDING_PROTOCOL *binding)
{
	struct sys_handles ctrls = {0}, children = {0};
	CHAR16 *name = sys_driver_name(h), *image = sys_image_name(sh, binding->ImageHandle);
	char n[20];

	sys_driver_controllers(db, h, &ctrls);
	sys_handles_sort(sh, &ctrls);
	for (UINTN i = 0; i < ctrls.count; i++)
		sys_children(db, ctrls.h[i], h, &children);
	sys_hnum(sh, h, n);
	sh_print(sh, "   Driver name [%s]%*s: %ls\n", n, (int)(5 - MIN(str8_len(n), (size_t)5)), "",
		 name ? name : u"(none)");
	sh_print(sh, "   Driver image name  : %ls\n", image ? image : u"(built in)");
	sh_print(sh, "   Driver version     : %08X\n", binding->Version);
	sh_print(sh, "   Driver type        : %s\n",
		 children.count ? "BUS"
		 : ctrls.count	? "DEVICE"
				: "(not managing devices)");
	sh_print(sh, "   Configuration      : %s\n", sys_driver_configurable(h) ? "YES" : "NO");
	sh_print(sh, "   Diagnostics        : %s\n", sys_driver_diagnosable(h) ? "YES" : "NO");
	sh_print(sh, "   Managing           :\n");
	print_list(sh, db, "Ctrl", &ctrls, sys_device_name);
	app_free(name);
	app_free(image);
	sys_handles_free(&ctrls);
	sys_handles_free(&children);
}

void dh_driver_model(struct shell *sh, EFI_HANDLE h)
{
	EFI_DRIVER_BINDING_PROTOCOL *binding = sys_protocol(h, &efi_driver_binding_protocol_guid);
	struct sys_handles drivers = {0};
	struct sys_db db;
	bool controller = sys_protocol(h, &efi_device_path_protocol_guid) != NULL;

	if (EFI_ERROR(sys_db_load(sh, &db))) {
		sh_error(sh, "dh: out of memory for the driver model\n");
		return;
	}
	if (!controller) {
		sys_managing_drivers(&db, h, &drivers);
		controller = drivers.count > 0;
		sys_handles_free(&drivers);
	}
	if (controller)
		as_controller(sh, &db, h);
	if (binding)
		as_driver(sh, &db, h, binding);
	if (!controller && !binding)
		sh_print(sh, "   Neither a controller nor a driver\n");
	sys_db_free(&db);
}
