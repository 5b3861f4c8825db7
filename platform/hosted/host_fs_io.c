/* Hosted volume: its part of Read, Write, GetPosition, SetPosition, Flush and their ...Ex
 * forms (UEFI 2.10, 13.5.5 - 13.5.15). Files use pread/pwrite at the handle's own position. */
#include <errno.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core/core.h>

#define END_OF_FILE 0xFFFFFFFFFFFFFFFFULL
/* The most one host call moves, so sizes stay within ssize_t. */
#define IO_CHUNK (1u << 30)

/* The file's size; EFI_DEVICE_ERROR once it has been deleted (through another handle). */
static EFI_STATUS file_size(struct host_file *f, UINT64 *size)
{
	struct stat st;

	if (fstat(f->fd, &st) != 0 || st.st_nlink == 0)
		return EFI_DEVICE_ERROR;
	*size = (UINT64)st.st_size;
	return EFI_SUCCESS;
}

static EFI_STATUS read_file(struct host_file *f, UINTN *size, void *buffer)
{
	UINT64 file_bytes, want, done = 0;
	EFI_STATUS status = file_size(f, &file_bytes);

	if (EFI_ERROR(status))
		return status;
	if (f->position > file_bytes)
		return EFI_DEVICE_ERROR; /* 13.5.5: positioned beyond the end */
	want = MIN((UINT64)*size, file_bytes - f->position);
	while (done < want) {
		ssize_t got = pread(f->fd, (char *)buffer + done, MIN(want - done, IO_CHUNK),
				    (off_t)(f->position + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			status = EFI_DEVICE_ERROR;
			break;
		}
		if (got == 0)
			break; /* the file shrank meanwhile */
		done += (UINT64)got;
	}
	f->position += done;
	*size = done;
	return status;
}

EFI_STATUS host_file_write(struct file_front *front, UINTN *size, const void *buffer)
{
	struct host_file *f = host_file_of(front);
	UINT64 file_bytes, done = 0;
	EFI_STATUS status;

	if (f->is_dir)
		return EFI_UNSUPPORTED;
	if (!f->writable)
		return EFI_ACCESS_DENIED;
	status = file_size(f, &file_bytes);
	if (EFI_ERROR(status))
		return status;
	if (f->position > (UINT64)INT64_MAX - *size)
		return EFI_VOLUME_FULL;
	while (done < *size) {
		ssize_t put = pwrite(f->fd, (const char *)buffer + done,
				     MIN(*size - done, IO_CHUNK), (off_t)(f->position + done));
		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0) {
			status = put < 0 ? host_fs_errno_status(errno) : EFI_VOLUME_FULL;
			break;
		}
		done += (UINT64)put;
	}
	f->position += done;
	*size = done;
	return status;
}

EFI_STATUS host_file_read(struct file_front *front, UINTN *size, void *buffer)
{
	struct host_file *f = host_file_of(front);

	if (f->is_dir)
		return host_dir_read(f, size, buffer);
	return read_file(f, size, buffer);
}

EFI_STATUS host_file_get_position(struct file_front *front, UINT64 *position)
{
	struct host_file *f = host_file_of(front);
	UINT64 ignored;
	EFI_STATUS status;

	if (f->is_dir)
		return EFI_UNSUPPORTED; /* 13.5.12: no meaning for directories */
	status = file_size(f, &ignored);
	if (!EFI_ERROR(status))
		*position = f->position;
	return status;
}

EFI_STATUS host_file_set_position(struct file_front *front, UINT64 position)
{
	struct host_file *f = host_file_of(front);
	EFI_STATUS status;
	UINT64 end;

	if (f->is_dir && position != 0)
		return EFI_UNSUPPORTED; /* 13.5.11: only a rewind */
	if (f->is_dir) {
		host_dir_rewind(f);
		return EFI_SUCCESS;
	}
	status = file_size(f, &end);
	if (!EFI_ERROR(status))
		f->position = position == END_OF_FILE ? end : position;
	return status;
}

EFI_STATUS host_file_flush(struct file_front *front)
{
	struct host_file *f = host_file_of(front);

	if (!f->writable)
		return EFI_ACCESS_DENIED; /* 13.5.15: opened read-only */
	/* EINVAL: the host file system keeps nothing to sync for this file. */
	if (fsync(f->fd) != 0 && errno != EINVAL)
		return host_fs_errno_status(errno);
	return EFI_SUCCESS;
}
