/* File helpers on resolved names: open, information, whole-file reads and writes,
 * directory entries, device paths of files. */
#include "../lib/devpath.h"
#include "internal.h"
#include "pure/walk.h"

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

EFI_STATUS sh_open_path(struct shell *sh, const struct sh_path *p, UINT64 mode, UINT64 attributes,
			EFI_FILE_PROTOCOL **out)
{
	EFI_FILE_PROTOCOL *root;
	EFI_STATUS status = sh_open_root(sh, p->map, &root);

	if (EFI_ERROR(status))
		return status;
	if (p->path[0] == '\\' && !p->path[1]) {
		*out = root;
		return EFI_SUCCESS;
	}
	status = root->Open(root, out, p->path, mode, attributes);
	root->Close(root);
	return status;
}

EFI_STATUS sh_open(struct shell *sh, const CHAR16 *name, UINT64 mode, UINT64 attributes,
		   EFI_FILE_PROTOCOL **out)
{
	struct sh_path p;
	EFI_STATUS status = sh_resolve(sh, name, &p);

	if (EFI_ERROR(status))
		return status;
	status = sh_open_path(sh, &p, mode, attributes, out);
	sh_path_free(&p);
	return status;
}

EFI_FILE_INFO *sh_file_info(EFI_FILE_PROTOCOL *file)
{
	UINTN size = SIZE_OF_EFI_FILE_INFO + 256 * sizeof(CHAR16);
	EFI_FILE_INFO *info = app_alloc(size);
	EFI_STATUS status;

	if (!info)
		return NULL;
	status = file->GetInfo(file, &file_info_guid, &size, info);
	if (status == EFI_BUFFER_TOO_SMALL) {
		app_free(info);
		info = app_alloc(size);
		status =
		    info ? file->GetInfo(file, &file_info_guid, &size, info) : EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status) || !sh_file_info_valid(info, size)) {
		app_free(info);
		return NULL;
	}
	return info;
}

bool sh_is_directory(EFI_FILE_PROTOCOL *file)
{
	EFI_FILE_INFO *info = sh_file_info(file);
	bool dir = info && (info->Attribute & EFI_FILE_DIRECTORY);

	app_free(info);
	return dir;
}

static EFI_STATUS read_all(EFI_FILE_PROTOCOL *f, void **data, UINTN *size)
{
	EFI_FILE_INFO *info = sh_file_info(f);
	UINT8 *buf;
	UINTN n;
	EFI_STATUS status;

	if (!info)
		return EFI_DEVICE_ERROR;
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		app_free(info);
		return EFI_ACCESS_DENIED;
	}
	n = (UINTN)info->FileSize;
	app_free(info);
	buf = app_alloc(n + 2);
	if (!buf)
		return EFI_OUT_OF_RESOURCES;
	status = f->Read(f, &n, buf);
	if (EFI_ERROR(status)) {
		app_free(buf);
		return status;
	}
	buf[n] = buf[n + 1] = 0;
	*data = buf;
	*size = n;
	return EFI_SUCCESS;
}

EFI_STATUS sh_read_file(struct shell *sh, const CHAR16 *name, void **data, UINTN *size)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = sh_open(sh, name, EFI_FILE_MODE_READ, 0, &f);

	if (EFI_ERROR(status))
		return status;
	status = read_all(f, data, size);
	f->Close(f);
	return status;
}

/* Opens for writing and empties the file (creating it when missing). */
EFI_STATUS sh_create_file(struct shell *sh, const CHAR16 *name, EFI_FILE_PROTOCOL **out)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info;
	EFI_STATUS status = sh_open(sh, name, mode, 0, &f);

	if (EFI_ERROR(status))
		return status;
	info = sh_file_info(f);
	if (!info || (info->Attribute & EFI_FILE_DIRECTORY)) {
		status = info ? EFI_ACCESS_DENIED : EFI_DEVICE_ERROR;
	} else if (info->FileSize) {
		info->FileSize = 0;
		status = f->SetInfo(f, &file_info_guid, (UINTN)info->Size, info);
	}
	app_free(info);
	if (EFI_ERROR(status)) {
		f->Close(f);
		return status;
	}
	*out = f;
	return EFI_SUCCESS;
}

EFI_STATUS sh_write_file(struct shell *sh, const CHAR16 *name, const void *data, UINTN size)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = sh_create_file(sh, name, &f);
	UINTN n = size;

	if (EFI_ERROR(status))
		return status;
	status = size ? f->Write(f, &n, (void *)data) : EFI_SUCCESS;
	if (!EFI_ERROR(status) && n != size)
		status = EFI_VOLUME_FULL;
	if (EFI_ERROR(status)) {
		f->Close(f);
		return status;
	}
	return f->Close(f);
}

EFI_STATUS sh_dir_next(EFI_FILE_PROTOCOL *dir, EFI_FILE_INFO **info)
{
	for (;;) {
		UINTN size = SIZE_OF_EFI_FILE_INFO + 256 * sizeof(CHAR16);
		EFI_FILE_INFO *e = app_alloc(size);
		EFI_STATUS status;
		if (!e)
			return EFI_OUT_OF_RESOURCES;
		status = dir->Read(dir, &size, e);
		if (status == EFI_BUFFER_TOO_SMALL) {
			app_free(e);
			e = app_alloc(size);
			status = e ? dir->Read(dir, &size, e) : EFI_OUT_OF_RESOURCES;
		}
		if (EFI_ERROR(status) || !size) {
			app_free(e);
			*info = NULL;
			return EFI_ERROR(status) ? status : EFI_SUCCESS;
		}
		/* What Read gave must be an entry: a file's bytes, or a damaged one, are not. */
		if (!sh_file_info_valid(e, size)) {
			app_free(e);
			*info = NULL;
			return EFI_VOLUME_CORRUPTED;
		}
		if (str16_cmp(e->FileName, u".") && str16_cmp(e->FileName, u"..")) {
			*info = e;
			return EFI_SUCCESS;
		}
		app_free(e);
	}
}

EFI_DEVICE_PATH_PROTOCOL *sh_file_device_path(struct shell *sh, const CHAR16 *name)
{
	struct sh_path p;
	EFI_DEVICE_PATH_PROTOCOL *file, *full;

	if (EFI_ERROR(sh_resolve(sh, name, &p)))
		return NULL;
	file = dp_file_path(p.path);
	full = file ? dp_append(sh->maps[p.map].path, file) : NULL;
	app_free(file);
	sh_path_free(&p);
	return full;
}
