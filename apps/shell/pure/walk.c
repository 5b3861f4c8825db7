/* Bounds and loop detection for walks over directory trees; checks of directory entries. */
#include "walk.h"
#include <ember/lib/str.h>

#define FNV_PRIME 0x100000001b3ULL

static UINT64 fold(UINT64 print, const void *data, size_t n)
{
	const UINT8 *p = data;

	for (size_t i = 0; i < n; i++)
		print = (print ^ p[i]) * FNV_PRIME;
	return print;
}

/* Field by field: the padding of EFI_TIME is not part of an entry. */
static UINT64 fold_time(UINT64 print, const EFI_TIME *t)
{
	UINT16 parts[6] = {t->Year, t->Month, t->Day, t->Hour, t->Minute, t->Second};

	print = fold(print, parts, sizeof(parts));
	return fold(print, &t->Nanosecond, sizeof(t->Nanosecond));
}

UINT64 sh_walk_print_entry(UINT64 print, const EFI_FILE_INFO *info)
{
	print = fold(print, &info->FileSize, sizeof(info->FileSize));
	print = fold(print, &info->PhysicalSize, sizeof(info->PhysicalSize));
	print = fold(print, &info->Attribute, sizeof(info->Attribute));
	print = fold_time(print, &info->CreateTime);
	print = fold_time(print, &info->LastAccessTime);
	print = fold_time(print, &info->ModificationTime);
	/* With its terminator, so that "ab" + "c" differs from "a" + "bc". */
	return fold(print, info->FileName, (str16_len(info->FileName) + 1) * sizeof(CHAR16));
}

void sh_walk_init(struct sh_walk *w)
{
	w->depth = w->visited = w->seen_first = 0;
}

enum sh_walk_verdict sh_walk_enter(struct sh_walk *w, UINT64 print)
{
	if (w->depth > SH_WALK_DEPTH_MAX) {
		for (size_t i = 0; i < w->depth; i++)
			if (w->prints[i] == print) {
				w->seen_first = i;
				return SH_WALK_LOOP;
			}
		return SH_WALK_TOO_DEEP;
	}
	if (w->visited == SH_WALK_DIRS_MAX)
		return SH_WALK_TOO_MANY;
	w->prints[w->depth++] = print;
	w->visited++;
	return SH_WALK_OK;
}

void sh_walk_leave(struct sh_walk *w)
{
	if (w->depth)
		w->depth--;
}

const char *sh_walk_verdict_text(enum sh_walk_verdict v)
{
	switch (v) {
	case SH_WALK_LOOP:
	case SH_WALK_TOO_DEEP:
		return "directories nested more than 64 levels deep (a loop in the file system?)";
	case SH_WALK_TOO_MANY:
		return "more than 65536 directories (a damaged file system?)";
	default:
		return "no problem";
	}
}

size_t sh_walk_path_up(const CHAR16 *path, size_t levels)
{
	size_t len = str16_len(path), root = 0;

	/* The root is everything up to the first backslash, and that backslash. */
	while (root < len && path[root] != '\\')
		root++;
	root = root < len ? root + 1 : len;
	while (len > root && path[len - 1] == '\\')
		len--; /* "fs0:\A\" names fs0:\A */
	for (; levels && len > root; levels--) {
		while (len > root && path[len - 1] != '\\')
			len--;
		if (len > root)
			len--; /* the separator, unless it is the root's */
	}
	return len;
}

bool sh_walk_name_ok(const CHAR16 *name)
{
	if (!name[0] || str16_cmp(name, u".") == 0 || str16_cmp(name, u"..") == 0)
		return false;
	for (; *name; name++)
		if (*name == '\\' || *name == '/')
			return false;
	return true;
}

bool sh_file_info_valid(const void *buf, size_t size)
{
	const EFI_FILE_INFO *info = buf;
	size_t units;

	if (size < SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16))
		return false;
	if (info->Size < SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16) || info->Size > size)
		return false;
	units = ((size_t)info->Size - SIZE_OF_EFI_FILE_INFO) / sizeof(CHAR16);
	for (size_t i = 0; i < units; i++)
		if (!info->FileName[i])
			return true;
	return false;
}
