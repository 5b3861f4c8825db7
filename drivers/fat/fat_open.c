/* EFI_FILE_PROTOCOL.Open(), OpenEx(), Close() and Delete() (UEFI 2.10, 13.5.2 - 13.5.4,
 * 13.5.7). Names are resolved with the shared EFI path rules (lib/path.c) against the
 * handle's own path, then looked up from the root one component at a time. */
#include "fat_efi.h"
#include <ember/core.h>
#include <ember/path.h>
#include <ember/str.h>

static EFI_STATUS check_open_args(struct fat_file *from, EFI_FILE_PROTOCOL **new_handle,
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

/* The normalised absolute path name names, seen from the handle. */
static EFI_STATUS absolute_path(struct fat_file *from, const CHAR16 *name, CHAR16 **path)
{
	CHAR16 *base;
	size_t units;
	EFI_STATUS status = fat_node_path(from->node, &base);

	if (EFI_ERROR(status))
		return status;
	units = str16_len(base) + str16_len(name) + 2;
	*path = pool_alloc(units * sizeof(CHAR16));
	status = *path ? path_normalize(base, name, *path, units) : EFI_OUT_OF_RESOURCES;
	pool_free(base);
	return status;
}

/* Where to start and the normalised path from there. A relative name that stays inside
 * the handle's directory is walked from that directory (no need to look up its path
 * again); others from the root. */
static EFI_STATUS resolve(struct fat_file *from, const CHAR16 *name, struct fat_node **start,
			  CHAR16 **path)
{
	size_t units = str16_len(name) + 2;
	EFI_STATUS status;

	*path = NULL;
	if (!from->node->is_dir && name[0] != u'\\')
		return EFI_NOT_FOUND; /* only directories hold names */
	if (from->node->deleted)
		return EFI_NOT_FOUND;
	if (name[0] != u'\\') {
		*path = pool_alloc(units * sizeof(CHAR16));
		if (!*path)
			return EFI_OUT_OF_RESOURCES;
		status = path_normalize(u"\\", name, *path, units);
		*start = from->node;
		if (status != EFI_NOT_FOUND) /* NOT_FOUND: ".." leads above the directory */
			return status;
		pool_free(*path);
	}
	*start = from->vol->root;
	return absolute_path(from, name, path);
}

/* Creates the last component of path in its (existing) parent directory. */
static EFI_STATUS create(struct fat_node *start, CHAR16 *path, UINT64 attributes,
			 struct fat_node **node)
{
	struct fat_volume *vol = start->vol;
	size_t parent_len = path_parent_len(path);
	const CHAR16 *name = path_last(path);
	struct fat_node *parent;
	CHAR16 saved;
	EFI_STATUS status;

	if (parent_len == 0)
		return EFI_ACCESS_DENIED; /* the start directory itself exists */
	saved = path[parent_len];
	path[parent_len] = 0;
	status = fat_node_walk(start, path, &parent);
	path[parent_len] = saved;
	if (EFI_ERROR(status))
		return status;
	if (!parent->is_dir)
		status = EFI_NOT_FOUND;
	else
		status = fat_tx_begin(vol);
	if (!EFI_ERROR(status)) {
		status = fat_node_create(parent, name, str16_len(name), (UINT8)attributes, node);
		status = fat_tx_end(vol, status);
	}
	fat_node_unref(parent);
	return status;
}

/* Open() after argument checks. */
static EFI_STATUS open_name(struct fat_file *from, const CHAR16 *name, UINT64 mode,
			    UINT64 attributes, struct fat_file **out)
{
	struct fat_volume *vol = from->vol;
	bool write = mode & EFI_FILE_MODE_WRITE;
	struct fat_node *node = NULL, *start = NULL;
	CHAR16 *path = NULL;
	EFI_STATUS status = fat_file_usable(from);

	if (!EFI_ERROR(status) && write && vol->read_only)
		status = EFI_WRITE_PROTECTED;
	if (!EFI_ERROR(status))
		status = resolve(from, name, &start, &path);
	if (!EFI_ERROR(status))
		status = fat_node_walk(start, path, &node);
	if (status == EFI_NOT_FOUND && start && (mode & EFI_FILE_MODE_CREATE)) {
		status = create(start, path, attributes, &node);
	} else if (!EFI_ERROR(status) && write && !node->is_dir &&
		   (node->de.attr & FAT_ATTR_READ_ONLY)) {
		status = EFI_ACCESS_DENIED; /* a read-only file opens for reading only */
		fat_node_unref(node);
	}
	pool_free(path);
	if (EFI_ERROR(status))
		return status;
	return fat_file_new(vol, node, write, out);
}

EFI_STATUS EFIAPI fat_file_open(EFI_FILE_PROTOCOL *This, EFI_FILE_PROTOCOL **NewHandle,
				CHAR16 *FileName, UINT64 OpenMode, UINT64 Attributes)
{
	struct fat_file *from = fat_file_from(This), *f = NULL;
	EFI_STATUS status = check_open_args(from, NewHandle, FileName, OpenMode, Attributes);
	EFI_TPL old;

	if (EFI_ERROR(status))
		return status;
	old = fat_enter();
	status = open_name(from, FileName, OpenMode, Attributes, &f);
	*NewHandle = f ? &f->file : NULL;
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_open_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_PROTOCOL **NewHandle,
				   CHAR16 *FileName, UINT64 OpenMode, UINT64 Attributes,
				   EFI_FILE_IO_TOKEN *Token)
{
	struct fat_file *from = fat_file_from(This), *f = NULL;
	EFI_STATUS status = check_open_args(from, NewHandle, FileName, OpenMode, Attributes);
	EFI_TPL old;

	if (EFI_ERROR(status))
		return status;
	if (!fat_token_ok(Token))
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = open_name(from, FileName, OpenMode, Attributes, &f);
	*NewHandle = f ? &f->file : NULL;
	status = fat_complete(Token, status);
	fat_leave(old);
	return status;
}

EFI_STATUS EFIAPI fat_file_close(EFI_FILE_PROTOCOL *This)
{
	struct fat_file *f = fat_file_from(This);
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	fat_file_free(f);
	fat_leave(old);
	return EFI_SUCCESS;
}

static EFI_STATUS delete_node(struct fat_file *f)
{
	EFI_STATUS status = fat_file_usable(f);

	if (EFI_ERROR(status) || !f->writable || f->node->is_root)
		return EFI_WARN_DELETE_FAILURE;
	status = fat_tx_begin(f->vol);
	if (EFI_ERROR(status))
		return EFI_WARN_DELETE_FAILURE;
	status = fat_tx_end(f->vol, fat_node_delete(f->node));
	return EFI_ERROR(status) ? EFI_WARN_DELETE_FAILURE : EFI_SUCCESS;
}

EFI_STATUS EFIAPI fat_file_delete(EFI_FILE_PROTOCOL *This)
{
	struct fat_file *f = fat_file_from(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!f)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = delete_node(f);
	fat_file_free(f); /* 13.5.4: the handle is closed in all cases */
	fat_leave(old);
	return status;
}
