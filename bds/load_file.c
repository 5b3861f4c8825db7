/* Booting through EFI_LOAD_FILE_PROTOCOL (network boot) as UEFI 2.10, 3.1.2 and 24.7
 * describe: the boot manager asks the size, reads the file, and loads the image from the
 * buffer; when LoadFile answers EFI_WARN_FILE_SYSTEM the buffer is an ISO or a disk image,
 * which becomes a RAM disk (EFI_RAM_DISK_PROTOCOL) booted through its removable media
 * path. */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <efi/protocol/load_file.h>
#include <efi/protocol/ram_disk.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define ISO9660_ID_OFFSET 0x8001 /* "CD001" of the first volume descriptor */

/* An ISO 9660 image becomes a virtual CD, anything else a virtual disk. */
static const EFI_GUID *ram_disk_type(const UINT8 *buffer, UINTN size)
{
	if (size > ISO9660_ID_OFFSET + 5 && !mem_cmp(buffer + ISO9660_ID_OFFSET, "CD001", 5))
		return &efi_virtual_cd_guid;
	return &efi_virtual_disk_guid;
}

/* The file system image at buffer as a RAM disk below path; *disk gets its path. */
static EFI_STATUS register_ram_disk(EFI_DEVICE_PATH_PROTOCOL *path, void *buffer, UINTN size,
				    EFI_DEVICE_PATH_PROTOCOL **disk)
{
	EFI_RAM_DISK_PROTOCOL *rd;
	const EFI_GUID *type = ram_disk_type(buffer, size);
	EFI_STATUS status = protocol_locate(&efi_ram_disk_protocol_guid, (void **)&rd);

	if (EFI_ERROR(status)) {
		log_warn("the download is a disk image, but there is no RAM disk protocol\n");
		return EFI_UNSUPPORTED;
	}
	status = rd->Register((UINT64)(UINTN)buffer, size, (EFI_GUID *)type, path, disk);
	if (EFI_ERROR(status)) {
		log_warn("registering a RAM disk of %llu bytes: %r\n", (unsigned long long)size,
			 status);
		return status;
	}
	log_info("the download is %s: a RAM disk of %llu bytes\n",
		 type == &efi_virtual_cd_guid ? "an ISO image" : "a disk image",
		 (unsigned long long)size);
	return EFI_SUCCESS;
}

bool bds_load_file_read(EFI_DEVICE_PATH_PROTOCOL *path, void **buffer, UINTN *size,
			EFI_DEVICE_PATH_PROTOCOL **disk, EFI_STATUS *status)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_LOAD_FILE_PROTOCOL *lf;
	EFI_HANDLE device;

	*buffer = NULL;
	*disk = NULL;
	*size = 0;
	/* A file system on the path reads the file itself (a RAM disk below a NIC's path). */
	if (!EFI_ERROR(
		handle_locate_device_path(&efi_simple_file_system_protocol_guid, &rest, &device)))
		return false;
	rest = path;
	if (EFI_ERROR(handle_locate_device_path(&efi_load_file_protocol_guid, &rest, &device)) ||
	    EFI_ERROR(protocol_get(device, &efi_load_file_protocol_guid, (void **)&lf)))
		return false;
	*status = lf->LoadFile(lf, rest, true, size, NULL);
	if (*status != EFI_BUFFER_TOO_SMALL) {
		if (!EFI_ERROR(*status))
			*status = EFI_NOT_FOUND;
		return true;
	}
	*buffer = pool_alloc_typed(EfiBootServicesData, *size ? *size : 1);
	if (!*buffer) {
		log_warn("no memory for a boot file of %llu bytes\n", (unsigned long long)*size);
		*status = EFI_OUT_OF_RESOURCES;
		return true;
	}
	*status = lf->LoadFile(lf, rest, true, size, *buffer);
	if (*status == EFI_WARN_FILE_SYSTEM) {
		/* The RAM disk keeps the buffer for as long as it is registered. */
		*status = register_ram_disk(path, *buffer, *size, disk);
		if (EFI_ERROR(*status))
			pool_free(*buffer);
		*buffer = NULL;
	} else if (EFI_ERROR(*status)) {
		pool_free(*buffer);
		*buffer = NULL;
	}
	return true;
}
