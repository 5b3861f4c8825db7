/* FAT's part of EFI_FILE_PROTOCOL.SetInfo() (UEFI 2.10, 13.5.14, 13.5.16 - 13.5.18): rename
 * and move, size, attributes and times of a file, and the volume label. */
#include "fat_efi.h"
#include <ember/core/core.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

/* The attributes SetInfo may change (not EFI_FILE_DIRECTORY). */
#define SETTABLE_ATTR (FAT_ATTR_READ_ONLY | FAT_ATTR_HIDDEN | FAT_ATTR_SYSTEM | FAT_ATTR_ARCHIVE)

/* A SetInfo(EFI_FILE_INFO) request, compared with the file as it is. */
struct change {
	CHAR16 *target; /* the normalised path FileName names */
	bool resize, rename, times, attr;
	EFI_FILE_INFO info; /* the request's fixed part (FileName not copied) */
};

/* The target path: a name with '\' moves the file (relative names start from the
 * file's directory, names starting with '\' from the root). */
static EFI_STATUS rename_target(struct fat_node *node, const CHAR16 *name, CHAR16 **target)
{
	struct fat_node *dir = node->is_root ? node : node->parent;
	CHAR16 *base;
	size_t units;
	EFI_STATUS status = fat_node_path(dir, &base);

	if (EFI_ERROR(status))
		return status;
	units = str16_len(base) + str16_len(name) + 2;
	*target = pool_alloc(units * sizeof(CHAR16));
	status = *target ? path_normalize(base, name, *target, units) : EFI_OUT_OF_RESOURCES;
	pool_free(base);
	if (EFI_ERROR(status)) {
		pool_free(*target);
		*target = NULL;
	}
	return status;
}

/* A requested time: zero means "leave it"; otherwise it must be valid. *differs tells
 * whether it changes the stored one. */
static EFI_STATUS check_time(const EFI_TIME *want, UINT16 date, UINT16 time, bool *differs)
{
	UINT16 d, t;
	UINT8 tenths;

	if (mem_is_zero(want, sizeof(*want)))
		return EFI_SUCCESS;
	if (!file_front_time_valid(want))
		return EFI_INVALID_PARAMETER;
	fat_time_encode(want, &d, &t, &tenths);
	*differs |= d != date || t != time;
	return EFI_SUCCESS;
}

static EFI_STATUS plan(struct fat_file *f, struct change *c)
{
	struct fat_node *node = f->node;
	const struct fat_dirent *de = &node->de;
	CHAR16 *current;
	EFI_STATUS status;

	if (c->info.Attribute & ~EFI_FILE_VALID_ATTR)
		return EFI_INVALID_PARAMETER;
	status = check_time(&c->info.CreateTime, de->create_date, de->create_time, &c->times);
	if (!EFI_ERROR(status))
		status = check_time(&c->info.LastAccessTime, de->access_date, 0, &c->times);
	if (!EFI_ERROR(status))
		status = check_time(&c->info.ModificationTime, de->write_date, de->write_time,
				    &c->times);
	if (!EFI_ERROR(status))
		status = fat_node_path(node, &current);
	if (EFI_ERROR(status))
		return status;
	c->rename = str16_cmp(c->target, current) != 0;
	pool_free(current);
	c->attr = (c->info.Attribute ^ de->attr) & SETTABLE_ATTR;
	if ((c->info.Attribute ^ de->attr) & EFI_FILE_DIRECTORY)
		return EFI_ACCESS_DENIED;
	if (node->is_dir) {
		UINTN size = SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16);
		UINT64 now[(SIZE_OF_EFI_FILE_INFO + sizeof(CHAR16) + 7) / 8];

		status = fat_info_fill(f->vol, de, node->is_root, u"", &size, now);
		if (!EFI_ERROR(status) && ((EFI_FILE_INFO *)now)->FileSize != c->info.FileSize)
			return EFI_ACCESS_DENIED; /* a directory's size is not set */
	} else {
		c->resize = c->info.FileSize != de->size;
	}
	if (node->is_root && (c->rename || c->attr || c->times))
		return EFI_ACCESS_DENIED; /* the root has no entry to change */
	/* Opened read-only: only the Attribute field may change. */
	if (!f->writable && (c->resize || c->rename || c->times))
		return EFI_ACCESS_DENIED;
	return status;
}

static void apply_times(struct fat_dirent *de, const EFI_FILE_INFO *info)
{
	UINT16 time;
	UINT8 tenths;

	if (!mem_is_zero(&info->CreateTime, sizeof(EFI_TIME)))
		fat_time_encode(&info->CreateTime, &de->create_date, &de->create_time,
				&de->create_tenths);
	if (!mem_is_zero(&info->LastAccessTime, sizeof(EFI_TIME)))
		fat_time_encode(&info->LastAccessTime, &de->access_date, &time, &tenths);
	if (!mem_is_zero(&info->ModificationTime, sizeof(EFI_TIME)))
		fat_time_encode(&info->ModificationTime, &de->write_date, &de->write_time, &tenths);
}

/* Renames or moves the node to c->target. */
static EFI_STATUS move(struct fat_node *node, CHAR16 *target)
{
	size_t parent_len = path_parent_len(target);
	const CHAR16 *name = path_last(target);
	struct fat_node *parent;
	CHAR16 saved;
	EFI_STATUS status;

	if (parent_len == 0)
		return EFI_ACCESS_DENIED; /* nothing is renamed to the root */
	saved = target[parent_len];
	target[parent_len] = 0;
	status = fat_node_walk(node->vol->root, target, &parent);
	target[parent_len] = saved;
	if (EFI_ERROR(status))
		return status;
	status =
	    parent->is_dir ? fat_node_rename(node, parent, name, str16_len(name)) : EFI_NOT_FOUND;
	fat_node_unref(parent);
	return status;
}

/* A new size: a longer file gets its clusters (zeroed) now, a shorter one only its new
 * size in the entry (fat_data_trim frees the rest once that entry is on disk). */
static EFI_STATUS resize(struct fat_node *node, UINT64 size)
{
	if (size > node->de.size)
		return fat_data_resize(node, size);
	node->de.size = (UINT32)size;
	if (size == 0)
		fat_dirent_set_cluster(&node->de, 0);
	return EFI_SUCCESS;
}

static EFI_STATUS apply(struct fat_file *f, const struct change *c)
{
	struct fat_node *node = f->node;
	struct fat_dirent before;
	UINT8 tenths;
	EFI_STATUS status;

	if (c->rename) {
		status = move(node, c->target);
		if (EFI_ERROR(status))
			return status;
	}
	before = node->de;
	if (c->resize) {
		status = resize(node, c->info.FileSize);
		if (EFI_ERROR(status))
			return status;
		fat_now(&node->de.write_date, &node->de.write_time, &tenths);
		node->de.attr |= FAT_ATTR_ARCHIVE;
	}
	node->de.attr =
	    (UINT8)((node->de.attr & ~SETTABLE_ATTR) | (c->info.Attribute & SETTABLE_ATTR));
	apply_times(&node->de, &c->info);
	status = fat_node_store(node);
	if (EFI_ERROR(status)) {
		/* The entry on disk is still `before`: so goes the chain. */
		if (EFI_ERROR(fat_data_restore(node, &before)))
			fat_volume_damaged(node->vol);
		return status;
	}
	/* A shorter file's clusters are freed once no entry on disk claims them. */
	return c->resize ? fat_data_trim(node, fat_dirent_cluster(&before)) : EFI_SUCCESS;
}

EFI_STATUS fat_file_set_info(struct file_front *front, const EFI_FILE_INFO *info,
			     const CHAR16 *name)
{
	struct fat_file *f = fat_file_of(front);
	struct change c = {.info = *info};
	EFI_STATUS status = rename_target(f->node, name, &c.target);

	if (!EFI_ERROR(status) && f->vol->read_only)
		status = EFI_WRITE_PROTECTED;
	if (!EFI_ERROR(status) && f->node->deleted)
		status = EFI_DEVICE_ERROR;
	if (!EFI_ERROR(status))
		status = plan(f, &c);
	if (!EFI_ERROR(status) && (c.rename || c.resize || c.times || c.attr)) {
		status = fat_tx_begin(f->vol);
		if (!EFI_ERROR(status))
			status = fat_tx_end(f->vol, apply(f, &c));
	}
	pool_free(c.target);
	return status;
}

EFI_STATUS fat_file_set_label(struct file_front *front, const CHAR16 *label)
{
	struct fat_volume *vol = fat_file_of(front)->vol;

	if (vol->read_only)
		return EFI_WRITE_PROTECTED;
	return fat_label_set(vol, label);
}
