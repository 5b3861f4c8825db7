/* EFI_FILE_PROTOCOL entry points over a file system's file_front_ops (UEFI 2.10, 13.5.2 -
 * 13.5.15; GetInfo and SetInfo are in file_front_info.c). The ...Ex requests complete
 * before the call returns: their outcome goes to the token and its event is signalled. */
#include <ember/core/core.h>
#include <ember/lib/util.h>
#include "file_front_internal.h"

#define FILE_FRONT_SIGNATURE SIGNATURE_32('f', 'i', 'l', 'e')

enum transfer {
	TRANSFER_READ,
	TRANSFER_WRITE,
	TRANSFER_FLUSH,
};

struct file_front *file_front_from(EFI_FILE_PROTOCOL *file)
{
	struct file_front *f;

	if (!file)
		return NULL;
	f = container_of(file, struct file_front, file);
	if (!mem_is_allocated(f, sizeof(*f)) || f->signature != FILE_FRONT_SIGNATURE)
		return NULL;
	return f;
}

EFI_TPL file_front_enter(struct file_front *f, EFI_STATUS *status)
{
	EFI_TPL old = tpl_raise(f->ops->tpl);

	*status = f->ops->usable ? f->ops->usable(f) : EFI_SUCCESS;
	return old;
}

void file_front_leave(EFI_TPL old)
{
	tpl_restore(old);
}

/* True when a token's event may be signalled (none means blocking I/O). event_signal
 * trusts its argument: this refuses NULL and wild pointers. */
static bool token_ok(const EFI_FILE_IO_TOKEN *token)
{
	return token && (!token->Event || event_is_valid(token->Event));
}

/* Reports the outcome of an ...Ex request (13.5.7 - 13.5.10). */
static EFI_STATUS complete(EFI_FILE_IO_TOKEN *token, EFI_STATUS status)
{
	token->Status = status;
	if (!token->Event)
		return status; /* blocking I/O */
	/* Done before returning: "queued" succeeded, the outcome is in the token. The notify
	 * function runs when the caller's TPL is restored. */
	event_signal(token->Event);
	return EFI_SUCCESS;
}

/* ---- Open, Close, Delete ---- */

static EFI_STATUS check_open(struct file_front *from, EFI_FILE_PROTOCOL **new_handle,
			     const CHAR16 *name, UINT64 mode, UINT64 attributes)
{
	const UINT64 rw = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE;

	if (!from || !new_handle || !name)
		return EFI_INVALID_PARAMETER;
	/* 13.5.2: only Read, Read/Write and Create/Read/Write are valid. */
	if (mode != EFI_FILE_MODE_READ && mode != rw && mode != (rw | EFI_FILE_MODE_CREATE))
		return EFI_INVALID_PARAMETER;
	if ((mode & EFI_FILE_MODE_CREATE) && (attributes & ~EFI_FILE_VALID_ATTR))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* Open() and OpenEx() (with a token) once the arguments passed. */
static EFI_STATUS open_name(struct file_front *from, EFI_FILE_PROTOCOL **new_handle,
			    const CHAR16 *name, UINT64 mode, UINT64 attributes,
			    EFI_FILE_IO_TOKEN *token)
{
	struct file_front *f = NULL;
	EFI_STATUS status;
	EFI_TPL old = file_front_enter(from, &status);

	if (!EFI_ERROR(status))
		status = from->ops->open(from, name, mode, attributes, &f);
	*new_handle = f ? &f->file : NULL;
	if (token)
		status = complete(token, status);
	file_front_leave(old);
	return status;
}

static EFI_STATUS EFIAPI front_open(EFI_FILE_PROTOCOL *This, EFI_FILE_PROTOCOL **NewHandle,
				    CHAR16 *FileName, UINT64 OpenMode, UINT64 Attributes)
{
	struct file_front *from = file_front_from(This);
	EFI_STATUS status = check_open(from, NewHandle, FileName, OpenMode, Attributes);

	if (EFI_ERROR(status))
		return status;
	return open_name(from, NewHandle, FileName, OpenMode, Attributes, NULL);
}

static EFI_STATUS EFIAPI front_open_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_PROTOCOL **NewHandle,
				       CHAR16 *FileName, UINT64 OpenMode, UINT64 Attributes,
				       EFI_FILE_IO_TOKEN *Token)
{
	struct file_front *from = file_front_from(This);
	EFI_STATUS status = check_open(from, NewHandle, FileName, OpenMode, Attributes);

	if (EFI_ERROR(status))
		return status;
	if (!token_ok(Token))
		return EFI_INVALID_PARAMETER;
	return open_name(from, NewHandle, FileName, OpenMode, Attributes, Token);
}

static EFI_STATUS EFIAPI front_close(EFI_FILE_PROTOCOL *This)
{
	struct file_front *f = file_front_from(This);
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(f->ops->tpl);
	f->ops->close(f);
	file_front_leave(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI front_delete(EFI_FILE_PROTOCOL *This)
{
	struct file_front *f = file_front_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = file_front_enter(f, &status);
	status = EFI_ERROR(status) ? EFI_WARN_DELETE_FAILURE : f->ops->delete (f);
	f->ops->close(f); /* 13.5.4: the handle is closed in all cases */
	file_front_leave(old);
	return status;
}

/* ---- Read, Write, Flush and their ...Ex forms ---- */

/* Once the arguments passed; with a token, its outcome goes there. */
static EFI_STATUS transfer(struct file_front *f, enum transfer what, UINTN *size, void *buffer,
			   EFI_FILE_IO_TOKEN *token)
{
	EFI_STATUS status;
	EFI_TPL old = file_front_enter(f, &status);

	if (!EFI_ERROR(status) && what == TRANSFER_READ)
		status = f->ops->read(f, size, buffer);
	else if (!EFI_ERROR(status) && what == TRANSFER_WRITE)
		status = f->ops->write(f, size, buffer);
	else if (!EFI_ERROR(status))
		status = f->ops->flush(f);
	if (token)
		status = complete(token, status);
	file_front_leave(old);
	return status;
}

static EFI_STATUS EFIAPI front_read(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer)
{
	struct file_front *f = file_front_from(This);

	if (!f || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	return transfer(f, TRANSFER_READ, BufferSize, Buffer, NULL);
}

static EFI_STATUS EFIAPI front_write(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer)
{
	struct file_front *f = file_front_from(This);

	if (!f || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	return transfer(f, TRANSFER_WRITE, BufferSize, Buffer, NULL);
}

static EFI_STATUS EFIAPI front_flush(EFI_FILE_PROTOCOL *This)
{
	struct file_front *f = file_front_from(This);

	if (!f)
		return EFI_INVALID_PARAMETER;
	return transfer(f, TRANSFER_FLUSH, NULL, NULL, NULL);
}

/* The checks every ...Ex call makes before the request counts as queued. */
static struct file_front *ex_file(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *token, bool buffer)
{
	struct file_front *f = file_front_from(This);

	if (!f || !token_ok(token))
		return NULL;
	if (buffer && !token->Buffer && token->BufferSize)
		return NULL;
	return f;
}

static EFI_STATUS EFIAPI front_read_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct file_front *f = ex_file(This, Token, true);

	if (!f)
		return EFI_INVALID_PARAMETER;
	return transfer(f, TRANSFER_READ, &Token->BufferSize, Token->Buffer, Token);
}

static EFI_STATUS EFIAPI front_write_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct file_front *f = ex_file(This, Token, true);

	if (!f)
		return EFI_INVALID_PARAMETER;
	return transfer(f, TRANSFER_WRITE, &Token->BufferSize, Token->Buffer, Token);
}

static EFI_STATUS EFIAPI front_flush_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct file_front *f = ex_file(This, Token, false);

	if (!f)
		return EFI_INVALID_PARAMETER;
	return transfer(f, TRANSFER_FLUSH, NULL, NULL, Token);
}

/* ---- GetPosition, SetPosition ---- */

static EFI_STATUS EFIAPI front_get_position(EFI_FILE_PROTOCOL *This, UINT64 *Position)
{
	struct file_front *f = file_front_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !Position)
		return EFI_INVALID_PARAMETER;
	old = file_front_enter(f, &status);
	if (!EFI_ERROR(status))
		status = f->ops->get_position(f, Position);
	file_front_leave(old);
	return status;
}

static EFI_STATUS EFIAPI front_set_position(EFI_FILE_PROTOCOL *This, UINT64 Position)
{
	struct file_front *f = file_front_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = file_front_enter(f, &status);
	if (!EFI_ERROR(status))
		status = f->ops->set_position(f, Position);
	file_front_leave(old);
	return status;
}

/* ---- Handles ---- */

static const EFI_FILE_PROTOCOL file_template = {
    .Revision = EFI_FILE_PROTOCOL_REVISION2,
    .Open = front_open,
    .Close = front_close,
    .Delete = front_delete,
    .Read = front_read,
    .Write = front_write,
    .GetPosition = front_get_position,
    .SetPosition = front_set_position,
    .GetInfo = file_front_get_info,
    .SetInfo = file_front_set_info,
    .Flush = front_flush,
    .OpenEx = front_open_ex,
    .ReadEx = front_read_ex,
    .WriteEx = front_write_ex,
    .FlushEx = front_flush_ex,
};

void file_front_init(struct file_front *f, const struct file_front_ops *ops)
{
	f->signature = FILE_FRONT_SIGNATURE;
	f->file = file_template;
	f->ops = ops;
}

void file_front_fini(struct file_front *f)
{
	f->signature = 0;
}
