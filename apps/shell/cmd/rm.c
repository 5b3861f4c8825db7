/* rm (del, rd): deletes files, and directories with everything in them. */
#include "cmd.h"

/* The current directory and the root cannot go. */
static bool protected_path(struct shell *sh, const struct sh_match *m)
{
	struct sh_path p;
	bool prot = false;

	if (EFI_ERROR(sh_resolve(sh, m->full, &p)))
		return false;
	prot = (p.path[0] == '\\' && !p.path[1]) || str16_cmp(sh->maps[p.map].cwd, p.path) == 0;
	sh_path_free(&p);
	return prot;
}

static EFI_STATUS cmd_rm(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-q", SH_OPT_FLAG}, {"-r", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a), worst = EFI_SUCCESS;

	if (EFI_ERROR(status))
		return status;
	if (!a.count) {
		sh_error(sh, "rm: name the files or directories to delete\n");
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 0; i < a.count; i++) {
		struct sh_match *m;
		UINTN count;
		status = sh_glob(sh, a.pos[i], &m, &count);
		if (EFI_ERROR(status)) {
			/* Nothing of this name was touched: say so, as the tree check does. */
			sh_error(sh, "rm: %ls: %s; nothing deleted\n", a.pos[i],
				 sh_status_text(status));
			worst = status;
			continue;
		}
		for (UINTN k = 0; k < count; k++) {
			if (protected_path(sh, &m[k])) {
				sh_error(sh, "rm: %ls is the current directory or a root\n",
					 m[k].full);
				status = EFI_ACCESS_DENIED;
			} else {
				status = cmd_remove_tree(sh, "rm", m[k].full);
			}
			if (EFI_ERROR(status))
				worst = status;
		}
		sh_glob_free(m, count);
	}
	return worst;
}

SH_COMMAND(rm, "rm", "Deletes files and directories (also: del, rd)",
	   "rm [-q] name...\n"
	   "  Deletes each file, and each directory with everything in it. Names may hold\n"
	   "  wildcards in their last part. The current directory and roots are refused. A\n"
	   "  directory is first walked whole: one nested more than 64 levels deep (as in a\n"
	   "  loop of a damaged file system) is left as it is.\n"
	   "  -q    (accepted for compatibility: rm never asks)\n"
	   "Example:\n"
	   "  rm fs0:\\logs\\*.txt\n",
	   cmd_rm);
