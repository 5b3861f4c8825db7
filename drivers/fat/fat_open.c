/* FAT's part of EFI_FILE_PROTOCOL.Open(), OpenEx() and Delete() (UEFI 2.10, 13.5.2 -
 * 13.5.4, 13.5.7). Names are resolved with the shared EFI path rules (lib/path.c) against the
 * handle's own path, then looked up from the root one component at a time. */
#include "fat_efi.h"
#include <ember/core/core.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

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

EFI_STATUS fat_file_open(struct file_front *front, const CHAR16 *name, UINT64 mode,
			 UINT64 attributes, struct file_front **out)
{
	struct fat_file *from = fat_file_of(front), *f;
	struct fat_volume *vol = from->vol;
	bool write = mode & EFI_FILE_MODE_WRITE;
	struct fat_node *node = NULL, *start = NULL;
	CHAR16 *path = NULL;
	EFI_STATUS status;

	if (write && vol->read_only)
		return EFI_WRITE_PROTECTED;
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
	if (!EFI_ERROR(status))
		status = fat_file_new(vol, node, write, &f);
	if (!EFI_ERROR(status))
		*out = &f->front;
	return status;
}

EFI_STATUS fat_file_delete(struct file_front *front)
{
	struct fat_file *f = fat_file_of(front);
	EFI_STATUS status;

	if (!f->writable || f->node->is_root)
		return EFI_WARN_DELETE_FAILURE;
	status = fat_tx_begin(f->vol);
	if (EFI_ERROR(status))
		return EFI_WARN_DELETE_FAILURE;
	status = fat_tx_end(f->vol, fat_node_delete(f->node));
	return EFI_ERROR(status) ? EFI_WARN_DELETE_FAILURE : EFI_SUCCESS;
}
