/* Wildcards in file names: the last component of a name may hold * ? and [...]. */
#include "internal.h"
#include "pure/wild.h"

bool sh_name_match(struct shell *sh, const CHAR16 *name, const CHAR16 *pattern)
{
	if (sh->collation)
		return sh->collation->MetaiMatch(sh->collation, (CHAR16 *)name, (CHAR16 *)pattern);
	return sh_wild_match(name, pattern);
}

void sh_glob_free(struct sh_match *m, UINTN count)
{
	for (UINTN i = 0; m && i < count; i++) {
		app_free(m[i].full);
		app_free(m[i].info);
	}
	app_free(m);
}

size_t sh_last_component(const CHAR16 *name)
{
	size_t start = 0;

	for (size_t i = 0; name[i]; i++)
		if (name[i] == '\\' || name[i] == '/' || name[i] == ':')
			start = i + 1;
	return start;
}

struct match_list {
	struct sh_match *m;
	UINTN count, cap;
};

/* Adds "dir\name" (dir is the directory's text, "fs0:\" or "fs0:\a"); takes info. */
static EFI_STATUS add_match(struct match_list *l, const CHAR16 *dir, EFI_FILE_INFO *info)
{
	struct sh_buf b;
	size_t dl = str16_len(dir);

	if (l->count == l->cap) {
		UINTN cap = l->cap ? l->cap * 2 : 16;
		struct sh_match *m = app_alloc(cap * sizeof(*m));
		if (!m)
			goto oom;
		if (l->count)
			mem_copy(m, l->m, l->count * sizeof(*m));
		app_free(l->m);
		l->m = m;
		l->cap = cap;
	}
	sh_buf_init(&b);
	sh_buf_puts(&b, dir);
	if (dl && dir[dl - 1] != '\\')
		sh_buf_putc(&b, '\\');
	sh_buf_puts(&b, info->FileName);
	l->m[l->count].full = sh_buf_take(&b);
	if (!l->m[l->count].full)
		goto oom;
	l->m[l->count].name =
	    l->m[l->count].full + str16_len(l->m[l->count].full) - str16_len(info->FileName);
	l->m[l->count++].info = info;
	return EFI_SUCCESS;
oom:
	app_free(info);
	return EFI_OUT_OF_RESOURCES;
}

static void sort_matches(struct match_list *l)
{
	for (UINTN i = 1; i < l->count; i++)
		for (UINTN j = i; j > 0 && sh_cmp_nocase(l->m[j - 1].name, l->m[j].name) > 0; j--) {
			struct sh_match t = l->m[j];
			l->m[j] = l->m[j - 1];
			l->m[j - 1] = t;
		}
}

/* Lists the directory dir_name, keeping entries that match pattern. */
static EFI_STATUS scan_dir(struct shell *sh, const CHAR16 *dir_name, const CHAR16 *pattern,
			   struct match_list *l)
{
	struct sh_path p;
	EFI_FILE_PROTOCOL *dir;
	EFI_FILE_INFO *info;
	CHAR16 *dir_text;
	EFI_STATUS status = sh_resolve(sh, dir_name, &p);

	if (EFI_ERROR(status))
		return status;
	dir_text = sh_path_text(sh, &p);
	status =
	    dir_text ? sh_open_path(sh, &p, EFI_FILE_MODE_READ, 0, &dir) : EFI_OUT_OF_RESOURCES;
	sh_path_free(&p);
	if (EFI_ERROR(status)) {
		app_free(dir_text);
		return status;
	}
	for (;;) {
		status = sh_dir_next(dir, &info);
		if (EFI_ERROR(status) || !info)
			break;
		if (sh_name_match(sh, info->FileName, pattern))
			status = add_match(l, dir_text, info);
		else
			app_free(info);
		if (EFI_ERROR(status))
			break;
	}
	dir->Close(dir);
	app_free(dir_text);
	return status;
}

/* A name without wildcards: itself, if it exists. */
static EFI_STATUS single(struct shell *sh, const CHAR16 *name, struct match_list *l)
{
	struct sh_path p;
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info = NULL;
	CHAR16 *text;
	EFI_STATUS status = sh_resolve(sh, name, &p);

	if (EFI_ERROR(status))
		return status;
	status = sh_open_path(sh, &p, EFI_FILE_MODE_READ, 0, &f);
	if (!EFI_ERROR(status)) {
		info = sh_file_info(f);
		f->Close(f);
	}
	text = sh_path_text(sh, &p);
	sh_path_free(&p);
	if (!EFI_ERROR(status) && (!info || !text))
		status = EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(status) && (status = add_match(l, u"", info)) == EFI_SUCCESS) {
		app_free(l->m[l->count - 1].full);
		l->m[l->count - 1].full = text;
		l->m[l->count - 1].name = text + sh_last_component(text);
		return EFI_SUCCESS;
	}
	app_free(info);
	app_free(text);
	return status;
}

EFI_STATUS sh_glob(struct shell *sh, const CHAR16 *pattern, struct sh_match **out, UINTN *count)
{
	struct match_list l = {0};
	size_t split = sh_last_component(pattern);
	EFI_STATUS status;

	if (!sh_has_wildcards(pattern + split)) {
		status = single(sh, pattern, &l);
	} else {
		CHAR16 *dir = sh_strndup16(pattern, split);
		status = dir ? scan_dir(sh, dir[0] ? dir : u".", pattern + split, &l)
			     : EFI_OUT_OF_RESOURCES;
		app_free(dir);
	}
	if (!EFI_ERROR(status) && !l.count)
		status = EFI_NOT_FOUND;
	if (EFI_ERROR(status)) {
		sh_glob_free(l.m, l.count);
		return status;
	}
	sort_matches(&l);
	*out = l.m;
	*count = l.count;
	return EFI_SUCCESS;
}
