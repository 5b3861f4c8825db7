/* EFI_FILE_PROTOCOL.GetInfo() and SetInfo() (UEFI 2.10, 13.5.13, 13.5.14) over a file
 * system's file_front_ops: the information types, and the checks of SetInfo's buffers
 * (13.5.16 - 13.5.18), which may be unaligned. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include "file_front_internal.h"
#include <ember/lib/guids.h>

bool file_front_time_valid(const EFI_TIME *t)
{
	static const UINT8 days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return t->Year >= 1900 && t->Year <= 9999 && t->Month >= 1 && t->Month <= 12 &&
	       t->Day >= 1 && t->Day <= days[t->Month - 1] && t->Hour < 24 && t->Minute < 60 &&
	       t->Second < 60 && t->Nanosecond < 1000000000 &&
	       (t->TimeZone == EFI_UNSPECIFIED_TIMEZONE ||
		(t->TimeZone >= -1440 && t->TimeZone <= 1440));
}

static EFI_STATUS get_info(struct file_front *f, const EFI_GUID *type, UINTN *size, VOID *buffer)
{
	if (guid_eq(type, &efi_file_info_guid))
		return f->ops->file_info(f, size, buffer);
	if (guid_eq(type, &efi_file_system_info_guid))
		return f->ops->fs_info(f, size, buffer);
	if (guid_eq(type, &efi_file_system_volume_label_guid))
		return f->ops->volume_label(f, size, buffer);
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI file_front_get_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				      UINTN *BufferSize, VOID *Buffer)
{
	struct file_front *f = file_front_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !InformationType || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	old = file_front_enter(f, &status);
	if (!EFI_ERROR(status))
		status = get_info(f, InformationType, BufferSize, Buffer);
	file_front_leave(old);
	return status;
}

/* SetInfo(EFI_FILE_INFO): the request copied out of the caller's buffer, its sizes and the
 * FileName's terminator checked. */
static EFI_STATUS set_file_info(struct file_front *f, UINTN size, const VOID *buffer)
{
	const UINTN min = SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16);
	EFI_FILE_INFO info;
	size_t units;
	CHAR16 *name;
	EFI_STATUS status;

	if (size < min)
		return EFI_BAD_BUFFER_SIZE;
	mem_copy(&info, buffer, SIZE_OF_EFI_FILE_INFO);
	if (info.Size < min || info.Size > size)
		return EFI_BAD_BUFFER_SIZE;
	units = (info.Size - SIZE_OF_EFI_FILE_INFO) / sizeof(CHAR16);
	name = pool_alloc((units + 1) * sizeof(CHAR16));
	if (!name)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(name, (const UINT8 *)buffer + SIZE_OF_EFI_FILE_INFO, units * sizeof(CHAR16));
	if (str16_nlen(name, units) == units)
		status = EFI_BAD_BUFFER_SIZE; /* FileName is not terminated inside Size */
	else
		status = f->ops->set_file_info(f, &info, name);
	pool_free(name);
	return status;
}

/* A label from the caller's buffer of max_units units. */
static EFI_STATUS set_label(struct file_front *f, const VOID *buffer, UINTN max_units)
{
	CHAR16 copy[FILE_FRONT_LABEL_MAX + 1];
	size_t n = MIN(max_units, f->ops->label_max + 1);

	mem_copy(copy, buffer, n * sizeof(CHAR16));
	n = str16_nlen(copy, n);
	if (n == max_units)
		return EFI_BAD_BUFFER_SIZE; /* no terminator inside the buffer */
	if (n == f->ops->label_max + 1)
		return EFI_INVALID_PARAMETER; /* longer than the file system takes */
	copy[n] = 0;
	return f->ops->set_label(f, copy);
}

static EFI_STATUS set_info(struct file_front *f, const EFI_GUID *type, UINTN size,
			   const VOID *buffer)
{
	const UINTN fs_min = SIZE_OF_EFI_FILE_SYSTEM_INFO + sizeof(CHAR16);

	if (guid_eq(type, &efi_file_info_guid))
		return set_file_info(f, size, buffer);
	if (guid_eq(type, &efi_file_system_info_guid))
		return size < fs_min
			   ? EFI_BAD_BUFFER_SIZE
			   : set_label(f, (const UINT8 *)buffer + SIZE_OF_EFI_FILE_SYSTEM_INFO,
				       (size - SIZE_OF_EFI_FILE_SYSTEM_INFO) / sizeof(CHAR16));
	if (guid_eq(type, &efi_file_system_volume_label_guid))
		return size < sizeof(CHAR16) ? EFI_BAD_BUFFER_SIZE
					     : set_label(f, buffer, size / sizeof(CHAR16));
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI file_front_set_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				      UINTN BufferSize, VOID *Buffer)
{
	struct file_front *f = file_front_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !InformationType || !Buffer)
		return EFI_INVALID_PARAMETER;
	old = file_front_enter(f, &status);
	if (!EFI_ERROR(status))
		status = set_info(f, InformationType, BufferSize, Buffer);
	file_front_leave(old);
	return status;
}
