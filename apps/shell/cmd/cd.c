/* cd: shows or changes the current directory. */
#include "../internal.h"

static EFI_STATUS is_directory(struct shell *sh, const struct sh_path *p)
{
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info;
	EFI_STATUS status = sh_open_path(sh, p, EFI_FILE_MODE_READ, 0, &f);

	if (EFI_ERROR(status))
		return status;
	info = sh_file_info(f);
	f->Close(f);
	status = !info					? EFI_DEVICE_ERROR
		 : info->Attribute & EFI_FILE_DIRECTORY ? EFI_SUCCESS
							: EFI_INVALID_PARAMETER;
	app_free(info);
	return status;
}

static EFI_STATUS cmd_cd(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	struct sh_args a;
	struct sh_path p;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, NULL, &a);

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		CHAR16 *cwd = sh_cwd_text(sh);
		if (!cwd) {
			sh_error(sh, "cd: there is no current file system\n");
			return EFI_NOT_FOUND;
		}
		sh_print(sh, "%ls\n", cwd);
		app_free(cwd);
		return EFI_SUCCESS;
	}
	if (a.count > 1) {
		sh_error(sh, "cd: too many arguments (quote names with spaces)\n");
		return EFI_INVALID_PARAMETER;
	}
	status = sh_resolve(sh, a.pos[0], &p);
	if (!EFI_ERROR(status))
		status = is_directory(sh, &p);
	if (!EFI_ERROR(status))
		status = sh_set_cwd(sh, p.map, p.path, true);
	sh_path_free(&p);
	if (status == EFI_INVALID_PARAMETER)
		sh_error(sh, "cd: %ls is not a directory\n", a.pos[0]);
	else if (EFI_ERROR(status))
		sh_error(sh, "cd: %ls: %s\n", a.pos[0], sh_status_text(status));
	return status;
}

SH_COMMAND(cd, "cd", "Shows or changes the current directory",
	   "cd [directory]\n"
	   "  Without an argument, prints the current directory. Otherwise makes the named\n"
	   "  directory current; a name with a mapping (fs1:\\efi) also makes that file\n"
	   "  system current. \"..\" is the parent, \"\\\" the root.\n"
	   "Examples:\n"
	   "  cd efi\\boot\n"
	   "  cd ..\n",
	   cmd_cd);
