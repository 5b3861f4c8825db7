/* Hosted volume: reading directories, one EFI_FILE_INFO per Read() (UEFI 2.10, 13.5.5).
 * An entry that does not fit the caller's buffer stays pending, so the position does not
 * move on EFI_BUFFER_TOO_SMALL. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/lib/path.h>
#include <ember/lib/str.h>

/* A stream of its own, so the handle's fd keeps its offset and stays usable. */
static EFI_STATUS open_stream(struct host_file *f)
{
	int fd = openat(f->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return host_fs_errno_status(errno);
	f->dir = fdopendir(fd);
	if (!f->dir) {
		close(fd);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

/* The entry's EFI name; false for names Open() could never reach. */
static bool entry_name(const char *host_name, CHAR16 *name, size_t units)
{
	size_t n;

	if (strcmp(host_name, ".") == 0 || strcmp(host_name, "..") == 0)
		return false;
	n = utf8_to_ucs2(name, units, host_name, strlen(host_name));
	for (size_t i = 0; i < n; i++)
		if (name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}

/* A symlink out of the volume's directory is not listed, as it cannot be opened. */
static bool entry_followable(struct host_file *f, const struct dirent *d)
{
	char path[PATH_MAX];
	bool root = strcmp(f->host_path, ".") == 0;
	int n;

	if (d->d_type != DT_LNK && d->d_type != DT_UNKNOWN)
		return true;
	n = snprintf(path, sizeof(path), "%s%s%s", root ? "" : f->host_path, root ? "" : "/",
		     d->d_name);
	return n > 0 && (size_t)n < sizeof(path) && host_fs_followable(f->volume, path);
}

EFI_STATUS host_dir_read(struct host_file *f, UINTN *size, VOID *buffer)
{
	CHAR16 name[PATH_NAME_MAX + 1];
	EFI_STATUS status;

	if (!f->dir) {
		status = open_stream(f);
		if (EFI_ERROR(status))
			return status;
	}
	for (;;) {
		struct dirent *d = f->pending;

		f->pending = NULL;
		if (!d) {
			errno = 0;
			d = readdir(f->dir);
		}
		if (!d) {
			*size = 0; /* the end of the directory */
			return errno ? EFI_DEVICE_ERROR : EFI_SUCCESS;
		}
		if (!entry_name(d->d_name, name, ARRAY_SIZE(name)) || !entry_followable(f, d))
			continue;
		status = host_fs_file_info(dirfd(f->dir), d->d_name, 0, name, size, buffer);
		if (status == EFI_NOT_FOUND || status == EFI_ACCESS_DENIED)
			continue; /* gone, a dangling symlink, or not a file or directory */
		if (status == EFI_BUFFER_TOO_SMALL)
			f->pending = d; /* readdir keeps it valid until the next call */
		return status;
	}
}

void host_dir_rewind(struct host_file *f)
{
	f->pending = NULL;
	if (f->dir)
		rewinddir(f->dir);
}
