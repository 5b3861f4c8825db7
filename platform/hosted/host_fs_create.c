/* Hosted volume: creating files and directories (Open with EFI_FILE_MODE_CREATE) and its
 * part of EFI_FILE_PROTOCOL.Delete() (UEFI 2.10, 13.5.2, 13.5.4). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core/core.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

/* Makes the file or directory, writable: EFI_FILE_READ_ONLY is applied once the creating
 * handle is open (host_fs_apply_read_only), so an unprivileged host user can open it too. */
static EFI_STATUS make_entry(struct host_volume *vol, const char *host_path, UINT64 attributes)
{
	int fd;

	if (attributes & EFI_FILE_DIRECTORY) {
		if (mkdirat(vol->root_fd, host_path, 0777) != 0)
			return host_fs_errno_status(errno);
		return EFI_SUCCESS;
	}
	fd = openat(vol->root_fd, host_path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
	if (fd < 0)
		return host_fs_errno_status(errno);
	close(fd);
	return EFI_SUCCESS;
}

EFI_STATUS host_fs_set_read_only(int fd, bool read_only)
{
	struct stat st;
	mode_t mode;

	if (fstat(fd, &st) != 0)
		return EFI_DEVICE_ERROR;
	mode = read_only ? st.st_mode & ~0222 : st.st_mode | S_IWUSR;
	if (fchmod(fd, mode & 07777) != 0)
		return host_fs_errno_status(errno);
	return EFI_SUCCESS;
}

EFI_STATUS host_fs_create(struct host_volume *vol, const CHAR16 *path, UINT64 attributes,
			  CHAR16 **efi_path, char **host_path)
{
	const CHAR16 *name = path_last(path);
	size_t name_len = str16_len(name);
	CHAR16 *efi_dir;
	char *host_dir;
	EFI_STATUS status;

	if (!path_name_creatable(name, name_len))
		return EFI_INVALID_PARAMETER;
	status = host_fs_resolve_parent(vol, path, &efi_dir, &host_dir);
	if (EFI_ERROR(status))
		return status;
	*efi_path = host_fs_join_efi(efi_dir, str16_len(efi_dir), name, name_len);
	*host_path = host_fs_join(host_dir, name, name_len);
	pool_free(efi_dir);
	pool_free(host_dir);
	status = *efi_path && *host_path ? make_entry(vol, *host_path, attributes)
					 : EFI_OUT_OF_RESOURCES;
	if (EFI_ERROR(status)) {
		pool_free(*efi_path);
		pool_free(*host_path);
	}
	return status;
}

EFI_STATUS host_file_delete(struct file_front *front)
{
	struct host_file *f = host_file_of(front);
	bool root = f->efi_path[0] == u'\\' && f->efi_path[1] == 0;

	if (root || !f->writable || !host_file_parent_writable(f) || !host_file_path_current(f))
		return EFI_WARN_DELETE_FAILURE;
	/* rmdir refuses a directory that is not empty: that is the warning too. */
	if (unlinkat(f->volume->root_fd, f->host_path, f->is_dir ? AT_REMOVEDIR : 0) != 0)
		return EFI_WARN_DELETE_FAILURE;
	return EFI_SUCCESS;
}
