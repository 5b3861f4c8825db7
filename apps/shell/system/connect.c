/* connect, disconnect and reconnect: binding drivers to controllers and releasing them
 * (ConnectController/DisconnectController, UEFI 2.10, 7.3.12 and 7.3.13). */
#include "sys.h"
#include "../../lib/devpath.h"
#include <ember/lib/guids.h>

static void report(struct shell *sh, const char *what, EFI_HANDLE h, EFI_STATUS status)
{
	char n[20];

	sh_print(sh, "%s - Handle [%s] Result %s.\n", what, sys_hnum(sh, h, n),
		 status == EFI_SUCCESS ? "Success" : sys_status_text(status));
}

/* Whether driver manages ctrl in a snapshot of the driver model (opened it BY_DRIVER). */
static bool manages(const struct sys_db *db, EFI_HANDLE ctrl, EFI_HANDLE driver)
{
	for (UINTN i = 0; i < db->count; i++) {
		const struct sys_open *o = &db->e[i];
		if (o->owner == ctrl && o->agent == driver &&
		    (o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER))
			return true;
	}
	return false;
}

/* The number of controllers managed in `now` by a driver that did not manage them in
 * `then`: between a snapshot and a later one, those that gained a driver (children
 * created on the way included); the other way round, those that lost one. */
static UINTN changed(const struct sys_db *then, const struct sys_db *now)
{
	struct sys_handles counted = {0};
	UINTN n;

	for (UINTN i = 0; i < now->count; i++) {
		const struct sys_open *o = &now->e[i];
		if ((o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER) && o->agent &&
		    !manages(then, o->owner, o->agent))
			sys_handles_add(&counted, o->owner);
	}
	n = counted.count;
	sys_handles_free(&counted);
	return n;
}

/* ConnectController (or DisconnectController) on every handle. */
static void each_handle(struct shell *sh, bool connect, bool recursive)
{
	struct sys_handles all;

	if (EFI_ERROR(sys_handles_locate(sh, NULL, &all)))
		return;
	for (UINTN i = 0; i < all.count && !sh_interrupted(sh); i++)
		if (connect)
			app_bs->ConnectController(all.h[i], NULL, NULL, recursive);
		else
			app_bs->DisconnectController(all.h[i], NULL, NULL);
	sys_handles_free(&all);
}

/* Connects or disconnects every handle; the number of controllers that gained a driver
 * (connect) or lost one (disconnect), told by the driver model before and after: what
 * ConnectController returns says nothing of the children a recursive connect binds, and
 * DisconnectController succeeds on handles no driver managed. */
static UINTN each_handle_counted(struct shell *sh, bool connect, bool recursive)
{
	struct sys_db before, after;
	UINTN count = 0;
	bool counting = !EFI_ERROR(sys_db_load(sh, &before));

	each_handle(sh, connect, recursive);
	if (counting && !EFI_ERROR(sys_db_load(sh, &after))) {
		count = connect ? changed(&before, &after) : changed(&after, &before);
		sys_db_free(&after);
	}
	if (counting)
		sys_db_free(&before);
	return count;
}

static UINTN connect_all(struct shell *sh, bool recursive)
{
	return each_handle_counted(sh, true, recursive);
}

static UINTN disconnect_all(struct shell *sh)
{
	return each_handle_counted(sh, false, false);
}

/* Connects the controllers along one device path, node by node, as the boot manager
 * does for console paths: each round binds drivers to the deepest handle found so far. */
static void connect_path(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_HANDLE previous = NULL;

	for (int round = 0; round < 64; round++) {
		EFI_DEVICE_PATH_PROTOCOL *rest = (EFI_DEVICE_PATH_PROTOCOL *)path;
		EFI_HANDLE h;
		if (EFI_ERROR(app_bs->LocateDevicePath((EFI_GUID *)&efi_device_path_protocol_guid,
						       &rest, &h)) ||
		    h == previous)
			return;
		previous = h;
		app_bs->ConnectController(h, NULL, dp_is_end(rest) ? NULL : rest, false);
		if (dp_is_end(rest))
			return;
	}
}

/* connect -c: the devices named in ConIn, ConOut and ErrOut. */
static void connect_consoles(void)
{
	static const CHAR16 *const names[] = {u"ConIn", u"ConOut", u"ErrOut"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		EFI_DEVICE_PATH_PROTOCOL *paths, *walk;
		UINTN size;
		UINT32 attributes;
		if (EFI_ERROR(sys_var_read(names[i], &efi_global_variable_guid, &attributes,
					   (void **)&paths, &size)))
			continue;
		walk = paths;
		if (dp_is_valid(paths, size))
			while (walk && (UINT8 *)walk < (UINT8 *)paths + size) {
				connect_path(walk);
				while (!dp_is_end_instance(walk))
					walk = dp_next(walk);
				walk = dp_is_end(walk) ? NULL : dp_next(walk);
			}
		app_free(paths);
	}
}

static EFI_STATUS cmd_connect(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-r", SH_OPT_FLAG}, {"-c", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_HANDLE ctrl, driver[2] = {NULL, NULL};
	bool recursive;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	recursive = sh_args_has(&a, "-r");
	if (a.count > 2 || (a.count && sh_args_has(&a, "-c"))) {
		sh_error(sh, "connect: give a controller and optionally a driver, or -c\n");
		return EFI_INVALID_PARAMETER;
	}
	if (sh_args_has(&a, "-c")) {
		connect_consoles();
		return EFI_SUCCESS;
	}
	if (!a.count) {
		sh_print(sh, "Connect - %u controllers gained drivers.\n",
			 (unsigned)connect_all(sh, recursive));
		return EFI_SUCCESS;
	}
	if (!(ctrl = sys_handle_arg(sh, "connect", a.pos[0])) ||
	    (a.count > 1 && !(driver[0] = sys_handle_arg(sh, "connect", a.pos[1]))))
		return EFI_INVALID_PARAMETER;
	status = app_bs->ConnectController(ctrl, driver[0] ? driver : NULL, NULL, recursive);
	report(sh, "Connect", ctrl, status);
	return status;
}

/* The controller, driver and child handles of disconnect and reconnect. */
static bool handles3(struct shell *sh, const char *cmd, const struct sh_args *a, EFI_HANDLE h[3])
{
	h[0] = h[1] = h[2] = NULL;
	if (a->count < 1 || a->count > 3) {
		sh_error(sh, "%s: give a controller, and optionally a driver and a child\n", cmd);
		return false;
	}
	for (UINTN i = 0; i < a->count; i++)
		if (!(h[i] = sys_handle_arg(sh, cmd, a->pos[i])))
			return false;
	return true;
}

static EFI_STATUS cmd_disconnect(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-a", SH_OPT_FLAG}, {"-r", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_HANDLE h[3];
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (sh_args_has(&a, "-a") || sh_args_has(&a, "-r")) {
		UINTN stopped;
		if (a.count) {
			sh_error(sh, "disconnect: -a and -r take no handles\n");
			return EFI_INVALID_PARAMETER;
		}
		stopped = disconnect_all(sh);
		if (sh_args_has(&a, "-r")) {
			connect_all(sh, true);
			connect_consoles();
		}
		sh_print(sh, "Disconnect - %u controllers released their drivers.\n",
			 (unsigned)stopped);
		return EFI_SUCCESS;
	}
	if (!handles3(sh, "disconnect", &a, h))
		return EFI_INVALID_PARAMETER;
	status = app_bs->DisconnectController(h[0], h[1], h[2]);
	report(sh, "Disconnect", h[0], status);
	return status;
}

static EFI_STATUS cmd_reconnect(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-r", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_HANDLE h[3], driver[2] = {NULL, NULL};
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (sh_args_has(&a, "-r")) {
		disconnect_all(sh);
		sh_print(sh, "Reconnect - %u controllers gained drivers.\n",
			 (unsigned)connect_all(sh, true));
		connect_consoles();
		return EFI_SUCCESS;
	}
	if (!handles3(sh, "reconnect", &a, h))
		return EFI_INVALID_PARAMETER;
	status = app_bs->DisconnectController(h[0], h[1], h[2]);
	report(sh, "Disconnect", h[0], status);
	if (EFI_ERROR(status))
		return status;
	driver[0] = h[1];
	status = app_bs->ConnectController(h[0], driver[0] ? driver : NULL, NULL, true);
	report(sh, "Connect", h[0], status);
	return status;
}

SH_COMMAND(connect, "connect", "Binds drivers to controllers",
	   "connect [-r] [controller [driver]] | -c\n"
	   "  Asks the drivers to manage a controller (ConnectController); handles are the\n"
	   "  hex numbers dh and devices show.\n"
	   "  (nothing)          connects every controller to the drivers that support it\n"
	   "  controller         connects one controller to any driver that supports it\n"
	   "  controller driver  connects it to that driver only\n"
	   "  -r                 recursively: the children created are connected too\n"
	   "  -c                 connects the console devices named in ConIn, ConOut\n"
	   "                     and ErrOut\n"
	   "  Examples:\n"
	   "    connect -r          everything, as the boot manager does\n"
	   "    connect 1A 2B       controller 1A with driver 2B\n",
	   cmd_connect);
SH_COMMAND(disconnect, "disconnect", "Releases drivers from controllers",
	   "disconnect controller [driver [child]] | -a | -r\n"
	   "  Stops drivers managing a controller (DisconnectController).\n"
	   "  controller               every driver managing it lets go (children go too)\n"
	   "  controller driver        only that driver\n"
	   "  controller driver child  only that child of the driver\n"
	   "  -a                       disconnects every controller: the consoles go away\n"
	   "  -r                       disconnects every controller, then connects them all\n"
	   "                           again and the consoles in ConIn/ConOut/ErrOut\n"
	   "  Example: disconnect 1A\n",
	   cmd_disconnect);
SH_COMMAND(reconnect, "reconnect", "Disconnects and connects controllers again",
	   "reconnect controller [driver [child]] | -r\n"
	   "  Disconnects the controller (as disconnect does) and connects it again,\n"
	   "  recursively, to the same driver or to any.\n"
	   "  -r   every controller, then the consoles\n"
	   "  Example: reconnect 1A\n",
	   cmd_reconnect);
