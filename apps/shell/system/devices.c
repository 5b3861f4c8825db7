/* devices: the controllers of the driver model (UEFI Shell 2.2, devices), one line each:
 * handle, type (Root, Bus, Device), configuration and diagnostics support, the numbers of
 * parents, managing drivers and children, and the name. */
#include "sys.h"
#include <ember/lib/guids.h>

struct device_info {
	struct sys_handles drivers, parents, children;
	char type, cfg, diag;
};

static void info_free(struct device_info *d)
{
	sys_handles_free(&d->drivers);
	sys_handles_free(&d->parents);
	sys_handles_free(&d->children);
}

/* Fills d; false when h is not a controller (a driver, an image, a service handle). */
static bool device_info(const struct sys_db *db, EFI_HANDLE h, struct device_info *d)
{
	bool has_path = sys_protocol(h, &efi_device_path_protocol_guid) != NULL;

	*d = (struct device_info){0};
	sys_managing_drivers(db, h, &d->drivers);
	sys_children(db, h, NULL, &d->children);
	if (!has_path && (sys_protocol(h, &efi_driver_binding_protocol_guid) ||
			  (!d->drivers.count && !d->children.count))) {
		info_free(d);
		return false;
	}
	sys_parents(db, h, &d->parents);
	d->type = !d->parents.count ? 'R' : d->children.count ? 'B' : 'D';
	d->cfg = d->diag = '-';
	for (UINTN i = 0; i < d->drivers.count; i++) {
		if (sys_driver_configurable(d->drivers.h[i]))
			d->cfg = 'X';
		if (sys_driver_diagnosable(d->drivers.h[i]))
			d->diag = 'X';
	}
	return true;
}

/* A count for the table: '-' for none, as the UEFI Shell prints it. */
static const char *count_text(char buf[8], UINTN n)
{
	if (!n)
		return "-";
	format_sn(buf, 8, "%u", (unsigned)n);
	return buf;
}

static void print_device(struct shell *sh, const struct sys_db *db, EFI_HANDLE h,
			 const struct device_info *d)
{
	CHAR16 *name = sys_device_name(sh, db, h);
	char p[8], dr[8], c[8];

	sh_print(sh, "%4X %c %c %c %2s %2s %2s %ls\n", (unsigned)sh_handle_index(sh, h), d->type,
		 d->cfg, d->diag, count_text(p, d->parents.count), count_text(dr, d->drivers.count),
		 count_text(c, d->children.count), name ? name : u"(no name)");
	app_free(name);
}

static void print_sfo(struct shell *sh, const struct sys_db *db, EFI_HANDLE h,
		      const struct device_info *d)
{
	CHAR16 *name = sys_device_name(sh, db, h);

	sh_print(sh, "DevicesInfo,\"%X\",\"%c\",\"%c\",\"%c\",\"%u\",\"%u\",\"%u\",\"%ls\"\n",
		 (unsigned)sh_handle_index(sh, h), d->type, d->cfg, d->diag,
		 (unsigned)d->parents.count, (unsigned)d->drivers.count,
		 (unsigned)d->children.count, name ? name : u"");
	app_free(name);
}

static void list_devices(struct shell *sh, const struct sys_handles *all, const struct sys_db *db,
			 bool sfo)
{
	if (sfo)
		sh_print(sh, "ShellCommand,\"devices\"\n");
	else
		sh_print(sh, "     T   D\n"
			     "     Y C I\n"
			     "     P F A\n"
			     "CTRL E G G #P #D #C Device Name\n"
			     "==== = = = == == == =============================================\n");
	for (UINTN i = 0; i < all->count && !sh_interrupted(sh); i++) {
		struct device_info d;
		if (!device_info(db, all->h[i], &d))
			continue;
		if (sfo)
			print_sfo(sh, db, all->h[i], &d);
		else
			print_device(sh, db, all->h[i], &d);
		info_free(&d);
	}
}

static EFI_STATUS cmd_devices(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-sfo", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	struct sys_handles all;
	struct sys_db db;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (a.count) {
		sh_error(sh, "devices: takes no arguments (dh HANDLE -d shows one device)\n");
		return EFI_INVALID_PARAMETER;
	}
	status = sys_handles_locate(sh, NULL, &all);
	if (!EFI_ERROR(status)) {
		status = sys_db_load(sh, &db);
		if (EFI_ERROR(status))
			sys_handles_free(&all);
	}
	if (EFI_ERROR(status)) {
		sh_error(sh, "devices: cannot list the handles: %s\n", sys_status_text(status));
		return status;
	}
	list_devices(sh, &all, &db, sh_args_has(&a, "-sfo"));
	sys_handles_free(&all);
	sys_db_free(&db);
	return EFI_SUCCESS;
}

SH_COMMAND(devices, "devices", "Lists the controllers of the driver model",
	   "devices [-sfo]\n"
	   "  One line per controller (a handle with a device path, or one a driver\n"
	   "  manages):\n"
	   "    CTRL  its handle number (hex, as dh shows it)\n"
	   "    TYPE  R root (no parent), B bus (has children), D device\n"
	   "    CFG   X when a managing driver offers configuration\n"
	   "    DIAG  X when a managing driver offers diagnostics\n"
	   "    #P #D #C  numbers of parents, managing drivers and children ('-' for none)\n"
	   "    and its name from the managing driver's ComponentName2, else its device\n"
	   "    path\n"
	   "  -sfo  standard-format output: DevicesInfo,\"ctrl\",\"type\",\"cfg\",\"diag\",\n"
	   "        \"parents\",\"drivers\",\"children\",\"name\"\n"
	   "  Example: devices -b\n",
	   cmd_devices);
