/* mv (move, ren): renames and moves files and directories. */
#include "cmd.h"

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

/* Within one volume: SetInfo with the new absolute path as FileName. */
static EFI_STATUS rename_within(struct shell *sh, const struct sh_path *from,
				const struct sh_path *to)
{
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info, *renamed;
	UINTN size;
	EFI_STATUS status = sh_open_path(sh, from, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);

	if (EFI_ERROR(status))
		return status;
	info = sh_file_info(f);
	size = SIZE_OF_EFI_FILE_INFO + str16_size(to->path);
	renamed = info ? app_zalloc(size) : NULL;
	if (!renamed) {
		app_free(info);
		f->Close(f);
		return EFI_OUT_OF_RESOURCES;
	}
	mem_copy(renamed, info, SIZE_OF_EFI_FILE_INFO);
	renamed->Size = size;
	str16_copy(renamed->FileName, to->path);
	status = f->SetInfo(f, &file_info_guid, size, renamed);
	app_free(renamed);
	app_free(info);
	f->Close(f);
	return status;
}

static EFI_STATUS move_one(struct shell *sh, const CHAR16 *src, const CHAR16 *dst)
{
	struct sh_path from, to;
	EFI_STATUS status = sh_resolve(sh, src, &from);

	if (EFI_ERROR(status)) {
		sh_error(sh, "mv: %ls: %s\n", src, sh_status_text(status));
		return status;
	}
	status = sh_resolve(sh, dst, &to);
	if (EFI_ERROR(status)) {
		sh_path_free(&from);
		sh_error(sh, "mv: %ls: %s\n", dst, sh_status_text(status));
		return status;
	}
	if (from.map == to.map) {
		status = rename_within(sh, &from, &to);
		if (EFI_ERROR(status))
			sh_error(sh, "mv: cannot move %ls to %ls: %s\n", src, dst,
				 sh_status_text(status));
	} else {
		/* Another volume: copy, then delete the original. */
		status = cmd_copy(sh, "mv", src, dst, true);
		if (!EFI_ERROR(status))
			status = cmd_remove_tree(sh, "mv", src);
	}
	sh_path_free(&from);
	sh_path_free(&to);
	return status;
}

static EFI_STATUS cmd_mv(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	struct sh_args a;
	EFI_FILE_INFO *info;
	bool dest_is_dir;
	const CHAR16 *dest;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, NULL, &a), worst = EFI_SUCCESS;

	if (EFI_ERROR(status))
		return status;
	if (a.count < 2) {
		sh_error(sh, "mv: needs a source and a destination\n");
		return EFI_INVALID_PARAMETER;
	}
	dest = a.pos[a.count - 1];
	info = cmd_stat(sh, dest);
	dest_is_dir = info && (info->Attribute & EFI_FILE_DIRECTORY);
	app_free(info);
	for (UINTN i = 0; i + 1 < a.count; i++) {
		struct sh_match *m;
		UINTN count;
		status = sh_glob(sh, a.pos[i], &m, &count);
		if (EFI_ERROR(status)) {
			sh_error(sh, "mv: %ls: %s\n", a.pos[i], sh_status_text(status));
			worst = status;
			continue;
		}
		if ((count > 1 || a.count > 2) && !dest_is_dir) {
			sh_error(sh, "mv: %ls is not a directory\n", dest);
			sh_glob_free(m, count);
			return EFI_INVALID_PARAMETER;
		}
		for (UINTN k = 0; k < count; k++) {
			CHAR16 *to = dest_is_dir ? cmd_join(dest, m[k].name) : sh_strdup16(dest);
			status = to ? move_one(sh, m[k].full, to) : EFI_OUT_OF_RESOURCES;
			if (EFI_ERROR(status))
				worst = status;
			app_free(to);
		}
		sh_glob_free(m, count);
	}
	return worst;
}

SH_COMMAND(mv, "mv", "Moves or renames files and directories (also: move, ren)",
	   "mv source... destination\n"
	   "  Renames a file or directory, or moves files (wildcards allowed) into an\n"
	   "  existing directory. Across file systems it copies, then deletes the original.\n"
	   "Examples:\n"
	   "  mv report.txt report.old\n"
	   "  mv *.log logs\n",
	   cmd_mv);
