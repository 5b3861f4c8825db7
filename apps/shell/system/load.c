/* load: loads UEFI driver images from files and starts them (UEFI Shell 2.2, load); then
 * connects the controllers so that the new drivers bind, unless -nc. */
#include "sys.h"
#include <ember/lib/guids.h>

/* Loads and starts one image; prints where it went. */
static EFI_STATUS load_one(struct shell *sh, const CHAR16 *name)
{
	EFI_HANDLE image;
	EFI_LOADED_IMAGE_PROTOCOL *li;
	UINT64 base = 0;
	bool application = false;
	EFI_STATUS status = sh_load_image(sh, name, &image);
	char n[20];

	if (EFI_ERROR(status)) {
		sh_error(sh, "load: %ls: %s\n", name,
			 status == EFI_NOT_FOUND ? "no such file" : sys_status_text(status));
		return status;
	}
	if ((li = sys_protocol(image, &efi_loaded_image_protocol_guid))) {
		base = (UINTN)li->ImageBase;
		application = li->ImageCodeType == EfiLoaderCode;
	}
	sys_hnum(sh, image, n); /* numbered now: an application is gone after it runs */
	status = app_bs->StartImage(image, NULL, NULL);
	sh_print(sh, "Image '%ls' loaded at %llX", name, (unsigned long long)base);
	if (EFI_ERROR(status)) {
		/* StartImage unloads a driver whose entry point fails. */
		sh_print(sh, " - %s\n", sys_status_text(status));
		sh_error(sh, "load: %ls: its entry point returned %r\n", name, status);
		return status;
	}
	if (application)
		sh_print(sh, " - Success; an application: it ran and was unloaded\n");
	else
		sh_print(sh, " - Success, handle [%s]\n", n);
	return EFI_SUCCESS;
}

static void connect_everything(struct shell *sh)
{
	struct sys_handles all;

	if (EFI_ERROR(sys_handles_locate(sh, NULL, &all)))
		return;
	for (UINTN i = 0; i < all.count; i++)
		app_bs->ConnectController(all.h[i], NULL, NULL, true);
	sys_handles_free(&all);
}

static EFI_STATUS cmd_load(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-nc", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a), first = EFI_SUCCESS;
	bool loaded = false;

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		sh_error(sh, "load: name the driver files to load\n");
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 0; i < a.count; i++) {
		struct sh_match *m;
		UINTN n;
		status = sh_glob(sh, a.pos[i], &m, &n);
		if (EFI_ERROR(status)) {
			sh_error(sh, "load: %ls: no such file\n", a.pos[i]);
			first = EFI_ERROR(first) ? first : status;
			continue;
		}
		for (UINTN k = 0; k < n; k++) {
			status = load_one(sh, m[k].full);
			loaded |= !EFI_ERROR(status);
			first = EFI_ERROR(first) ? first : status;
		}
		sh_glob_free(m, n);
	}
	if (loaded && !sh_args_has(&a, "-nc"))
		connect_everything(sh);
	return first;
}

SH_COMMAND(load, "load", "Loads and starts UEFI drivers",
	   "load [-nc] file...\n"
	   "  Loads each driver image (wildcards allowed) and starts it: a driver's entry\n"
	   "  point installs its protocols (DriverBinding ...) and returns, and the image\n"
	   "  stays. Then every controller is connected, so that the new drivers bind to\n"
	   "  the devices they support. Applications are better started by typing their\n"
	   "  name.\n"
	   "  -nc   does not connect: the driver waits for connect\n"
	   "  Examples:\n"
	   "    load fs0:\\drivers\\ext4.efi\n"
	   "    load -nc *.efi\n",
	   cmd_load);
