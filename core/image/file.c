/* Reading an image named by a device path (UEFI 2.10, LoadImage): through the file system
 * on the device the path leads to, else LoadFile2 (never for boot-policy loads), else
 * LoadFile. */
#define LOG_PREFIX "image: "
#include "image.h"
#include "../services.h"
#include <ember/core/devpath.h>
#include <ember/core/fv.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/simple_file_system.h>

#define MAX_PATH_UNITS 1024

/* Joins the FilePath nodes of a path into one UCS-2 path; false if anything else is there. */
static bool file_path_text(const EFI_DEVICE_PATH_PROTOCOL *node, CHAR16 *out, UINTN units)
{
	UINTN used = 0;

	for (; !dp_is_end(node); node = dp_next(node)) {
		UINTN len;
		if (node->Type != MEDIA_DEVICE_PATH || node->SubType != MEDIA_FILEPATH_DP)
			return false;
		len = (dp_node_length(node) - sizeof(*node)) / sizeof(CHAR16);
		if (used && out[used - 1] != '\\' && len && used + 1 < units)
			out[used++] = '\\';
		if (used + len >= units)
			return false;
		mem_copy(&out[used], (const UINT8 *)node + sizeof(*node), len * sizeof(CHAR16));
		used += str16_nlen(&out[used], len);
	}
	out[used] = 0;
	return used > 0;
}

static EFI_STATUS read_whole_file(EFI_FILE_PROTOCOL *file, const CHAR16 *name, void **buffer,
				  UINTN *size)
{
	UINT8 info_buffer[SIZE_OF_EFI_FILE_INFO + MAX_PATH_UNITS * sizeof(CHAR16)];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)info_buffer;
	UINTN info_size = sizeof(info_buffer), length;
	EFI_STATUS status;

	status = file->GetInfo(file, (EFI_GUID *)&efi_file_info_guid, &info_size, info);
	if (EFI_ERROR(status)) {
		log_debug("%ls: GetInfo: %r\n", name, status);
		return status;
	}
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		log_debug("%ls is a directory\n", name);
		return EFI_NOT_FOUND;
	}
	length = info->FileSize;
	*buffer = pool_alloc_typed(EfiBootServicesData, length ? length : 1);
	if (!*buffer) {
		log_debug("%ls: no memory for %llu bytes\n", name, (unsigned long long)length);
		return EFI_OUT_OF_RESOURCES;
	}
	status = file->Read(file, &length, *buffer);
	if (EFI_ERROR(status) || length != info->FileSize) {
		log_debug("%ls: read %llu of %llu bytes: %r\n", name, (unsigned long long)length,
			  (unsigned long long)info->FileSize, status);
		pool_free(*buffer);
		*buffer = NULL;
		return EFI_ERROR(status) ? status : EFI_DEVICE_ERROR;
	}
	*size = length;
	return EFI_SUCCESS;
}

static EFI_STATUS read_from_file_system(EFI_HANDLE device, EFI_DEVICE_PATH_PROTOCOL *rest,
					void **buffer, UINTN *size)
{
	static CHAR16 path[MAX_PATH_UNITS];
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root, *file;
	EFI_STATUS status;

	if (!file_path_text(rest, path, ARRAY_SIZE(path))) {
		log_debug("the path on the file system is no file name\n");
		return EFI_NOT_FOUND;
	}
	status = protocol_get(device, &efi_simple_file_system_protocol_guid, (void **)&sfs);
	if (EFI_ERROR(status)) {
		log_debug("the file system is gone: %r\n", status);
		return status;
	}
	status = sfs->OpenVolume(sfs, &root);
	if (EFI_ERROR(status)) {
		log_debug("opening the volume for %ls: %r\n", path, status);
		return status;
	}
	status = root->Open(root, &file, path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status)) {
		log_debug("opening %ls: %r\n", path, status);
	} else {
		status = read_whole_file(file, path, buffer, size);
		file->Close(file);
	}
	root->Close(root);
	return status;
}

static EFI_STATUS read_with_load_file(EFI_HANDLE device, const EFI_GUID *guid,
				      EFI_DEVICE_PATH_PROTOCOL *rest, bool boot_policy,
				      void **buffer, UINTN *size)
{
	EFI_LOAD_FILE_PROTOCOL *lf;
	UINTN length = 0;
	EFI_STATUS status = protocol_get(device, guid, (void **)&lf);

	if (EFI_ERROR(status)) {
		log_debug("%s is gone: %r\n", guid_name(guid), status);
		return status;
	}
	status = lf->LoadFile(lf, rest, boot_policy, &length, NULL);
	if (status != EFI_BUFFER_TOO_SMALL) {
		log_debug("%s: asking the size: %r\n", guid_name(guid), status);
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	}
	*buffer = pool_alloc_typed(EfiBootServicesData, length ? length : 1);
	if (!*buffer) {
		log_debug("%s: no memory for %llu bytes\n", guid_name(guid),
			  (unsigned long long)length);
		return EFI_OUT_OF_RESOURCES;
	}
	status = lf->LoadFile(lf, rest, boot_policy, &length, *buffer);
	if (EFI_ERROR(status)) {
		log_debug("%s: loading %llu bytes: %r\n", guid_name(guid),
			  (unsigned long long)length, status);
		pool_free(*buffer);
		*buffer = NULL;
		return status;
	}
	*size = length;
	return EFI_SUCCESS;
}

/* A path into a volume Ember published: Fv(name)/FvFile(file), the file's PE32 section.
 * False when the path leads elsewhere. */
static bool read_from_volume(EFI_DEVICE_PATH_PROTOCOL *path, void **buffer, UINTN *size,
			     EFI_HANDLE *device, EFI_DEVICE_PATH_PROTOCOL **rest,
			     EFI_STATUS *status)
{
	const MEDIA_FW_VOL_FILEPATH_DEVICE_PATH *node;

	*rest = path;
	if (EFI_ERROR(
		handle_locate_device_path(&efi_firmware_volume2_protocol_guid, rest, device)) ||
	    !fv_handle_is_platform(*device))
		return false;
	node = (const MEDIA_FW_VOL_FILEPATH_DEVICE_PATH *)*rest;
	if (node->Header.Type != MEDIA_DEVICE_PATH ||
	    node->Header.SubType != MEDIA_PIWG_FW_FILE_DP ||
	    dp_node_length(&node->Header) != sizeof(*node)) {
		log_debug("the path into the firmware volume names no FvFile()\n");
		*status = EFI_NOT_FOUND;
		return true;
	}
	*status = fv_read_image(*device, &node->FvFileName, buffer, size);
	if (EFI_ERROR(*status))
		log_debug("reading the file from the firmware volume: %r\n", *status);
	return true;
}

EFI_STATUS image_read_file(bool boot_policy, EFI_DEVICE_PATH_PROTOCOL *path, void **buffer,
			   UINTN *size, EFI_HANDLE *device, EFI_DEVICE_PATH_PROTOCOL **file_path)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_STATUS status;

	if (!dp_is_valid(path, 64 * 1024)) {
		log_debug("the device path is malformed\n");
		return EFI_INVALID_PARAMETER;
	}
	if (read_from_volume(path, buffer, size, device, &rest, &status)) {
		/* Fv()/FvFile(): Ember's firmware volume (core/fv). */
	} else if (rest = path, !EFI_ERROR(handle_locate_device_path(
				    &efi_simple_file_system_protocol_guid, &rest, device))) {
		status = read_from_file_system(*device, rest, buffer, size);
	} else if (rest = path,
		   !boot_policy && !EFI_ERROR(handle_locate_device_path(
				       &efi_load_file2_protocol_guid, &rest, device))) {
		status = read_with_load_file(*device, &efi_load_file2_protocol_guid, rest, false,
					     buffer, size);
	} else if (rest = path, !EFI_ERROR(handle_locate_device_path(&efi_load_file_protocol_guid,
								     &rest, device))) {
		status = read_with_load_file(*device, &efi_load_file_protocol_guid, rest,
					     boot_policy, buffer, size);
	} else {
		log_debug("no file system or LoadFile on the device path\n");
		return EFI_NOT_FOUND;
	}
	*file_path = rest;
	return status;
}
