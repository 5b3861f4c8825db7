/* Hosted volume: Read, Write, GetPosition, SetPosition, Flush and their ...Ex forms
 * (UEFI 2.10, 13.5.5 - 13.5.15). Files use pread/pwrite at the handle's own position. */
#include <errno.h>
#include <unistd.h>

#include "host_fs.h"
#include <ember/core.h>

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

static EFI_STATUS write_file(struct host_file *f, UINTN *size, const void *buffer)
{
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

/* Read() or ReadEx() after the handle is known. */
static EFI_STATUS read_any(struct host_file *f, UINTN *size, void *buffer)
{
	if (f->is_dir)
		return host_dir_read(f, size, buffer);
	return read_file(f, size, buffer);
}

EFI_STATUS EFIAPI host_file_read(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer)
{
	struct host_file *f = host_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	status = read_any(f, BufferSize, Buffer);
	host_fs_leave(old);
	return status;
}

EFI_STATUS EFIAPI host_file_write(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer)
{
	struct host_file *f = host_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	status = write_file(f, BufferSize, Buffer);
	host_fs_leave(old);
	return status;
}

EFI_STATUS EFIAPI host_file_get_position(EFI_FILE_PROTOCOL *This, UINT64 *Position)
{
	struct host_file *f = host_file_from(This);
	EFI_STATUS status;
	UINT64 ignored;
	EFI_TPL old;

	if (!f || !Position)
		return EFI_INVALID_PARAMETER;
	if (f->is_dir)
		return EFI_UNSUPPORTED; /* 13.5.12: no meaning for directories */
	old = host_fs_enter();
	status = file_size(f, &ignored);
	if (!EFI_ERROR(status))
		*Position = f->position;
	host_fs_leave(old);
	return status;
}

EFI_STATUS EFIAPI host_file_set_position(EFI_FILE_PROTOCOL *This, UINT64 Position)
{
	struct host_file *f = host_file_from(This);
	EFI_STATUS status = EFI_SUCCESS;
	UINT64 end;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	if (f->is_dir && Position != 0)
		return EFI_UNSUPPORTED; /* 13.5.11: only a rewind */
	old = host_fs_enter();
	if (f->is_dir) {
		host_dir_rewind(f);
	} else {
		status = file_size(f, &end);
		if (!EFI_ERROR(status))
			f->position = Position == END_OF_FILE ? end : Position;
	}
	host_fs_leave(old);
	return status;
}

static EFI_STATUS flush_file(struct host_file *f)
{
	if (!f->writable)
		return EFI_ACCESS_DENIED; /* 13.5.15: opened read-only */
	/* EINVAL: the host file system keeps nothing to sync for this file. */
	if (fsync(f->fd) != 0 && errno != EINVAL)
		return host_fs_errno_status(errno);
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI host_file_flush(EFI_FILE_PROTOCOL *This)
{
	struct host_file *f = host_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	status = flush_file(f);
	host_fs_leave(old);
	return status;
}

/* The checks every ...Ex call makes before the request counts as queued. */
static struct host_file *ex_file(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *token, bool buffer)
{
	struct host_file *f = host_file_from(This);

	if (!f || !host_fs_token_ok(token))
		return NULL;
	if (buffer && !token->Buffer && token->BufferSize)
		return NULL;
	return f;
}

EFI_STATUS EFIAPI host_file_read_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct host_file *f = ex_file(This, Token, true);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	status = read_any(f, &Token->BufferSize, Token->Buffer);
	status = host_fs_complete(Token, status);
	host_fs_leave(old);
	return status;
}

EFI_STATUS EFIAPI host_file_write_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct host_file *f = ex_file(This, Token, true);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	status = write_file(f, &Token->BufferSize, Token->Buffer);
	status = host_fs_complete(Token, status);
	host_fs_leave(old);
	return status;
}

EFI_STATUS EFIAPI host_file_flush_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct host_file *f = ex_file(This, Token, false);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = host_fs_enter();
	status = host_fs_complete(Token, flush_file(f));
	host_fs_leave(old);
	return status;
}
