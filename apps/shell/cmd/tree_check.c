/* The walk rm, cp and mv make over a tree before they change anything in it: it must end
 * within the bounds of pure/walk.h (no loop, no deeper than 64 levels), every directory
 * listed must open as a directory, and every name must be a name. On a damaged volume a
 * tree that fails this is left alone as a whole, rather than half deleted or copied. */
#include "../pure/walk.h"
#include "cmd.h"

struct scan {
	struct shell *sh;
	const char *cmd, *outcome;
	struct sh_walk walk;
	struct sh_buf path; /* of the directory being read */
};

/* Reports what stops the walk, where, and that nothing was changed. */
static EFI_STATUS problem(struct scan *sc, const char *what, EFI_STATUS status)
{
	sh_error(sc->sh, "%s: %ls: %s; %s\n", sc->cmd, sc->path.s, what, sc->outcome);
	return status;
}

/* A loop names the directory above whose listing came back. */
static EFI_STATUS walk_problem(struct scan *sc, enum sh_walk_verdict v)
{
	const CHAR16 *path = sc->path.s;
	size_t up;

	if (v != SH_WALK_LOOP)
		return problem(sc, sh_walk_verdict_text(v), EFI_ABORTED);
	up = sh_walk_path_up(path, sc->walk.depth - sc->walk.seen_first);
	sh_error(sc->sh, "%s: %ls: %s; it lists what %.*ls lists; %s\n", sc->cmd, path,
		 sh_walk_verdict_text(v), (int)up, path, sc->outcome);
	return EFI_VOLUME_CORRUPTED;
}

/* Reads a directory: the fingerprint of its listing and the names of its subdirectories. */
static EFI_STATUS read_listing(EFI_FILE_PROTOCOL *dir, UINT64 *print, struct sh_strv *subdirs)
{
	EFI_FILE_INFO *info;
	EFI_STATUS status;

	*print = SH_WALK_PRINT_INIT;
	sh_strv_init(subdirs);
	while (!EFI_ERROR(status = sh_dir_next(dir, &info)) && info) {
		*print = sh_walk_print_entry(*print, info);
		if (info->Attribute & EFI_FILE_DIRECTORY)
			sh_strv_push(subdirs, sh_strdup16(info->FileName));
		app_free(info);
	}
	if (!EFI_ERROR(status) && subdirs->failed)
		status = EFI_OUT_OF_RESOURCES;
	if (EFI_ERROR(status))
		sh_strv_free(subdirs);
	return status;
}

static EFI_STATUS scan_dir(struct scan *sc, EFI_FILE_PROTOCOL *dir);

/* Opens and walks the subdirectory name of dir, whose path is already sc->path. */
static EFI_STATUS walk_child(struct scan *sc, EFI_FILE_PROTOCOL *dir, const CHAR16 *name)
{
	static const char two_names[] = "opens a file, not the directory listed: the file system "
					"is damaged (two entries with one name?)";
	EFI_FILE_PROTOCOL *child;
	EFI_STATUS status;

	if (!sh_walk_name_ok(name))
		return problem(sc, "an entry has a name no path can hold", EFI_VOLUME_CORRUPTED);
	status = dir->Open(dir, &child, (CHAR16 *)name, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status))
		return problem(sc, sh_status_text(status), status);
	if (sh_is_directory(child))
		status = scan_dir(sc, child);
	else
		status = problem(sc, two_names, EFI_VOLUME_CORRUPTED);
	child->Close(child);
	return status;
}

/* The path grows by the name while the subdirectory is walked. */
static EFI_STATUS scan_child(struct scan *sc, EFI_FILE_PROTOCOL *dir, const CHAR16 *name)
{
	size_t keep = sc->path.len;
	EFI_STATUS status;

	if (keep && sc->path.s[keep - 1] != '\\')
		sh_buf_putc(&sc->path, '\\');
	sh_buf_puts(&sc->path, name);
	if (sc->path.failed)
		return EFI_OUT_OF_RESOURCES;
	status = walk_child(sc, dir, name);
	sc->path.len = keep;
	sc->path.s[keep] = 0;
	return status;
}

static EFI_STATUS scan_dir(struct scan *sc, EFI_FILE_PROTOCOL *dir)
{
	struct sh_strv subdirs;
	enum sh_walk_verdict v;
	UINT64 print;
	EFI_STATUS status = read_listing(dir, &print, &subdirs);

	if (EFI_ERROR(status))
		return problem(sc, sh_status_text(status), status);
	v = sh_walk_enter(&sc->walk, print);
	if (v == SH_WALK_OK) {
		for (size_t i = 0; i < subdirs.count && !EFI_ERROR(status); i++)
			status = scan_child(sc, dir, subdirs.v[i]);
		sh_walk_leave(&sc->walk);
	} else {
		status = walk_problem(sc, v);
	}
	sh_strv_free(&subdirs);
	return status;
}

EFI_STATUS cmd_tree_check(struct shell *sh, const char *cmd, const CHAR16 *name,
			  const char *outcome)
{
	struct scan sc = {sh, cmd, outcome};
	EFI_FILE_PROTOCOL *dir;
	EFI_STATUS status;

	sh_walk_init(&sc.walk);
	sh_buf_init(&sc.path);
	sh_buf_puts(&sc.path, name);
	status = EFI_OUT_OF_RESOURCES;
	if (!sc.path.failed)
		status = sh_open(sh, name, EFI_FILE_MODE_READ, 0, &dir);
	if (EFI_ERROR(status)) {
		problem(&sc, sh_status_text(status), status);
	} else {
		status = sh_is_directory(dir) ? scan_dir(&sc, dir) : EFI_SUCCESS;
		dir->Close(dir);
	}
	sh_buf_free(&sc.path);
	return status;
}
