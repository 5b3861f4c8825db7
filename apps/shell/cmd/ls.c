/* ls (dir): lists directories, sorted by name, with dates, sizes and attributes. */
#include "../internal.h"
#include "../pure/walk.h"
#include "../pure/wild.h"

struct ls {
	struct shell *sh;
	bool all, recursive, sfo;
	struct sh_walk walk; /* -r: the directories on the path, to stop loops */
	bool stopped;	     /* -r: the walk met a loop or a bound */
};

struct entries {
	EFI_FILE_INFO **e;
	UINTN count;
};

static void entries_free(struct entries *l)
{
	for (UINTN i = 0; i < l->count; i++)
		app_free(l->e[i]);
	app_free(l->e);
}

static bool shown(const struct ls *st, const EFI_FILE_INFO *info, const CHAR16 *pattern)
{
	if (!st->all && (info->Attribute & (EFI_FILE_HIDDEN | EFI_FILE_SYSTEM)))
		return false;
	return !pattern || sh_name_match(st->sh, info->FileName, pattern);
}

/* Reads the entries of dir that are shown, sorted by name; *print gets the fingerprint of
 * all of them (pure/walk.h). */
static EFI_STATUS read_entries(struct ls *st, EFI_FILE_PROTOCOL *dir, const CHAR16 *pattern,
			       struct entries *l, UINT64 *print)
{
	EFI_FILE_INFO *info;
	EFI_STATUS status;
	UINTN cap = 0;

	*l = (struct entries){0};
	*print = SH_WALK_PRINT_INIT;
	while (!EFI_ERROR(status = sh_dir_next(dir, &info)) && info) {
		*print = sh_walk_print_entry(*print, info);
		if (!shown(st, info, pattern)) {
			app_free(info);
			continue;
		}
		if (l->count == cap) {
			EFI_FILE_INFO **e = app_alloc((cap = cap ? cap * 2 : 32) * sizeof(*e));
			if (!e) {
				app_free(info);
				status = EFI_OUT_OF_RESOURCES;
				break;
			}
			if (l->count)
				mem_copy(e, l->e, l->count * sizeof(*e));
			app_free(l->e);
			l->e = e;
		}
		UINTN i = l->count++;
		while (i > 0 && sh_cmp_nocase(l->e[i - 1]->FileName, info->FileName) > 0) {
			l->e[i] = l->e[i - 1];
			i--;
		}
		l->e[i] = info;
	}
	if (EFI_ERROR(status))
		entries_free(l);
	return status;
}

static void attributes(const EFI_FILE_INFO *info, char out[5])
{
	out[0] = info->Attribute & EFI_FILE_READ_ONLY ? 'r' : '-';
	out[1] = info->Attribute & EFI_FILE_HIDDEN ? 'h' : '-';
	out[2] = info->Attribute & EFI_FILE_SYSTEM ? 's' : '-';
	out[3] = info->Attribute & EFI_FILE_ARCHIVE ? 'a' : '-';
	out[4] = 0;
}

static void print_time(struct shell *sh, const EFI_TIME *t, bool seconds)
{
	sh_print(sh, "%02u/%02u/%04u  %02u:%02u", t->Month, t->Day, t->Year, t->Hour, t->Minute);
	if (seconds)
		sh_print(sh, ":%02u", t->Second);
}

static void print_entry(struct ls *st, const CHAR16 *dir, const EFI_FILE_INFO *info)
{
	struct shell *sh = st->sh;
	bool is_dir = info->Attribute & EFI_FILE_DIRECTORY;
	size_t dl = str16_len(dir);
	char attr[5];

	attributes(info, attr);
	if (st->sfo) {
		sh_print(sh, "FileInfo,\"%ls%s%ls\",\"%llu\",\"%llu\",\"%s%s\",\"", dir,
			 dl && dir[dl - 1] == '\\' ? "" : "\\", info->FileName,
			 (unsigned long long)info->FileSize, (unsigned long long)info->PhysicalSize,
			 attr, is_dir ? "d" : "");
		print_time(sh, &info->ModificationTime, true);
		sh_print(sh, "\"\n");
		return;
	}
	print_time(sh, &info->ModificationTime, false);
	sh_print(sh, " %5s %12llu  %s  %ls\n", is_dir ? "<DIR>" : "",
		 (unsigned long long)info->FileSize, attr, info->FileName);
}

static CHAR16 *child_name(const CHAR16 *dir, const CHAR16 *name)
{
	struct sh_buf b;
	size_t dl = str16_len(dir);

	sh_buf_init(&b);
	sh_buf_puts(&b, dir);
	if (dl && dir[dl - 1] != '\\')
		sh_buf_putc(&b, '\\');
	sh_buf_puts(&b, name);
	return sh_buf_take(&b);
}

/* The walk's verdict on a directory about to be listed; a problem stops ls -r. */
static EFI_STATUS walk_check(struct ls *st, const CHAR16 *dir_text, UINT64 print)
{
	enum sh_walk_verdict v = sh_walk_enter(&st->walk, print);
	size_t up;

	if (v == SH_WALK_OK)
		return EFI_SUCCESS;
	st->stopped = true;
	if (v != SH_WALK_LOOP) {
		sh_error(st->sh, "ls: %ls: %s; not listed\n", dir_text, sh_walk_verdict_text(v));
		return EFI_ABORTED;
	}
	up = sh_walk_path_up(dir_text, st->walk.depth - st->walk.seen_first);
	sh_error(st->sh, "ls: %ls: %s; it lists what %.*ls lists; not listed\n", dir_text,
		 sh_walk_verdict_text(v), (int)up, dir_text);
	return EFI_VOLUME_CORRUPTED;
}

/* Opens a directory and reads the entries shown. A name that opens a file where a
 * directory was listed means two entries share it: the file's bytes are no entries. */
static EFI_STATUS read_dir(struct ls *st, const CHAR16 *dir_text, const CHAR16 *pattern,
			   struct entries *l)
{
	EFI_FILE_PROTOCOL *dir;
	UINT64 print;
	EFI_STATUS status = sh_open(st->sh, dir_text, EFI_FILE_MODE_READ, 0, &dir);

	if (!EFI_ERROR(status) && !sh_is_directory(dir)) {
		dir->Close(dir);
		sh_error(st->sh,
			 "ls: %ls: opens a file, not the directory listed: the file "
			 "system is damaged (two entries with one name?)\n",
			 dir_text);
		return EFI_VOLUME_CORRUPTED;
	}
	if (!EFI_ERROR(status)) {
		status = read_entries(st, dir, pattern, l, &print);
		dir->Close(dir);
	}
	if (EFI_ERROR(status)) {
		sh_error(st->sh, "ls: %ls: %s\n", dir_text, sh_status_text(status));
		return status;
	}
	status = st->recursive ? walk_check(st, dir_text, print) : EFI_SUCCESS;
	if (EFI_ERROR(status))
		entries_free(l);
	return status;
}

static void print_entries(struct ls *st, const CHAR16 *dir_text, const struct entries *l)
{
	struct shell *sh = st->sh;
	UINTN files = 0, dirs = 0;
	UINT64 bytes = 0;

	if (!st->sfo)
		sh_print(sh, "Directory of: %ls\n", dir_text);
	for (UINTN i = 0; i < l->count && !sh_interrupted(sh); i++) {
		print_entry(st, dir_text, l->e[i]);
		if (l->e[i]->Attribute & EFI_FILE_DIRECTORY) {
			dirs++;
		} else {
			files++;
			bytes += l->e[i]->FileSize;
		}
	}
	if (!st->sfo)
		sh_print(sh, "%10u File(s) %12llu bytes\n%10u Dir(s)\n", (unsigned)files,
			 (unsigned long long)bytes, (unsigned)dirs);
}

static EFI_STATUS list_dir(struct ls *st, const CHAR16 *dir_text, const CHAR16 *pattern);

/* ls -r: the subdirectories, until the walk stops. */
static EFI_STATUS list_children(struct ls *st, const CHAR16 *dir_text, const struct entries *l,
				const CHAR16 *pattern)
{
	EFI_STATUS worst = EFI_SUCCESS;

	for (UINTN i = 0; i < l->count && !st->stopped && !sh_interrupted(st->sh); i++) {
		const CHAR16 *name = l->e[i]->FileName;
		CHAR16 *child;
		EFI_STATUS status;
		if (!(l->e[i]->Attribute & EFI_FILE_DIRECTORY))
			continue;
		if (!sh_walk_name_ok(name)) {
			sh_error(st->sh, "ls: %ls: an entry's name '%ls' is no name; not listed\n",
				 dir_text, name);
			worst = EFI_VOLUME_CORRUPTED;
			continue;
		}
		child = child_name(dir_text, name);
		if (!child)
			return EFI_OUT_OF_RESOURCES;
		if (!st->sfo)
			sh_print(st->sh, "\n");
		status = list_dir(st, child, pattern);
		app_free(child);
		if (EFI_ERROR(status))
			worst = status;
	}
	return worst;
}

static EFI_STATUS list_dir(struct ls *st, const CHAR16 *dir_text, const CHAR16 *pattern)
{
	struct entries l;
	EFI_STATUS status = read_dir(st, dir_text, pattern, &l);

	if (EFI_ERROR(status))
		return status;
	print_entries(st, dir_text, &l);
	if (st->recursive) {
		status = list_children(st, dir_text, &l, pattern);
		sh_walk_leave(&st->walk);
	}
	entries_free(&l);
	return status;
}

/* One argument: a directory, a file, or a pattern in a directory. */
static EFI_STATUS list_arg(struct ls *st, const CHAR16 *arg)
{
	struct shell *sh = st->sh;
	struct sh_match *m;
	UINTN count;
	EFI_STATUS status = sh_glob(sh, arg, &m, &count);
	CHAR16 *dir;

	if (EFI_ERROR(status)) {
		sh_error(sh, "ls: %ls: %s\n", arg, sh_status_text(status));
		return status;
	}
	if (count == 1 && (m[0].info->Attribute & EFI_FILE_DIRECTORY) &&
	    !sh_has_wildcards(arg + sh_last_component(arg))) {
		status = list_dir(st, m[0].full, NULL);
		sh_glob_free(m, count);
		return status;
	}
	dir = sh_strndup16(m[0].full, (size_t)(m[0].name - m[0].full));
	sh_glob_free(m, count);
	if (!dir)
		return EFI_OUT_OF_RESOURCES;
	status = list_dir(st, dir, arg + sh_last_component(arg));
	app_free(dir);
	return status;
}

static EFI_STATUS cmd_ls(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {
	    {"-r", SH_OPT_FLAG}, {"-a", SH_OPT_FLAG}, {"-sfo", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	struct ls st = {sh};
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a), worst = EFI_SUCCESS;

	if (EFI_ERROR(status))
		return status;
	st.recursive = sh_args_has(&a, "-r");
	sh_walk_init(&st.walk);
	st.all = sh_args_has(&a, "-a");
	st.sfo = sh_args_has(&a, "-sfo");
	if (st.sfo)
		sh_print(sh, "ShellCommand,\"ls\"\n");
	if (!a.count)
		return list_arg(&st, u".");
	for (UINTN i = 0; i < a.count && !st.stopped; i++) {
		if (i && !st.sfo)
			sh_print(sh, "\n");
		status = list_arg(&st, a.pos[i]);
		if (EFI_ERROR(status))
			worst = status;
	}
	return worst;
}

SH_COMMAND(ls, "ls", "Lists files and directories (also: dir)",
	   "ls [-r] [-a] [-sfo] [name...]\n"
	   "  Lists each directory named (the current one by default), or the files that\n"
	   "  match a name with wildcards (* ? [a-z]) in its last part, sorted by name: date\n"
	   "  and time of the last change, <DIR> or the size in bytes, the attributes (r read-\n"
	   "  only, h hidden, s system, a archive) and the name; then the totals.\n"
	   "  -r    lists subdirectories too, at most 64 levels deep (deeper, as in a loop\n"
	   "        of a damaged file system, it stops)\n"
	   "  -a    shows hidden and system files as well\n"
	   "  -sfo  standard-format output: one FileInfo,\"name\",\"size\",\"physical size\",\n"
	   "        \"attributes\",\"modified\" line per file\n"
	   "  -b    pauses after each screenful\n"
	   "Examples:\n"
	   "  ls fs0:\\efi\\boot\n"
	   "  ls -r *.efi\n",
	   cmd_ls);
