/* EFI_SHELL_PROTOCOL: files by name and by handle. Handles are EFI_FILE_PROTOCOL
 * instances: the file system's, or the shell's streams for ">i", ">o", ">e" and NUL. */
#include "internal.h"

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;
static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

static EFI_FILE_PROTOCOL *as_file(SHELL_FILE_HANDLE h)
{
	return h;
}

/* The special names of the standard streams. */
static EFI_STATUS special_file(const CHAR16 *name, UINT64 mode, SHELL_FILE_HANDLE *out)
{
	struct shell *sh = shell_self;
	static struct sh_stream nul;

	if (sh_eq_ascii(name, ">i")) {
		if (mode & EFI_FILE_MODE_WRITE)
			return EFI_INVALID_PARAMETER;
		*out = &sh->in->file;
	} else if (sh_eq_ascii(name, ">o") || sh_eq_ascii(name, ">e")) {
		if (mode & EFI_FILE_MODE_READ && !(mode & EFI_FILE_MODE_WRITE))
			return EFI_INVALID_PARAMETER;
		*out = name[1] == 'o' || name[1] == 'O' ? &sh->out->file : &sh->err->file;
	} else if (sh_eq_ascii(name, "NUL")) {
		sh_stream_null(&nul, sh);
		*out = &nul.file;
	} else {
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI shell_open_file_by_name(CONST CHAR16 *name, SHELL_FILE_HANDLE *handle,
						 UINT64 mode)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status;

	if (!name || !handle)
		return EFI_INVALID_PARAMETER;
	*handle = NULL;
	if (special_file(name, mode, handle) != EFI_NOT_FOUND)
		return *handle ? EFI_SUCCESS : EFI_INVALID_PARAMETER;
	status = sh_open(shell_self, name, mode, 0, &f);
	if (!EFI_ERROR(status))
		*handle = f;
	return status;
}

static EFI_STATUS EFIAPI shell_create_file(CONST CHAR16 *name, UINT64 attributes,
					   SHELL_FILE_HANDLE *handle)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status;

	if (!name || !handle)
		return EFI_INVALID_PARAMETER;
	*handle = NULL;
	if (attributes & EFI_FILE_DIRECTORY)
		status = sh_open(shell_self, name, mode, attributes, &f);
	else
		status = sh_create_file(shell_self, name, &f);
	if (!EFI_ERROR(status))
		*handle = f;
	return status;
}

static EFI_STATUS EFIAPI shell_close_file(SHELL_FILE_HANDLE h)
{
	if (!h)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->Close(as_file(h));
}

static EFI_STATUS EFIAPI shell_read_file(SHELL_FILE_HANDLE h, UINTN *size, VOID *buffer)
{
	if (!h)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->Read(as_file(h), size, buffer);
}

static EFI_STATUS EFIAPI shell_write_file(SHELL_FILE_HANDLE h, UINTN *size, VOID *buffer)
{
	if (!h)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->Write(as_file(h), size, buffer);
}

static EFI_STATUS EFIAPI shell_delete_file(SHELL_FILE_HANDLE h)
{
	if (!h)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->Delete(as_file(h));
}

static EFI_STATUS EFIAPI shell_delete_file_by_name(CONST CHAR16 *name)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status;

	if (!name)
		return EFI_INVALID_PARAMETER;
	status = sh_open(shell_self, name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);
	return EFI_ERROR(status) ? status : f->Delete(f);
}

static EFI_STATUS EFIAPI shell_get_position(SHELL_FILE_HANDLE h, UINT64 *position)
{
	if (!h || !position)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->GetPosition(as_file(h), position);
}

static EFI_STATUS EFIAPI shell_set_position(SHELL_FILE_HANDLE h, UINT64 position)
{
	if (!h)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->SetPosition(as_file(h), position);
}

static EFI_STATUS EFIAPI shell_flush_file(SHELL_FILE_HANDLE h)
{
	if (!h)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->Flush(as_file(h));
}

static EFI_FILE_INFO *EFIAPI shell_get_file_info(SHELL_FILE_HANDLE h)
{
	return h ? sh_file_info(as_file(h)) : NULL;
}

static EFI_STATUS EFIAPI shell_set_file_info(SHELL_FILE_HANDLE h, CONST EFI_FILE_INFO *info)
{
	if (!h || !info)
		return EFI_INVALID_PARAMETER;
	return as_file(h)->SetInfo(as_file(h), &file_info_guid, (UINTN)info->Size, (VOID *)info);
}

static EFI_STATUS EFIAPI shell_get_file_size(SHELL_FILE_HANDLE h, UINT64 *size)
{
	EFI_FILE_INFO *info;

	if (!h || !size)
		return EFI_INVALID_PARAMETER;
	info = sh_file_info(as_file(h));
	if (!info)
		return EFI_DEVICE_ERROR;
	*size = info->FileSize;
	app_free(info);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI shell_open_root_by_handle(EFI_HANDLE device, SHELL_FILE_HANDLE *handle)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root;
	EFI_STATUS status;

	if (!device || !handle)
		return EFI_INVALID_PARAMETER;
	status = app_bs->HandleProtocol(device, &sfs_guid, (void **)&sfs);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;
	status = sfs->OpenVolume(sfs, &root);
	if (!EFI_ERROR(status))
		*handle = root;
	return status;
}

static EFI_STATUS EFIAPI shell_open_root(EFI_DEVICE_PATH_PROTOCOL *path, SHELL_FILE_HANDLE *handle)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_HANDLE device;

	if (!path || !handle)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(app_bs->LocateDevicePath(&sfs_guid, &rest, &device)))
		return EFI_NOT_FOUND;
	return shell_open_root_by_handle(device, handle);
}

void sh_protocol_fill_file(EFI_SHELL_PROTOCOL *p)
{
	p->OpenFileByName = shell_open_file_by_name;
	p->CreateFile = shell_create_file;
	p->CloseFile = shell_close_file;
	p->ReadFile = shell_read_file;
	p->WriteFile = shell_write_file;
	p->DeleteFile = shell_delete_file;
	p->DeleteFileByName = shell_delete_file_by_name;
	p->GetFilePosition = shell_get_position;
	p->SetFilePosition = shell_set_position;
	p->FlushFile = shell_flush_file;
	p->GetFileInfo = shell_get_file_info;
	p->SetFileInfo = shell_set_file_info;
	p->GetFileSize = shell_get_file_size;
	p->OpenRoot = shell_open_root;
	p->OpenRootByHandle = shell_open_root_by_handle;
}
