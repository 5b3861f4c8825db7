/* Hosted volume: its part of EFI_FILE_PROTOCOL.Open(), OpenEx() and Close() (UEFI 2.10,
 * 13.5.2, 13.5.3, 13.5.7), and the life of a handle. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core/core.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

/* Opens the host file for the handle; refuses what is neither a file nor a directory. */
static EFI_STATUS open_fd(struct host_volume *vol, const char *host_path, bool writable,
			  int *fd_out, bool *is_dir)
{
	struct stat st;
	EFI_STATUS status = host_fs_stat(vol, host_path, &st);
	int flags = O_RDONLY, fd;

	if (EFI_ERROR(status))
		return status;
	*is_dir = S_ISDIR(st.st_mode);
	if (*is_dir)
		flags |= O_DIRECTORY;
	else if (writable && (st.st_mode & 0222) == 0)
		return EFI_ACCESS_DENIED; /* EFI_FILE_READ_ONLY: only read opens */
	else if (writable)
		flags = O_RDWR;
	/* O_NONBLOCK: a FIFO swapped in after the stat must not block the open. */
	fd = openat(vol->root_fd, host_path, flags | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return host_fs_errno_status(errno);
	if (fstat(fd, &st) != 0 || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) ||
	    S_ISDIR(st.st_mode) != *is_dir) {
		close(fd);
		return EFI_ACCESS_DENIED;
	}
	*fd_out = fd;
	return EFI_SUCCESS;
}

EFI_STATUS host_file_open(struct host_volume *vol, CHAR16 *efi_path, char *host_path, bool writable,
			  struct host_file **out)
{
	struct host_file *f = pool_alloc(sizeof(*f));
	EFI_STATUS status = f ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
	bool is_dir = false;
	int fd = -1;

	if (!EFI_ERROR(status))
		status = open_fd(vol, host_path, writable, &fd, &is_dir);
	if (EFI_ERROR(status)) {
		pool_free(f);
		pool_free(efi_path);
		pool_free(host_path);
		return status;
	}
	file_front_init(&f->front, &host_file_ops);
	f->volume = vol;
	f->efi_path = efi_path;
	f->host_path = host_path;
	f->fd = fd;
	f->is_dir = is_dir;
	f->writable = writable;
	*out = f;
	return EFI_SUCCESS;
}

void host_file_free(struct host_file *f)
{
	file_front_fini(&f->front);
	if (f->dir)
		closedir(f->dir);
	close(f->fd);
	pool_free(f->efi_path);
	pool_free(f->host_path);
	pool_free(f);
}

/* The normalised path of name as seen from a handle, in new pool memory. */
static EFI_STATUS target_path(struct host_file *from, const CHAR16 *name, CHAR16 **path)
{
	size_t units = str16_len(from->efi_path) + str16_len(name) + 2;
	EFI_STATUS status;

	if (!from->is_dir && name[0] != u'\\')
		return EFI_NOT_FOUND; /* only directories hold names */
	*path = pool_alloc(units * sizeof(CHAR16));
	if (!*path)
		return EFI_OUT_OF_RESOURCES;
	status = path_normalize(from->efi_path, name, *path, units);
	if (EFI_ERROR(status))
		pool_free(*path);
	return status;
}

/* Open() after argument checks: resolve, create when asked, open. */
EFI_STATUS host_file_open_name(struct file_front *front, const CHAR16 *name, UINT64 mode,
			       UINT64 attributes, struct file_front **out)
{
	struct host_file *from = host_file_of(front), *f;
	struct host_volume *vol = from->volume;
	bool create = mode & EFI_FILE_MODE_CREATE, created = false;
	CHAR16 *path, *efi_path;
	char *host_path;
	EFI_STATUS status;

	if (vol->read_only && (mode & EFI_FILE_MODE_WRITE))
		return EFI_WRITE_PROTECTED;
	status = target_path(from, name, &path);
	if (EFI_ERROR(status))
		return status;
	status = host_fs_resolve(vol, path, &efi_path, &host_path);
	if (status == EFI_NOT_FOUND && create) {
		status = host_fs_create(vol, path, attributes, &efi_path, &host_path);
		created = !EFI_ERROR(status);
	}
	pool_free(path);
	if (!EFI_ERROR(status))
		status = host_file_open(vol, efi_path, host_path, mode & EFI_FILE_MODE_WRITE, &f);
	/* The new file became writable for this handle; now it gets its attribute. */
	if (!EFI_ERROR(status) && created && (attributes & EFI_FILE_READ_ONLY)) {
		status = host_fs_set_read_only(f->fd, true);
		if (EFI_ERROR(status))
			host_file_free(f);
	}
	if (!EFI_ERROR(status))
		*out = &f->front;
	return status;
}

void host_file_close(struct file_front *front)
{
	host_file_free(host_file_of(front));
}
