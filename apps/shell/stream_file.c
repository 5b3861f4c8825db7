/* The EFI_FILE_PROTOCOL face of streams, for programs that use their StdIn, StdOut and
 * StdErr handles (EFI_SHELL_PARAMETERS_PROTOCOL) or the shell's file functions on them.
 * Text travels as UCS-2 bytes. The shell owns streams: Close does not release them. */
#include "internal.h"

static EFI_STATUS EFIAPI stream_read(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buffer);

struct sh_stream *sh_stream_from_handle(SHELL_FILE_HANDLE h)
{
	EFI_FILE_PROTOCOL *f = h;

	/* A file whose Read is ours is one of the shell's streams. */
	if (!f || f->Read != stream_read)
		return NULL;
	return container_of(f, struct sh_stream, file);
}

static EFI_STATUS EFIAPI stream_open(EFI_FILE_PROTOCOL *this, EFI_FILE_PROTOCOL **new_handle,
				     CHAR16 *name, UINT64 mode, UINT64 attributes)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI stream_close(EFI_FILE_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI stream_delete(EFI_FILE_PROTOCOL *this)
{
	return EFI_WARN_DELETE_FAILURE;
}

/* Copies whole UCS-2 units of the memory text from the read position. */
static EFI_STATUS memory_read(struct sh_stream *s, UINTN *size, VOID *buffer)
{
	size_t units = MIN(*size / sizeof(CHAR16), s->text.len - MIN(s->read_pos, s->text.len));

	if (units)
		mem_copy(buffer, s->text.s + s->read_pos, units * sizeof(CHAR16));
	s->read_pos += units;
	*size = units * sizeof(CHAR16);
	return EFI_SUCCESS;
}

/* The keyboard: one line, as typed, without its line end. */
static EFI_STATUS console_read(struct sh_stream *s, UINTN *size, VOID *buffer)
{
	CHAR16 *line;
	EFI_STATUS status;

	if (s->read_pos < s->text.len)
		return memory_read(s, size, buffer);
	status = sh_stream_read_line(s, &line);
	if (status == EFI_END_OF_FILE) {
		*size = 0;
		return EFI_SUCCESS;
	}
	if (EFI_ERROR(status))
		return status;
	/* Keep what does not fit for the next call. */
	sh_buf_free(&s->text);
	sh_buf_puts(&s->text, line);
	s->read_pos = 0;
	app_free(line);
	return memory_read(s, size, buffer);
}

static EFI_STATUS EFIAPI stream_read(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	struct sh_stream *s = sh_stream_from_handle(this);

	if (!s || !size || (*size && !buffer))
		return EFI_INVALID_PARAMETER;
	switch (s->kind) {
	case SH_STREAM_MEMORY:
		return memory_read(s, size, buffer);
	case SH_STREAM_CONSOLE:
		if (s->is_input)
			return console_read(s, size, buffer);
		return EFI_ACCESS_DENIED;
	case SH_STREAM_NULL:
		*size = 0;
		return EFI_SUCCESS;
	default:
		return EFI_ACCESS_DENIED;
	}
}

static EFI_STATUS EFIAPI stream_write(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	struct sh_stream *s = sh_stream_from_handle(this);
	EFI_STATUS status;

	if (!s || !size || (*size && !buffer))
		return EFI_INVALID_PARAMETER;
	if (s->kind == SH_STREAM_CONSOLE && s->is_input)
		return EFI_ACCESS_DENIED;
	status = sh_stream_write(s, buffer, *size / sizeof(CHAR16));
	if (EFI_ERROR(status))
		*size = 0;
	return status;
}

static EFI_STATUS EFIAPI stream_get_position(EFI_FILE_PROTOCOL *this, UINT64 *position)
{
	struct sh_stream *s = sh_stream_from_handle(this);

	if (!s || !position)
		return EFI_INVALID_PARAMETER;
	if (s->kind == SH_STREAM_FILE)
		return s->target->GetPosition(s->target, position);
	if (s->kind != SH_STREAM_MEMORY)
		return EFI_UNSUPPORTED;
	*position = s->read_pos * sizeof(CHAR16);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI stream_set_position(EFI_FILE_PROTOCOL *this, UINT64 position)
{
	struct sh_stream *s = sh_stream_from_handle(this);

	if (!s)
		return EFI_INVALID_PARAMETER;
	if (s->kind == SH_STREAM_FILE)
		return s->target->SetPosition(s->target, position);
	if (s->kind != SH_STREAM_MEMORY)
		return EFI_UNSUPPORTED;
	s->read_pos = MIN((size_t)(position / sizeof(CHAR16)), s->text.len);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI stream_get_info(EFI_FILE_PROTOCOL *this, EFI_GUID *type, UINTN *size,
					 VOID *buffer)
{
	struct sh_stream *s = sh_stream_from_handle(this);

	if (!s)
		return EFI_INVALID_PARAMETER;
	if (s->kind == SH_STREAM_FILE)
		return s->target->GetInfo(s->target, type, size, buffer);
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI stream_set_info(EFI_FILE_PROTOCOL *this, EFI_GUID *type, UINTN size,
					 VOID *buffer)
{
	struct sh_stream *s = sh_stream_from_handle(this);

	if (!s)
		return EFI_INVALID_PARAMETER;
	if (s->kind == SH_STREAM_FILE)
		return s->target->SetInfo(s->target, type, size, buffer);
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI stream_flush(EFI_FILE_PROTOCOL *this)
{
	struct sh_stream *s = sh_stream_from_handle(this);

	if (!s)
		return EFI_INVALID_PARAMETER;
	if (s->kind == SH_STREAM_FILE)
		return s->target->Flush(s->target);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI stream_open_ex(EFI_FILE_PROTOCOL *this, EFI_FILE_PROTOCOL **new_handle,
					CHAR16 *name, UINT64 mode, UINT64 attributes,
					EFI_FILE_IO_TOKEN *token)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI stream_token_io(EFI_FILE_PROTOCOL *this, EFI_FILE_IO_TOKEN *token)
{
	return EFI_UNSUPPORTED;
}

static const EFI_FILE_PROTOCOL stream_template = {
    .Revision = EFI_FILE_PROTOCOL_REVISION,
    .Open = stream_open,
    .Close = stream_close,
    .Delete = stream_delete,
    .Read = stream_read,
    .Write = stream_write,
    .GetPosition = stream_get_position,
    .SetPosition = stream_set_position,
    .GetInfo = stream_get_info,
    .SetInfo = stream_set_info,
    .Flush = stream_flush,
    .OpenEx = stream_open_ex,
    .ReadEx = stream_token_io,
    .WriteEx = stream_token_io,
    .FlushEx = stream_token_io,
};

/* Gives a stream its file protocol (stream.c calls this when setting one up). */
void sh_stream_file_protocol(struct sh_stream *s)
{
	s->file = stream_template;
}
