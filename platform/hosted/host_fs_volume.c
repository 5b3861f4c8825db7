/* Hosted volume: mounting a host directory as EFI_SIMPLE_FILE_SYSTEM_PROTOCOL (UEFI 2.10,
 * 13.4), OpenVolume, and the volume-wide information (EFI_FILE_SYSTEM_INFO, the label). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/statvfs.h>

#include "host_fs.h"
#include "hosted.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

static UINT32 volume_count;

static EFI_STATUS EFIAPI open_volume(EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *This,
				     EFI_FILE_PROTOCOL **Root)
{
	struct host_volume *vol = This ? container_of(This, struct host_volume, sfs) : NULL;
	struct host_file *root = NULL;
	CHAR16 *efi_path;
	char *host_path;
	EFI_STATUS status;
	EFI_TPL old;

	if (!vol || !mem_is_allocated(vol, sizeof(*vol)) ||
	    vol->signature != HOST_VOLUME_SIGNATURE || !Root)
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	efi_path = pool_dup(u"\\", sizeof(u"\\"));
	host_path = pool_dup(".", 2);
	if (efi_path && host_path) {
		status = host_file_open(vol, efi_path, host_path, !vol->read_only, &root);
	} else {
		pool_free(efi_path);
		pool_free(host_path);
		status = EFI_OUT_OF_RESOURCES;
	}
	*Root = root ? &root->front.file : NULL;
	host_fs_leave(old);
	return status;
}

/* A volume is read-only when the host would refuse writes, or its mode bits say so (which
 * matters when ember-run runs as root and the kernel would let every write through). */
static bool detect_read_only(int fd)
{
	struct statvfs vfs;
	struct stat st;

	if (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return true;
	if (fstat(fd, &st) != 0 || (st.st_mode & 0222) == 0)
		return true;
	return faccessat(fd, ".", W_OK, 0) != 0;
}

/* The default label: the directory's own name. */
static void default_label(struct host_volume *vol, const char *directory)
{
	char *real = realpath(directory, NULL);
	const char *base = real ? strrchr(real, '/') : NULL;

	base = base && base[1] ? base + 1 : "EMBER";
	utf8_to_ucs2(vol->label, ARRAY_SIZE(vol->label), base, strlen(base));
	free(real);
}

EFI_STATUS hosted_fs_mount(const char *directory, EFI_HANDLE *handle,
			   EFI_DEVICE_PATH_PROTOCOL **device_path)
{
	static const EFI_GUID vendor = EMBER_HOSTED_VOLUME_GUID;
	struct host_volume *vol = pool_alloc(sizeof(*vol));
	EFI_STATUS status;

	if (!vol)
		return EFI_OUT_OF_RESOURCES;
	vol->root_fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (vol->root_fd < 0) {
		status = host_fs_errno_status(errno);
		goto err_free;
	}
	vol->real_root = realpath(directory, NULL);
	if (!vol->real_root) {
		status = host_fs_errno_status(errno);
		goto err_close;
	}
	vol->signature = HOST_VOLUME_SIGNATURE;
	vol->sfs.Revision = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_REVISION;
	vol->sfs.OpenVolume = open_volume;
	vol->read_only = detect_read_only(vol->root_fd);
	default_label(vol, directory);
	hosted_index_path_init(&vol->device_path, &vendor, volume_count);
	status = protocol_install_multiple(&vol->handle, &efi_simple_file_system_protocol_guid,
					   &vol->sfs, &efi_device_path_protocol_guid,
					   &vol->device_path, NULL);
	if (EFI_ERROR(status))
		goto err_real;
	volume_count++;
	*handle = vol->handle;
	*device_path = &vol->device_path.vendor.Header;
	return EFI_SUCCESS;

err_real:
	free(vol->real_root);
err_close:
	close(vol->root_fd);
err_free:
	pool_free(vol);
	return status;
}

EFI_STATUS host_file_fs_info(struct file_front *front, UINTN *size, void *buffer)
{
	struct host_volume *vol = host_file_of(front)->volume;
	UINTN needed = SIZE_OF_EFI_FILE_SYSTEM_INFO + str16_size(vol->label);
	EFI_FILE_SYSTEM_INFO info = {0};
	struct statvfs vfs;

	if (*size < needed) {
		*size = needed;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (fstatvfs(vol->root_fd, &vfs) != 0)
		return EFI_DEVICE_ERROR;
	info.Size = needed;
	info.ReadOnly = vol->read_only;
	info.VolumeSize = (UINT64)vfs.f_blocks * vfs.f_frsize;
	info.FreeSpace = (UINT64)vfs.f_bavail * vfs.f_frsize;
	info.BlockSize = (UINT32)vfs.f_bsize;
	mem_copy(buffer, &info, SIZE_OF_EFI_FILE_SYSTEM_INFO);
	mem_copy((char *)buffer + SIZE_OF_EFI_FILE_SYSTEM_INFO, vol->label, str16_size(vol->label));
	*size = needed;
	return EFI_SUCCESS;
}

EFI_STATUS host_file_volume_label(struct file_front *front, UINTN *size, void *buffer)
{
	struct host_volume *vol = host_file_of(front)->volume;
	UINTN needed = str16_size(vol->label);

	if (*size < needed) {
		*size = needed;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(buffer, vol->label, needed);
	*size = needed;
	return EFI_SUCCESS;
}

EFI_STATUS host_file_set_label(struct file_front *front, const CHAR16 *label)
{
	struct host_volume *vol = host_file_of(front)->volume;

	if (vol->read_only)
		return EFI_WRITE_PROTECTED;
	str16_copy(vol->label, label);
	return EFI_SUCCESS;
}
