/* EFI_FILE_PROTOCOL Read, Write, GetPosition, SetPosition, Flush and their ...Ex forms
 * (UEFI 2.10, 13.5.5 - 13.5.15). A directory reads as one EFI_FILE_INFO per call. */
#include "fat_efi.h"
#include <ember/core.h>
#include <ember/str.h>

#define END_OF_FILE 0xffffffffffffffffULL

static EFI_STATUS read_dir(struct fat_file *f, UINTN *size, void *buffer)
{
	struct fat_node *dir = f->node;
	struct fat_entry *e = pool_alloc(sizeof(*e));
	UINT32 slot = (UINT32)MIN(f->position, (UINT64)FAT_MAX_DIR_SLOTS);
	EFI_STATUS status = e ? fat_dir_load(dir) : EFI_OUT_OF_RESOURCES;

	if (!EFI_ERROR(status))
		status = fat_dir_next(fat_reader_begin(dir), &slot, e);
	if (status == EFI_NOT_FOUND) {
		*size = 0; /* the end of the directory */
		status = EFI_SUCCESS;
	} else if (!EFI_ERROR(status)) {
		/* On EFI_BUFFER_TOO_SMALL the position stays on this entry. */
		status = fat_info_fill(f->vol, &e->de, false, e->name, size, buffer);
		if (!EFI_ERROR(status))
			f->position = slot;
	}
	pool_free(e);
	return status;
}

static EFI_STATUS read_file(struct fat_file *f, UINTN *size, void *buffer)
{
	struct fat_node *node = f->node;
	UINT64 end = node->de.size, n;
	EFI_STATUS status;

	if (f->position > end)
		return EFI_DEVICE_ERROR; /* 13.5.5: positioned beyond the end */
	n = MIN((UINT64)*size, end - f->position);
	status = fat_data_read(node, &f->cursor, f->position, (UINTN)n, buffer);
	if (EFI_ERROR(status))
		return status;
	f->position += n;
	*size = (UINTN)n;
	return EFI_SUCCESS;
}

/* Read() or ReadEx() once the handle is known. */
static EFI_STATUS read_any(struct fat_file *f, UINTN *size, void *buffer)
{
	EFI_STATUS status = fat_file_usable(f);

	if (EFI_ERROR(status))
		return status;
	if (f->node->deleted)
		return EFI_DEVICE_ERROR; /* 13.5.5: read from a deleted file */
	return f->node->is_dir ? read_dir(f, size, buffer) : read_file(f, size, buffer);
}

/* A write changes the file: modification time and archive bit. */
static void touch(struct fat_node *node)
{
	UINT8 tenths;

	fat_now(&node->de.write_date, &node->de.write_time, &tenths);
	node->de.access_date = node->de.write_date;
	node->de.attr |= FAT_ATTR_ARCHIVE;
}

static EFI_STATUS write_file(struct fat_file *f, UINTN *size, const void *buffer)
{
	struct fat_node *node = f->node;
	struct fat_dirent before;
	EFI_STATUS status = fat_file_usable(f);

	if (EFI_ERROR(status))
		return status;
	if (node->is_dir)
		return EFI_UNSUPPORTED;
	if (node->deleted)
		return EFI_DEVICE_ERROR;
	if (!f->writable)
		return EFI_ACCESS_DENIED;
	status = fat_tx_begin(f->vol);
	if (EFI_ERROR(status))
		return status;
	before = node->de;
	status = fat_data_write(node, &f->cursor, f->position, size, buffer);
	f->position += *size;
	if (*size)
		touch(node);
	/* Also after a failure: the first cluster may have been taken. */
	if (mem_cmp(&before, &node->de, sizeof(before)) != 0) {
		EFI_STATUS stored = fat_node_store(node);

		if (!EFI_ERROR(status))
			status = stored;
	}
	return fat_tx_end(f->vol, status);
}

EFI_STATUS EFIAPI fat_file_read(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer)
{
	struct fat_file *f = fat_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = read_any(f, BufferSize, Buffer);
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_write(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer)
{
	struct fat_file *f = fat_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !BufferSize || (!Buffer && *BufferSize))
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = write_file(f, BufferSize, Buffer);
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_get_position(EFI_FILE_PROTOCOL *This, UINT64 *Position)
{
	struct fat_file *f = fat_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f || !Position)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = fat_file_usable(f);
	if (!EFI_ERROR(status) && f->node->is_dir)
		status = EFI_UNSUPPORTED; /* 13.5.12: no meaning for directories */
	else if (!EFI_ERROR(status) && f->node->deleted)
		status = EFI_DEVICE_ERROR;
	if (!EFI_ERROR(status))
		*Position = f->position;
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_set_position(EFI_FILE_PROTOCOL *This, UINT64 Position)
{
	struct fat_file *f = fat_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = fat_file_usable(f);
	if (!EFI_ERROR(status) && f->node->is_dir && Position != 0)
		status = EFI_UNSUPPORTED; /* 13.5.11: only a rewind */
	else if (!EFI_ERROR(status) && f->node->deleted)
		status = EFI_DEVICE_ERROR;
	if (!EFI_ERROR(status))
		f->position =
		    Position == END_OF_FILE && !f->node->is_dir ? f->node->de.size : Position;
	fat_leave(old);
	return status;
}

static EFI_STATUS flush_file(struct fat_file *f)
{
	EFI_STATUS status = fat_file_usable(f);

	if (EFI_ERROR(status))
		return status;
	if (f->node->deleted)
		return EFI_DEVICE_ERROR;
	if (f->vol->read_only)
		return EFI_WRITE_PROTECTED; /* 13.5.15: the medium is write-protected */
	if (!f->writable)
		return EFI_ACCESS_DENIED; /* 13.5.15: opened read-only */
	return fat_volume_flush(f->vol);
}

EFI_STATUS EFIAPI fat_file_flush(EFI_FILE_PROTOCOL *This)
{
	struct fat_file *f = fat_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = flush_file(f);
	fat_leave(old);
	return status;
}

/* The checks every ...Ex call makes before the request counts as queued. */
static struct fat_file *ex_file(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *token, bool buffer)
{
	struct fat_file *f = fat_file_from(This);

	if (!f || !fat_token_ok(token))
		return NULL;
	if (buffer && !token->Buffer && token->BufferSize)
		return NULL;
	return f;
}

EFI_STATUS EFIAPI fat_file_read_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct fat_file *f = ex_file(This, Token, true);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = fat_complete(Token, read_any(f, &Token->BufferSize, Token->Buffer));
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_write_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct fat_file *f = ex_file(This, Token, true);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = fat_complete(Token, write_file(f, &Token->BufferSize, Token->Buffer));
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_flush_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token)
{
	struct fat_file *f = ex_file(This, Token, false);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = fat_complete(Token, flush_file(f));
	fat_leave(old);
	return status;
}
