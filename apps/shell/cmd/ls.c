/* ls (dir): lists directories, sorted by name, with dates, sizes and attributes. */
#include "../internal.h"
#include "../pure/wild.h"

struct ls {
	struct shell *sh;
	bool all, recursive, sfo;
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

/* Reads the entries of dir that are shown, sorted by name. */
static EFI_STATUS read_entries(struct ls *st, EFI_FILE_PROTOCOL *dir, const CHAR16 *pattern,
			       struct entries *l)
{
	EFI_FILE_INFO *info;
	EFI_STATUS status;
	UINTN cap = 0;

	*l = (struct entries){0};
	while (!EFI_ERROR(status = sh_dir_next(dir, &info)) && info) {
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

static EFI_STATUS list_dir(struct ls *st, const CHAR16 *dir_text, const CHAR16 *pattern)
{
	struct shell *sh = st->sh;
	EFI_FILE_PROTOCOL *dir;
	struct entries l;
	UINTN files = 0, dirs = 0;
	UINT64 bytes = 0;
	EFI_STATUS status = sh_open(sh, dir_text, EFI_FILE_MODE_READ, 0, &dir);

	if (EFI_ERROR(status)) {
		sh_error(sh, "ls: %ls: %s\n", dir_text, sh_status_text(status));
		return status;
	}
	status = read_entries(st, dir, pattern, &l);
	dir->Close(dir);
	if (EFI_ERROR(status)) {
		sh_error(sh, "ls: %ls: %s\n", dir_text, sh_status_text(status));
		return status;
	}
	if (!st->sfo)
		sh_print(sh, "Directory of: %ls\n", dir_text);
	for (UINTN i = 0; i < l.count && !sh_interrupted(sh); i++) {
		print_entry(st, dir_text, l.e[i]);
		if (l.e[i]->Attribute & EFI_FILE_DIRECTORY) {
			dirs++;
		} else {
			files++;
			bytes += l.e[i]->FileSize;
		}
	}
	if (!st->sfo)
		sh_print(sh, "%10u File(s) %12llu bytes\n%10u Dir(s)\n", (unsigned)files,
			 (unsigned long long)bytes, (unsigned)dirs);
	for (UINTN i = 0; st->recursive && i < l.count && !sh_interrupted(sh); i++) {
		CHAR16 *child;
		if (!(l.e[i]->Attribute & EFI_FILE_DIRECTORY))
			continue;
		child = child_name(dir_text, l.e[i]->FileName);
		if (child) {
			if (!st->sfo)
				sh_print(sh, "\n");
			list_dir(st, child, pattern);
		}
		app_free(child);
	}
	entries_free(&l);
	return EFI_SUCCESS;
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
	st.all = sh_args_has(&a, "-a");
	st.sfo = sh_args_has(&a, "-sfo");
	if (st.sfo)
		sh_print(sh, "ShellCommand,\"ls\"\n");
	if (!a.count)
		return list_arg(&st, u".");
	for (UINTN i = 0; i < a.count; i++) {
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
	   "  -r    lists subdirectories too\n"
	   "  -a    shows hidden and system files as well\n"
	   "  -sfo  standard-format output: one FileInfo,\"name\",\"size\",\"physical size\",\n"
	   "        \"attributes\",\"modified\" line per file\n"
	   "  -b    pauses after each screenful\n"
	   "Examples:\n"
	   "  ls fs0:\\efi\\boot\n"
	   "  ls -r *.efi\n",
	   cmd_ls);
