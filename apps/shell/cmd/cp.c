/* cp (copy): copies files, and with -r directories. */
#include "cmd.h"

/* Whether dst lies inside the directory src (a copy would never end). */
static bool inside(struct shell *sh, const CHAR16 *src, const CHAR16 *dst)
{
	struct sh_path ps, pd;
	bool in = false;

	if (EFI_ERROR(sh_resolve(sh, src, &ps)))
		return false;
	if (!EFI_ERROR(sh_resolve(sh, dst, &pd))) {
		size_t n = str16_len(ps.path);
		in = ps.map == pd.map && str16_len(pd.path) > n &&
		     sh_eqn_nocase(pd.path, n, ps.path) && (pd.path[n] == '\\' || n == 1);
		sh_path_free(&pd);
	}
	sh_path_free(&ps);
	return in;
}

static EFI_STATUS copy_one(struct shell *sh, const struct sh_match *src, const CHAR16 *dst,
			   bool recursive, bool quiet)
{
	if (inside(sh, src->full, dst)) {
		sh_error(sh, "cp: cannot copy %ls into itself\n", src->full);
		return EFI_INVALID_PARAMETER;
	}
	if (!quiet)
		sh_print(sh, "Copying %ls -> %ls\n", src->full, dst);
	return cmd_copy(sh, "cp", src->full, dst, recursive);
}

/* Copies every match of one source argument into the directory dest_dir, or (when
 * dest_dir is NULL) onto dest. */
static EFI_STATUS copy_arg(struct shell *sh, const CHAR16 *arg, const CHAR16 *dest,
			   bool dest_is_dir, bool recursive, bool quiet)
{
	struct sh_match *m;
	UINTN count;
	EFI_STATUS status = sh_glob(sh, arg, &m, &count), worst = EFI_SUCCESS;

	if (EFI_ERROR(status)) {
		sh_error(sh, "cp: %ls: %s\n", arg, sh_status_text(status));
		return status;
	}
	if (!dest_is_dir && count > 1) {
		sh_glob_free(m, count);
		sh_error(sh, "cp: %ls matches several files: the destination must be a directory\n",
			 arg);
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 0; i < count; i++) {
		CHAR16 *to = dest_is_dir ? cmd_join(dest, m[i].name) : sh_strdup16(dest);
		status = to ? copy_one(sh, &m[i], to, recursive, quiet) : EFI_OUT_OF_RESOURCES;
		if (EFI_ERROR(status))
			worst = status;
		app_free(to);
	}
	sh_glob_free(m, count);
	return worst;
}

static EFI_STATUS cmd_cp(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-r", SH_OPT_FLAG}, {"-q", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_FILE_INFO *info;
	bool dest_is_dir;
	const CHAR16 *dest;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a), worst = EFI_SUCCESS;

	if (EFI_ERROR(status))
		return status;
	if (a.count < 2) {
		sh_error(sh, "cp: needs a source and a destination\n");
		return EFI_INVALID_PARAMETER;
	}
	dest = a.pos[a.count - 1];
	info = cmd_stat(sh, dest);
	dest_is_dir = info && (info->Attribute & EFI_FILE_DIRECTORY);
	app_free(info);
	if (a.count > 2 && !dest_is_dir) {
		sh_error(sh, "cp: %ls is not a directory\n", dest);
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 0; i + 1 < a.count; i++) {
		status = copy_arg(sh, a.pos[i], dest, dest_is_dir, sh_args_has(&a, "-r"),
				  sh_args_has(&a, "-q"));
		if (EFI_ERROR(status))
			worst = status;
	}
	return worst;
}

SH_COMMAND(cp, "cp", "Copies files and directories (also: copy)",
	   "cp [-r] [-q] source... destination\n"
	   "  Copies a file to a new name, or files (wildcards allowed) into an existing\n"
	   "  directory. An existing destination file is replaced.\n"
	   "  -r    copies directories with everything in them (not one nested more than\n"
	   "        64 levels deep, as in a loop of a damaged file system)\n"
	   "  -q    quiet: does not list what it copies\n"
	   "Examples:\n"
	   "  cp fs0:\\startup.nsh fs0:\\startup.bak\n"
	   "  cp -r fs0:\\efi fs1:\\\n",
	   cmd_cp);
