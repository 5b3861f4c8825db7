/* File names as users type them, resolved to a mapping and a normalised path; current
 * directories. */
#include "internal.h"
#include <ember/lib/path.h>

/* Splits "map:rest" (the mapping may be absent); *map gets the mapping's index. */
static EFI_STATUS split_mapping(struct shell *sh, const CHAR16 *name, UINTN *map,
				const CHAR16 **rest)
{
	const CHAR16 *colon = str16_chr(name, ':');

	if (colon && !str16_chr(colon + 1, ':')) {
		CHAR16 *prefix = sh_strndup16(name, (size_t)(colon - name));
		const struct sh_map *m = prefix ? sh_map_find(sh, prefix) : NULL;
		app_free(prefix);
		if (!m || !m->fs)
			return EFI_NOT_FOUND;
		*map = (UINTN)(m - sh->maps);
		*rest = colon + 1;
		return EFI_SUCCESS;
	}
	if (colon)
		return EFI_INVALID_PARAMETER;
	if (sh->cur_map < 0)
		return EFI_NOT_FOUND;
	*map = (UINTN)sh->cur_map;
	*rest = name;
	return EFI_SUCCESS;
}

EFI_STATUS sh_resolve(struct shell *sh, const CHAR16 *name, struct sh_path *out)
{
	const CHAR16 *rest, *base;
	CHAR16 *clean, *result;
	size_t units;
	EFI_STATUS status;

	out->path = NULL;
	status = split_mapping(sh, name, &out->map, &rest);
	if (EFI_ERROR(status))
		return status;
	clean = sh_strdup16(rest);
	if (!clean)
		return EFI_OUT_OF_RESOURCES;
	for (CHAR16 *c = clean; *c; c++)
		if (*c == '/')
			*c = '\\';
	base = sh->maps[out->map].cwd;
	units = str16_len(base) + str16_len(clean) + 2;
	result = app_alloc(units * sizeof(CHAR16));
	status = result ? path_normalize(base, clean, result, units) : EFI_OUT_OF_RESOURCES;
	app_free(clean);
	if (EFI_ERROR(status)) {
		app_free(result);
		return status;
	}
	out->path = result;
	return EFI_SUCCESS;
}

void sh_path_free(struct sh_path *p)
{
	app_free(p->path);
	p->path = NULL;
}

static CHAR16 *map_path_text(const struct sh_map *m, const CHAR16 *path)
{
	struct sh_buf b;

	sh_buf_init(&b);
	sh_buf_puts(&b, m->name);
	sh_buf_putc(&b, ':');
	sh_buf_puts(&b, path);
	return sh_buf_take(&b);
}

CHAR16 *sh_path_text(struct shell *sh, const struct sh_path *p)
{
	return map_path_text(&sh->maps[p->map], p->path);
}

CHAR16 *sh_cwd_text(struct shell *sh)
{
	const struct sh_map *m = sh_map_current(sh);

	return m ? map_path_text(m, m->cwd) : NULL;
}

EFI_STATUS sh_set_cwd(struct shell *sh, UINTN map, const CHAR16 *path, bool make_current)
{
	CHAR16 *copy;

	if (map >= sh->map_count || !sh->maps[map].fs)
		return EFI_NOT_FOUND;
	copy = sh_strdup16(path);
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	app_free(sh->maps[map].cwd);
	sh->maps[map].cwd = copy;
	if (make_current)
		sh->cur_map = (INTN)map;
	return EFI_SUCCESS;
}

EFI_STATUS sh_open_root(struct shell *sh, UINTN map, EFI_FILE_PROTOCOL **root)
{
	static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_STATUS status;

	if (map >= sh->map_count || !sh->maps[map].fs)
		return EFI_NOT_FOUND;
	status = app_bs->HandleProtocol(sh->maps[map].handle, &sfs_guid, (void **)&sfs);
	if (EFI_ERROR(status))
		return status;
	return sfs->OpenVolume(sfs, root);
}

bool sh_has_extension(const CHAR16 *name, const char *ext)
{
	size_t n = str16_len(name), e = str8_len(ext);

	return n > e && sh_eq_ascii(name + n - e, ext);
}
