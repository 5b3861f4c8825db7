/* mkdir (md): creates directories. */
#include "../internal.h"

static EFI_STATUS make_dir(struct shell *sh, const CHAR16 *name)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = sh_open(sh, name, EFI_FILE_MODE_READ, 0, &f);

	if (!EFI_ERROR(status)) {
		f->Close(f);
		sh_error(sh, "mkdir: %ls already exists\n", name);
		return EFI_ACCESS_DENIED;
	}
	status = sh_open(sh, name, mode, EFI_FILE_DIRECTORY, &f);
	if (EFI_ERROR(status)) {
		sh_error(sh, "mkdir: cannot create %ls: %s\n", name, sh_status_text(status));
		return status;
	}
	f->Close(f);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_mkdir(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, NULL, &a), worst = EFI_SUCCESS;

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		sh_error(sh, "mkdir: name the directories to create\n");
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 0; i < a.count; i++)
		if (EFI_ERROR(status = make_dir(sh, a.pos[i])))
			worst = status;
	return worst;
}

SH_COMMAND(mkdir, "mkdir", "Creates directories (also: md)",
	   "mkdir directory...\n"
	   "  Creates each directory; its parent must exist.\n"
	   "Example:\n"
	   "  mkdir fs0:\\efi\\tools\n",
	   cmd_mkdir);
