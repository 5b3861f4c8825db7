/* fat-test: file helpers over EFI_FILE_PROTOCOL. */
#include "fat_test.h"

EFI_GUID ft_file_info_guid = EFI_FILE_INFO_ID;
EFI_GUID ft_fs_info_guid = EFI_FILE_SYSTEM_INFO_ID;
EFI_GUID ft_label_guid = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;

EFI_FILE_PROTOCOL *ft_open(EFI_FILE_PROTOCOL *from, const CHAR16 *name, UINT64 mode,
			   UINT64 attributes)
{
	EFI_FILE_PROTOCOL *f = NULL;
	EFI_STATUS status = from->Open(from, &f, (CHAR16 *)name, mode, attributes);

	if (!CHECK_STATUS(status, EFI_SUCCESS)) {
		app_print("      opening %ls\n", name);
		return NULL;
	}
	return f;
}

bool ft_write(EFI_FILE_PROTOCOL *f, const void *data, UINTN size)
{
	UINTN n = size;

	return CHECK_STATUS(f->Write(f, &n, (void *)data), EFI_SUCCESS) && CHECK_EQ(n, size);
}

bool ft_append(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const void *data, UINTN size)
{
	EFI_FILE_PROTOCOL *f = ft_open(from, path, CREATE_MODE, 0);
	bool ok;

	if (!f)
		return false;
	ok = CHECK_STATUS(f->SetPosition(f, 0xffffffffffffffffULL), EFI_SUCCESS) &&
	     ft_write(f, data, size);
	f->Close(f);
	return ok;
}

EFI_FILE_INFO *ft_info(EFI_FILE_PROTOCOL *f)
{
	UINTN size = 0;
	EFI_FILE_INFO *info;

	if (!CHECK_STATUS(f->GetInfo(f, &ft_file_info_guid, &size, NULL), EFI_BUFFER_TOO_SMALL))
		return NULL;
	info = app_alloc(size);
	if (info && !CHECK_STATUS(f->GetInfo(f, &ft_file_info_guid, &size, info), EFI_SUCCESS)) {
		app_free(info);
		info = NULL;
	}
	return info;
}

void *ft_read_all(EFI_FILE_PROTOCOL *from, const CHAR16 *path, UINTN *size)
{
	EFI_FILE_PROTOCOL *f = ft_open(from, path, RO_MODE, 0);
	EFI_FILE_INFO *info = f ? ft_info(f) : NULL;
	void *data = NULL;

	if (info) {
		*size = (UINTN)info->FileSize;
		data = app_alloc(*size + 1);
		if (data && !CHECK_STATUS(f->Read(f, size, data), EFI_SUCCESS)) {
			app_free(data);
			data = NULL;
		}
		app_free(info);
	}
	if (f)
		f->Close(f);
	return data;
}

bool ft_holds(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const void *data, UINTN size)
{
	UINTN got = 0;
	void *back = ft_read_all(from, path, &got);
	bool ok = back && CHECK_EQ(got, size) && CHECK(mem_cmp(back, data, size) == 0);

	if (!ok)
		app_print("      contents of %ls\n", path);
	app_free(back);
	return ok;
}

EFI_STATUS ft_set_info(EFI_FILE_PROTOCOL *f, const EFI_FILE_INFO *info, const CHAR16 *name)
{
	UINTN size = SIZE_OF_EFI_FILE_INFO + str16_size(name);
	EFI_FILE_INFO *n = app_alloc(size);
	EFI_STATUS status;

	if (!n)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(n, info, SIZE_OF_EFI_FILE_INFO);
	mem_copy(n->FileName, name, str16_size(name));
	n->Size = size;
	status = f->SetInfo(f, &ft_file_info_guid, size, n);
	app_free(n);
	return status;
}

void ft_pattern(UINT8 *buf, UINTN size, UINT32 seed)
{
	UINT32 x = seed * 2654435761u + 1;

	for (UINTN i = 0; i < size; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (UINT8)(x >> 16);
	}
}
