/* dh: the handle database (UEFI Shell 2.2, dh): every handle and its protocols, handles
 * with one protocol, or one handle in detail. */
#include "dh.h"
#include <ember/lib/guids.h>

/* The handle's protocols, in the order the firmware gives them. */
static EFI_STATUS protocols_of(EFI_HANDLE h, EFI_GUID ***guids, UINTN *n)
{
	*guids = NULL;
	*n = 0;
	return app_bs->ProtocolsPerHandle(h, guids, n);
}

/* " 1A: DevicePath(PciRoot(0x0)/...) BlockIo LoadedImage(\x.efi)" */
static void print_line(struct shell *sh, EFI_HANDLE h)
{
	EFI_GUID **guids;
	UINTN n;
	CHAR16 buf[40];

	sh_print(sh, "%3X:", (unsigned)sh_handle_index(sh, h));
	if (!EFI_ERROR(protocols_of(h, &guids, &n))) {
		for (UINTN i = 0; i < n; i++) {
			CHAR16 *extra = NULL;
			void *iface = sys_protocol(h, guids[i]);
			if (guid_eq(guids[i], &efi_device_path_protocol_guid) && iface)
				extra = sh_devpath_text(sh, iface);
			else if (guid_eq(guids[i], &efi_loaded_image_protocol_guid) && iface)
				extra = sys_image_name(sh, h);
			sh_print(sh, " %ls", dh_protocol_name(sh, guids[i], buf));
			if (extra)
				sh_print(sh, "(%ls)", extra);
			app_free(extra);
		}
		app_free(guids);
	}
	sh_print(sh, "\n");
}

/* "Handle 1A (000000003E5C7F18)" then each protocol with what dh knows about it. */
static void print_detail(struct shell *sh, EFI_HANDLE h, bool verbose, bool model)
{
	EFI_GUID **guids;
	UINTN n;
	CHAR16 buf[40];

	sh_print(sh, "Handle %X (%016llX)\n", (unsigned)sh_handle_index(sh, h),
		 (unsigned long long)(UINTN)h);
	if (!EFI_ERROR(protocols_of(h, &guids, &n))) {
		for (UINTN i = 0; i < n && !sh_interrupted(sh); i++) {
			void *iface = sys_protocol(h, guids[i]);
			sh_print(sh, "   %ls", dh_protocol_name(sh, guids[i], buf));
			if (verbose)
				sh_print(sh, " (%016llX)", (unsigned long long)(UINTN)iface);
			sh_print(sh, "\n");
			dh_protocol_details(sh, h, guids[i], iface);
			if (verbose)
				dh_open_info(sh, h, guids[i]);
		}
		app_free(guids);
	}
	if (model)
		dh_driver_model(sh, h);
}

static EFI_STATUS dump_all(struct shell *sh, const EFI_GUID *protocol, bool verbose, bool model)
{
	struct sys_handles l;
	EFI_STATUS status = sys_handles_locate(sh, protocol, &l);

	if (EFI_ERROR(status)) {
		sh_error(sh, "dh: cannot list the handles: %s\n", sys_status_text(status));
		return status;
	}
	for (UINTN i = 0; i < l.count && !sh_interrupted(sh); i++) {
		if (verbose || model)
			print_detail(sh, l.h[i], verbose, model);
		else
			print_line(sh, l.h[i]);
	}
	if (protocol && !l.count)
		sh_print(sh, "No handle carries this protocol.\n");
	sys_handles_free(&l);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_dh(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-p", SH_OPT_VALUE},
					     {"-v", SH_OPT_FLAG},
					     {"-verbose", SH_OPT_FLAG},
					     {"-d", SH_OPT_FLAG},
					     {NULL}};
	struct sh_args a;
	const CHAR16 *prot;
	EFI_GUID guid;
	bool verbose, model;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	verbose = sh_args_has(&a, "-v") || sh_args_has(&a, "-verbose");
	model = sh_args_has(&a, "-d");
	prot = sh_args_value(&a, "-p");
	if (a.count > 1 || (a.count && prot)) {
		sh_error(sh, "dh: give one handle number, or -p and a protocol\n");
		return EFI_INVALID_PARAMETER;
	}
	if (a.count) {
		EFI_HANDLE h = sys_handle_arg(sh, "dh", a.pos[0]);
		if (!h)
			return EFI_INVALID_PARAMETER;
		print_detail(sh, h, verbose, model);
		return EFI_SUCCESS;
	}
	if (prot && !sys_parse_guid(sh, prot, &guid)) {
		sh_error(sh, "dh: '%ls' is neither a protocol name nor a GUID\n", prot);
		return EFI_NOT_FOUND;
	}
	if (prot)
		sh_print(sh, "Handle dump by protocol '%ls'\n", prot);
	else
		sh_print(sh, "Handle dump\n");
	return dump_all(sh, prot ? &guid : NULL, verbose, model);
}

SH_COMMAND(dh, "dh", "Shows the handles and their protocols",
	   "dh [-p protocol | handle] [-v] [-d]\n"
	   "  Lists every handle with its number and the names of its protocols (device\n"
	   "  paths and image files in parentheses). Handle numbers are hex; devices,\n"
	   "  drivers, connect and disconnect take the same numbers.\n"
	   "  handle    shows one handle: each protocol with what it says (a device path's\n"
	   "            text, a block device's size, a PCI function's address ...)\n"
	   "  -p name   lists only the handles carrying a protocol, by name (BlockIo,\n"
	   "            SimpleFileSystem, PciIo ...) or GUID\n"
	   "  -v        adds each interface's address and who opened it (agent handle,\n"
	   "            controller, count, BY_DRIVER ...)\n"
	   "  -d        adds the driver model: the controller's name and type, the\n"
	   "            drivers managing it, its parents and children; for a driver, its\n"
	   "            name, version, image and the controllers it manages\n"
	   "  Examples:\n"
	   "    dh                  all handles\n"
	   "    dh -p BlockIo       the block devices\n"
	   "    dh 1A -d            handle 1A and its place in the driver model\n",
	   cmd_dh);
