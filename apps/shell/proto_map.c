/* EFI_SHELL_PROTOCOL: mappings, device paths of files and current directories. */
#include "../lib/devpath.h"
#include "internal.h"
#include <efi/protocol/device_path.h>

static CONST EFI_DEVICE_PATH_PROTOCOL *EFIAPI shell_get_dp_from_map(CONST CHAR16 *mapping)
{
	const struct sh_map *m = mapping ? sh_map_find(shell_self, mapping) : NULL;

	return m ? m->path : NULL;
}

/* The mapping whose device path is the longest prefix of path (file systems first). */
static const struct sh_map *best_map(struct shell *sh, const EFI_DEVICE_PATH_PROTOCOL *path,
				     bool fs_only)
{
	const struct sh_map *best = NULL;
	UINTN best_size = 0;

	for (UINTN i = 0; i < sh->map_count; i++) {
		const struct sh_map *m = &sh->maps[i];
		UINTN size = dp_size(m->path);
		if (!m->path || (fs_only && !m->fs) || !dp_starts_with(path, m->path))
			continue;
		if (size > best_size || (size == best_size && m->fs && best && !best->fs)) {
			best = m;
			best_size = size;
		}
	}
	return best;
}

static CONST CHAR16 *EFIAPI shell_get_map_from_dp(EFI_DEVICE_PATH_PROTOCOL **path)
{
	const struct sh_map *m;
	struct sh_buf b;

	if (!path || !*path)
		return NULL;
	m = best_map(shell_self, *path, false);
	if (!m)
		return NULL;
	*path = (EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)*path + dp_size(m->path) - DP_END_SIZE);
	sh_buf_init(&b);
	sh_buf_puts(&b, m->name);
	sh_buf_putc(&b, ':');
	return sh_buf_take(&b);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI shell_get_dp_from_file_path(CONST CHAR16 *path)
{
	return path ? sh_file_device_path(shell_self, path) : NULL;
}

/* "fs0:" then the names of the file path nodes that follow the volume's path. */
static CHAR16 *EFIAPI shell_get_file_path_from_dp(CONST EFI_DEVICE_PATH_PROTOCOL *path)
{
	const struct sh_map *m = path ? best_map(shell_self, path, true) : NULL;
	const EFI_DEVICE_PATH_PROTOCOL *node;
	struct sh_buf b;

	if (!m)
		return NULL;
	sh_buf_init(&b);
	sh_buf_puts(&b, m->name);
	sh_buf_putc(&b, ':');
	node = (const EFI_DEVICE_PATH_PROTOCOL *)((const UINT8 *)path + dp_size(m->path) -
						  DP_END_SIZE);
	for (; !dp_is_end(node); node = dp_next(node)) {
		const CHAR16 *name = (const CHAR16 *)(node + 1);
		size_t units = (dp_node_length(node) - sizeof(*node)) / sizeof(CHAR16);
		if (node->Type != MEDIA_DEVICE_PATH || node->SubType != MEDIA_FILEPATH_DP) {
			sh_buf_free(&b);
			return NULL;
		}
		units = str16_nlen(name, units);
		if ((!units || name[0] != '\\') && b.s && b.s[b.len - 1] != '\\')
			sh_buf_putc(&b, '\\');
		sh_buf_put(&b, name, units);
	}
	if (b.s && b.s[b.len - 1] == ':')
		sh_buf_putc(&b, '\\');
	return sh_buf_take(&b);
}

/* Removing a mapping works; new names for other device paths are not supported. */
static EFI_STATUS EFIAPI shell_set_map(CONST EFI_DEVICE_PATH_PROTOCOL *path, CONST CHAR16 *mapping)
{
	struct shell *sh = shell_self;
	const struct sh_map *m;
	UINTN i;

	if (!mapping)
		return EFI_INVALID_PARAMETER;
	m = sh_map_find(sh, mapping);
	if (path)
		return m && m->path && dp_equal(m->path, path) ? EFI_SUCCESS : EFI_UNSUPPORTED;
	if (!m)
		return EFI_NOT_FOUND;
	i = (UINTN)(m - sh->maps);
	app_free(sh->maps[i].path);
	app_free(sh->maps[i].cwd);
	mem_copy(&sh->maps[i], &sh->maps[i + 1], (sh->map_count - i - 1) * sizeof(*sh->maps));
	sh->map_count--;
	if (sh->cur_map == (INTN)i)
		sh->cur_map = -1;
	else if (sh->cur_map > (INTN)i)
		sh->cur_map--;
	return EFI_SUCCESS;
}

static CONST CHAR16 *EFIAPI shell_get_cur_dir(CONST CHAR16 *mapping)
{
	struct shell *sh = shell_self;
	const struct sh_map *m = mapping ? sh_map_find(sh, mapping) : sh_map_current(sh);
	struct sh_buf b;

	if (!m || !m->fs)
		return NULL;
	sh_buf_init(&b);
	sh_buf_puts(&b, m->name);
	sh_buf_putc(&b, ':');
	sh_buf_puts(&b, m->cwd);
	app_free(sh->cur_dir);
	sh->cur_dir = sh_buf_take(&b);
	return sh->cur_dir;
}

static EFI_STATUS EFIAPI shell_set_cur_dir(CONST CHAR16 *file_system, CONST CHAR16 *dir)
{
	struct shell *sh = shell_self;
	struct sh_path p;
	struct sh_buf b;
	CHAR16 *name;
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info = NULL;
	EFI_STATUS status;

	if (!dir && !file_system)
		return EFI_INVALID_PARAMETER;
	sh_buf_init(&b);
	if (file_system) {
		sh_buf_puts(&b, file_system);
		if (!b.len || b.s[b.len - 1] != ':')
			sh_buf_putc(&b, ':');
	}
	sh_buf_puts(&b, dir ? dir : u"");
	name = sh_buf_take(&b);
	status = name ? sh_resolve(sh, name, &p) : EFI_OUT_OF_RESOURCES;
	app_free(name);
	if (EFI_ERROR(status))
		return status;
	status = sh_open_path(sh, &p, EFI_FILE_MODE_READ, 0, &f);
	if (!EFI_ERROR(status)) {
		info = sh_file_info(f);
		f->Close(f);
		if (!info || !(info->Attribute & EFI_FILE_DIRECTORY))
			status = EFI_NOT_FOUND;
	}
	if (!EFI_ERROR(status))
		status = sh_set_cwd(sh, p.map, p.path, !file_system);
	app_free(info);
	sh_path_free(&p);
	return status;
}

void sh_protocol_fill_map(EFI_SHELL_PROTOCOL *p)
{
	p->GetDevicePathFromMap = shell_get_dp_from_map;
	p->GetMapFromDevicePath = shell_get_map_from_dp;
	p->GetDevicePathFromFilePath = shell_get_dp_from_file_path;
	p->GetFilePathFromDevicePath = shell_get_file_path_from_dp;
	p->SetMap = shell_set_map;
	p->GetCurDir = shell_get_cur_dir;
	p->SetCurDir = shell_set_cur_dir;
}
