/* Mappings: fsN: for file systems and blkN: for block devices, with the current
 * directory of each file system. */
#include "../lib/devpath.h"
#include "internal.h"
#include <efi/protocol/block_io.h>

static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
static EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

UINTN sh_map_count(struct shell *sh)
{
	return sh->map_count;
}

const struct sh_map *sh_map_get(struct shell *sh, UINTN index)
{
	return index < sh->map_count ? &sh->maps[index] : NULL;
}

const struct sh_map *sh_map_find(struct shell *sh, const CHAR16 *name)
{
	size_t n = str16_len(name);

	if (n && name[n - 1] == ':')
		n--;
	for (UINTN i = 0; i < sh->map_count; i++)
		if (sh_eqn_nocase(name, n, sh->maps[i].name))
			return &sh->maps[i];
	return NULL;
}

const struct sh_map *sh_map_current(struct shell *sh)
{
	return sh->cur_map >= 0 ? &sh->maps[sh->cur_map] : NULL;
}

CHAR16 *sh_devpath_text(struct shell *sh, const EFI_DEVICE_PATH_PROTOCOL *path)
{
	CHAR16 *text = NULL;

	if (path && sh->dp_to_text)
		text = sh->dp_to_text->ConvertDevicePathToText(path, FALSE, FALSE);
	return text ? text : sh_strdup16(path ? u"(no text)" : u"(none)");
}

static void maps_free(struct sh_map *maps, UINTN count)
{
	for (UINTN i = 0; i < count; i++) {
		app_free(maps[i].path);
		app_free(maps[i].cwd);
	}
	app_free(maps);
}

/* Appends a mapping for every handle with the protocol; keeps old current directories. */
static void add_kind(struct sh_map *maps, UINTN *count, EFI_GUID *guid, bool fs,
		     const struct sh_map *old, UINTN old_count)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0, number = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, guid, NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n; i++) {
		struct sh_map *m = &maps[(*count)++];
		EFI_DEVICE_PATH_PROTOCOL *path = NULL;
		char name[16];
		app_bs->HandleProtocol(handles[i], &dp_guid, (void **)&path);
		format_sn(name, sizeof(name), "%s%u", fs ? "fs" : "blk", (unsigned)number++);
		utf8_to_ucs2(m->name, ARRAY_SIZE(m->name), name, str8_len(name));
		m->handle = handles[i];
		m->path = path ? dp_append(path, NULL) : NULL;
		m->fs = fs;
		for (UINTN k = 0; fs && k < old_count; k++)
			if (old[k].fs && old[k].handle == m->handle && old[k].path && m->path &&
			    dp_equal(old[k].path, m->path) && old[k].cwd)
				m->cwd = sh_strdup16(old[k].cwd);
		if (fs && !m->cwd)
			m->cwd = sh_strdup16(u"\\");
	}
	app_free(handles);
}

static UINTN handle_count(EFI_GUID *guid)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, guid, NULL, &n, &handles)))
		return 0;
	app_free(handles);
	return n;
}

EFI_STATUS sh_map_refresh(struct shell *sh)
{
	UINTN cap = handle_count(&sfs_guid) + handle_count(&block_io_guid), count = 0;
	EFI_HANDLE current = sh->cur_map >= 0 ? sh->maps[sh->cur_map].handle : NULL;
	struct sh_map *maps = app_zalloc((cap + 1) * sizeof(*maps));

	if (!maps)
		return EFI_OUT_OF_RESOURCES;
	add_kind(maps, &count, &sfs_guid, true, sh->maps, sh->map_count);
	add_kind(maps, &count, &block_io_guid, false, sh->maps, sh->map_count);
	maps_free(sh->maps, sh->map_count);
	sh->maps = maps;
	sh->map_count = count;
	sh->cur_map = -1;
	for (UINTN i = 0; i < count; i++)
		if (maps[i].fs && (maps[i].handle == current || (sh->cur_map < 0 && !current)))
			sh->cur_map = (INTN)i;
	if (sh->cur_map < 0 && count && maps[0].fs)
		sh->cur_map = 0;
	return EFI_SUCCESS;
}

void sh_map_free_all(struct shell *sh)
{
	maps_free(sh->maps, sh->map_count);
	sh->maps = NULL;
	sh->map_count = 0;
	sh->cur_map = -1;
}
