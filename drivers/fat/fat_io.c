/* FAT's part of EFI_FILE_PROTOCOL Read, Write, GetPosition, SetPosition, Flush and their
 * ...Ex forms (UEFI 2.10, 13.5.5 - 13.5.15). A directory reads as one EFI_FILE_INFO per
 * call. */
#include "fat_efi.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

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

EFI_STATUS fat_file_read(struct file_front *front, UINTN *size, void *buffer)
{
	struct fat_file *f = fat_file_of(front);

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

EFI_STATUS fat_file_write(struct file_front *front, UINTN *size, const void *buffer)
{
	struct fat_file *f = fat_file_of(front);
	struct fat_node *node = f->node;
	struct fat_dirent before;
	EFI_STATUS status;

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
	if (*size)
		touch(node);
	/* Also after a failure: the first cluster may have been taken. */
	if (mem_cmp(&before, &node->de, sizeof(before)) != 0) {
		EFI_STATUS stored = fat_node_store(node);

		if (EFI_ERROR(stored)) {
			/* The entry on disk is still `before`: so goes the chain, and the write
			 * counts as not done (bytes it overwrote inside the file stay so). */
			if (EFI_ERROR(fat_data_restore(node, &before)))
				fat_volume_damaged(f->vol);
			*size = 0;
			status = stored;
		}
	}
	f->position += *size;
	return fat_tx_end(f->vol, status);
}

EFI_STATUS fat_file_get_position(struct file_front *front, UINT64 *position)
{
	struct fat_file *f = fat_file_of(front);

	if (f->node->is_dir)
		return EFI_UNSUPPORTED; /* 13.5.12: no meaning for directories */
	if (f->node->deleted)
		return EFI_DEVICE_ERROR;
	*position = f->position;
	return EFI_SUCCESS;
}

EFI_STATUS fat_file_set_position(struct file_front *front, UINT64 position)
{
	struct fat_file *f = fat_file_of(front);

	if (f->node->is_dir && position != 0)
		return EFI_UNSUPPORTED; /* 13.5.11: only a rewind */
	if (f->node->deleted)
		return EFI_DEVICE_ERROR;
	f->position = position == END_OF_FILE && !f->node->is_dir ? f->node->de.size : position;
	return EFI_SUCCESS;
}

EFI_STATUS fat_file_flush(struct file_front *front)
{
	struct fat_file *f = fat_file_of(front);

	if (f->node->deleted)
		return EFI_DEVICE_ERROR;
	if (f->vol->read_only)
		return EFI_WRITE_PROTECTED; /* 13.5.15: the medium is write-protected */
	if (!f->writable)
		return EFI_ACCESS_DENIED; /* 13.5.15: opened read-only */
	return fat_volume_flush(f->vol);
}
