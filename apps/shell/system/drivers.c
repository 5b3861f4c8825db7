/* drivers: the drivers of the driver model (UEFI Shell 2.2, drivers), one line each:
 * driver-binding handle, version, type, configuration and diagnostics support, the
 * numbers of devices it manages and of children it made, its name and its image. */
#include "sys.h"
#include <ember/lib/guids.h>

struct driver_info {
	UINT32 version;
	UINTN devices, children;
	char type, cfg, diag;
	CHAR16 *name, *image;
};

static void driver_info(struct shell *sh, const struct sys_db *db, EFI_HANDLE h,
			EFI_DRIVER_BINDING_PROTOCOL *binding, struct driver_info *d)
{
	struct sys_handles ctrls = {0}, children = {0};

	sys_driver_controllers(db, h, &ctrls);
	for (UINTN i = 0; i < ctrls.count; i++)
		sys_children(db, ctrls.h[i], h, &children);
	d->version = binding->Version;
	d->devices = ctrls.count;
	d->children = children.count;
	d->type = children.count ? 'B' : ctrls.count ? 'D' : '?';
	d->cfg = sys_driver_configurable(h) ? 'X' : '-';
	d->diag = sys_driver_diagnosable(h) ? 'X' : '-';
	d->name = sys_driver_name(h);
	d->image = sys_image_name(sh, binding->ImageHandle);
	sys_handles_free(&ctrls);
	sys_handles_free(&children);
}

static const char *count_text(char buf[8], UINTN n)
{
	if (!n)
		return "-";
	format_sn(buf, 8, "%u", (unsigned)n);
	return buf;
}

static void print_driver(struct shell *sh, EFI_HANDLE h, const struct driver_info *d, bool sfo)
{
	char dv[8], ch[8];

	if (sfo) {
		sh_print(sh,
			 "DriversInfo,\"%X\",\"%08X\",\"%c\",\"%c\",\"%c\",\"%u\",\"%u\",\"%ls\","
			 "\"%ls\"\n",
			 (unsigned)sh_handle_index(sh, h), d->version, d->type, d->cfg, d->diag,
			 (unsigned)d->devices, (unsigned)d->children, d->name ? d->name : u"",
			 d->image ? d->image : u"");
		return;
	}
	sh_print(sh, "%3X %08X %c %c %c %2s %2s %-35ls %ls\n", (unsigned)sh_handle_index(sh, h),
		 d->version, d->type, d->cfg, d->diag, count_text(dv, d->devices),
		 count_text(ch, d->children), d->name ? d->name : u"(no name)",
		 d->image ? d->image : u"(built in)");
}

static EFI_STATUS list_drivers(struct shell *sh, bool sfo)
{
	struct sys_handles drivers;
	struct sys_db db;
	EFI_STATUS status = sys_handles_locate(sh, &efi_driver_binding_protocol_guid, &drivers);

	if (EFI_ERROR(status))
		return status;
	status = sys_db_load(sh, &db);
	if (EFI_ERROR(status)) {
		sys_handles_free(&drivers);
		return status;
	}
	for (UINTN i = 0; i < drivers.count && !sh_interrupted(sh); i++) {
		EFI_DRIVER_BINDING_PROTOCOL *binding =
		    sys_protocol(drivers.h[i], &efi_driver_binding_protocol_guid);
		struct driver_info d = {0};
		if (!binding)
			continue;
		driver_info(sh, &db, drivers.h[i], binding, &d);
		print_driver(sh, drivers.h[i], &d, sfo);
		app_free(d.name);
		app_free(d.image);
	}
	sys_db_free(&db);
	sys_handles_free(&drivers);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_drivers(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-sfo", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	bool sfo;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (a.count) {
		sh_error(sh, "drivers: takes no arguments (dh HANDLE -d shows one driver)\n");
		return EFI_INVALID_PARAMETER;
	}
	sfo = sh_args_has(&a, "-sfo");
	if (sfo)
		sh_print(sh, "ShellCommand,\"drivers\"\n");
	else
		sh_print(sh, "             T   D\n"
			     "             Y C I\n"
			     "             P F A\n"
			     "DRV VERSION  E G G #D #C DRIVER NAME                         IMAGE\n"
			     "=== ======== = = = == == =================================== "
			     "=====================\n");
	status = list_drivers(sh, sfo);
	if (EFI_ERROR(status))
		sh_error(sh, "drivers: cannot list the drivers: %s\n", sys_status_text(status));
	return status;
}

SH_COMMAND(drivers, "drivers", "Lists the drivers of the driver model",
	   "drivers [-sfo]\n"
	   "  One line per driver-binding handle:\n"
	   "    DRV      its handle number (hex, as dh shows it)\n"
	   "    VERSION  the DriverBinding version\n"
	   "    TYPE     B bus driver (made children), D device driver, ? manages nothing\n"
	   "    CFG/DIAG X when it offers configuration / diagnostics protocols\n"
	   "    #D #C    numbers of devices it manages and children it made ('-': none)\n"
	   "    and its name (ComponentName2) and the file its image came from ('built in'\n"
	   "    for drivers in the firmware)\n"
	   "  -sfo  standard-format output: DriversInfo,\"drv\",\"version\",\"type\",\"cfg\",\n"
	   "        \"diag\",\"devices\",\"children\",\"name\",\"image\"\n"
	   "  Example: drivers\n",
	   cmd_drivers);
