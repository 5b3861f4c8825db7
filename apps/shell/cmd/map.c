/* map: the mapping table (fsN: file systems, blkN: block devices). */
#include "../internal.h"

static void print_map(struct shell *sh, const struct sh_map *m, bool current)
{
	CHAR16 *text = sh_devpath_text(sh, m->path);

	sh_print(sh, "%c%8ls: %ls\n", current ? '*' : ' ', m->name, text ? text : u"");
	app_free(text);
}

static EFI_STATUS cmd_map(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-r", SH_OPT_FLAG}, {NULL}};
	const struct sh_map *cur;
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (sh_args_has(&a, "-r")) {
		status = sh_map_refresh(sh);
		if (EFI_ERROR(status)) {
			sh_error(sh, "map: %s\n", sh_status_text(status));
			return status;
		}
	}
	cur = sh_map_current(sh);
	for (UINTN i = 0; i < a.count; i++) {
		const struct sh_map *m = sh_map_find(sh, a.pos[i]);
		if (!m) {
			sh_error(sh, "map: %ls is not a mapping\n", a.pos[i]);
			return EFI_NOT_FOUND;
		}
		print_map(sh, m, m == cur);
	}
	if (a.count)
		return EFI_SUCCESS;
	if (!sh_map_count(sh)) {
		sh_print(sh, "No mappings: no file systems or block devices were found.\n");
		return EFI_SUCCESS;
	}
	sh_print(sh, "Mapping table\n");
	for (UINTN i = 0; i < sh_map_count(sh) && !sh_interrupted(sh); i++)
		print_map(sh, sh_map_get(sh, i), sh_map_get(sh, i) == cur);
	return EFI_SUCCESS;
}

SH_COMMAND(map, "map", "Lists the mappings of file systems and block devices",
	   "map [-r] [name...]\n"
	   "  Lists fs0:, fs1: ... (file systems) and blk0:, blk1: ... (block devices) with their\n"
	   "  device paths; * marks the current file system. Type a file system's name with a\n"
	   "  colon (fs1:) to make it current.\n"
	   "  -r    rebuilds the table, for devices that appeared or went away\n",
	   cmd_map);
