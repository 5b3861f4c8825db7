/* Mounting a FAT volume, its disk access, the per-operation write-back with the dirty
 * flag, FSInfo and free space. */
#define LOG_PREFIX "fat: "
#include "fat.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define READER_SIZE 16384

static EFI_STATUS io_status(struct fat_volume *vol, EFI_STATUS status)
{
	if (status == EFI_NO_MEDIA || status == EFI_MEDIA_CHANGED) {
		log_debug("medium gone (%r): the mount ends\n", status);
		vol->gone = status;
	} else if (status == EFI_INVALID_PARAMETER) {
		status = EFI_DEVICE_ERROR; /* a range the disk refuses */
	}
	return status;
}

EFI_STATUS fat_disk_read(struct fat_volume *vol, UINT64 offset, UINTN size, void *buffer)
{
	if (vol->gone)
		return vol->gone;
	if (size == 0)
		return EFI_SUCCESS;
	if (offset > vol->disk->size || size > vol->disk->size - offset)
		return EFI_VOLUME_CORRUPTED;
	return io_status(vol, vol->disk->read(vol->disk, offset, size, buffer));
}

EFI_STATUS fat_disk_write(struct fat_volume *vol, UINT64 offset, UINTN size, const void *buffer)
{
	EFI_STATUS status;

	if (vol->gone)
		return vol->gone;
	if (vol->read_only)
		return EFI_WRITE_PROTECTED;
	if (size == 0)
		return EFI_SUCCESS;
	if (offset > vol->disk->size || size > vol->disk->size - offset)
		return EFI_VOLUME_CORRUPTED;
	status = io_status(vol, vol->disk->write(vol->disk, offset, size, buffer));
	if (status == EFI_WRITE_PROTECTED)
		vol->read_only = true;
	return status;
}

/* Free count and next-free hint from FSInfo, when it is there and believable. */
static void read_fsinfo(struct fat_volume *vol)
{
	UINT8 sector[512];
	UINT32 free_count, next;

	if (!vol->geo.fsinfo_offset ||
	    EFI_ERROR(fat_disk_read(vol, vol->geo.fsinfo_offset, sizeof(sector), sector)) ||
	    !fat_fsinfo_parse(sector, &free_count, &next))
		return;
	vol->has_fsinfo = true;
	if (free_count <= vol->geo.max_cluster - 1) {
		vol->free_count = free_count;
		vol->free_known = true;
	}
	if (next >= 2 && next <= vol->geo.max_cluster)
		vol->next_free = next;
}

static EFI_STATUS make_root(struct fat_volume *vol)
{
	struct fat_node *root = pool_alloc(sizeof(*root));

	if (!root || !(root->name = pool_alloc(sizeof(CHAR16)))) {
		pool_free(root);
		return EFI_OUT_OF_RESOURCES;
	}
	list_init(&root->recent);
	list_add(&root->link, &vol->nodes);
	root->vol = vol;
	root->refs = 1; /* the volume's */
	root->serial = ++vol->next_serial;
	root->is_dir = root->is_root = true;
	root->de.attr = FAT_ATTR_DIRECTORY;
	if (vol->geo.type == FAT_32)
		fat_dirent_set_cluster(&root->de, vol->geo.root_cluster);
	vol->root = root;
	return EFI_SUCCESS;
}

/* The directory reader's buffer (FAT windows are allocated as they are first used). */
static EFI_STATUS alloc_buffers(struct fat_volume *vol)
{
	vol->reader.buf_size = MIN((UINT32)READER_SIZE, vol->geo.cluster_size);
	vol->reader.buf = pool_alloc(vol->reader.buf_size);
	return vol->reader.buf ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

static EFI_STATUS read_boot(struct fat_volume *vol)
{
	UINT8 boot[512];
	EFI_STATUS status;

	if (vol->disk->size < sizeof(boot)) {
		log_debug("not FAT: a disk of %llu bytes\n", vol->disk->size);
		return EFI_UNSUPPORTED;
	}
	status = fat_disk_read(vol, 0, sizeof(boot), boot);
	if (EFI_ERROR(status)) {
		log_debug("reading the boot sector: %r\n", status);
		return status;
	}
	status = fat_bpb_parse(boot, vol->disk->size, &vol->geo);
	if (EFI_ERROR(status))
		return status; /* the parser said why */
	if (vol->geo.state_offset) {
		vol->boot_state = boot[vol->geo.state_offset];
		vol->was_dirty = vol->boot_state & FAT_STATE_DIRTY;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_mount(struct fat_disk *disk, EFI_UNICODE_COLLATION_PROTOCOL *uc,
		     struct fat_volume **out)
{
	struct fat_volume *vol = pool_alloc(sizeof(*vol));
	EFI_STATUS status;

	if (!vol)
		return EFI_OUT_OF_RESOURCES;
	vol->disk = disk;
	vol->uc = uc;
	vol->read_only = disk->read_only;
	vol->next_free = 2;
	list_init(&vol->nodes);
	list_init(&vol->recent);
	status = read_boot(vol);
	if (!EFI_ERROR(status)) {
		status = alloc_buffers(vol);
		if (!EFI_ERROR(status))
			status = make_root(vol);
		if (EFI_ERROR(status))
			log_debug("mount: no memory\n");
	}
	if (EFI_ERROR(status)) {
		fat_volume_free(vol);
		return status;
	}
	read_fsinfo(vol);
	log_debug("FAT%u volume, %u clusters of %u bytes%s\n", vol->geo.type,
		  vol->geo.max_cluster - 1, vol->geo.cluster_size,
		  vol->read_only ? ", read-only" : "");
	*out = vol;
	return EFI_SUCCESS;
}

void fat_volume_end(struct fat_volume *vol, EFI_STATUS why)
{
	if (!vol->gone)
		vol->gone = why;
	while (!list_empty(&vol->recent)) {
		struct fat_node *dir = list_first_entry(&vol->recent, struct fat_node, recent);

		list_del(&dir->recent);
		vol->recent_count--;
		fat_node_unref(dir);
	}
}

void fat_volume_free(struct fat_volume *vol)
{
	while (!list_empty(&vol->nodes)) {
		struct fat_node *node = list_first_entry(&vol->nodes, struct fat_node, link);

		list_del(&node->link);
		fat_dir_free(node->dir);
		pool_free(node->name);
		pool_free(node);
	}
	for (UINT32 i = 0; i < FAT_WINDOWS; i++)
		pool_free(vol->windows[i].data);
	pool_free(vol->reader.buf);
	pool_free(vol->zeros);
	pool_free(vol);
}

static EFI_STATUS write_state(struct fat_volume *vol, UINT8 state)
{
	return fat_disk_write(vol, vol->geo.state_offset, 1, &state);
}

EFI_STATUS fat_tx_begin(struct fat_volume *vol)
{
	EFI_STATUS status;

	if (vol->gone)
		return vol->gone;
	if (vol->read_only)
		return EFI_WRITE_PROTECTED;
	if (vol->tx_depth++ > 0)
		return EFI_SUCCESS;
	/* A volume found dirty stays dirty, for fsck to look at. */
	if (vol->geo.state_offset && !vol->was_dirty) {
		status = write_state(vol, vol->boot_state | FAT_STATE_DIRTY);
		if (EFI_ERROR(status)) {
			vol->tx_depth--;
			return status;
		}
		vol->tx_marked = true;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS write_fsinfo(struct fat_volume *vol)
{
	UINT8 fields[8];
	EFI_STATUS status;

	if (!vol->has_fsinfo || !vol->fsinfo_dirty)
		return EFI_SUCCESS;
	fat_put32(fields, vol->free_known ? vol->free_count : FAT_FSINFO_UNKNOWN);
	fat_put32(fields + 4, vol->next_free);
	status =
	    fat_disk_write(vol, vol->geo.fsinfo_offset + FAT_FSINFO_FREE, sizeof(fields), fields);
	if (!EFI_ERROR(status))
		vol->fsinfo_dirty = false;
	return status;
}

EFI_STATUS fat_tx_end(struct fat_volume *vol, EFI_STATUS status)
{
	EFI_STATUS written;

	if (vol->tx_depth == 0 || --vol->tx_depth > 0)
		return status;
	written = fat_table_flush(vol);
	if (!EFI_ERROR(written))
		written = write_fsinfo(vol);
	/* The flag is cleared only once everything else is on disk, and never on a volume
	 * that may be inconsistent. */
	if (!EFI_ERROR(written) && vol->tx_marked && vol->was_dirty) {
		vol->tx_marked = false;
	} else if (!EFI_ERROR(written) && vol->tx_marked) {
		written = write_state(vol, vol->boot_state);
		vol->tx_marked = EFI_ERROR(written);
	}
	return EFI_ERROR(status) ? status : written;
}

void fat_volume_damaged(struct fat_volume *vol)
{
	if (!vol->was_dirty)
		log_warn("a change failed half-way and could not be undone: the volume stays "
			 "marked dirty, for a file system check\n");
	vol->was_dirty = true;
}

EFI_STATUS fat_volume_flush(struct fat_volume *vol)
{
	EFI_STATUS status;

	if (vol->gone)
		return vol->gone;
	if (vol->read_only)
		return EFI_SUCCESS;
	/* Everything is on disk already, but for a newly counted FSInfo free count, or what
	 * the end of a change could not write (the disk failed; it may work again). */
	status = EFI_SUCCESS;
	if ((vol->has_fsinfo && vol->fsinfo_dirty) || vol->tx_marked || fat_table_dirty(vol)) {
		status = fat_tx_begin(vol);
		status = fat_tx_end(vol, status);
	}
	if (!EFI_ERROR(status) && vol->disk->flush)
		status = io_status(vol, vol->disk->flush(vol->disk));
	return status;
}

EFI_STATUS fat_free_clusters(struct fat_volume *vol, UINT32 *count)
{
	EFI_STATUS status;

	if (!vol->free_known) {
		status = fat_table_count_free(vol, &vol->free_count);
		if (EFI_ERROR(status))
			return status;
		vol->free_known = true;
		vol->fsinfo_dirty = true;
	}
	*count = vol->free_count;
	return EFI_SUCCESS;
}

void fat_now(UINT16 *date, UINT16 *time, UINT8 *tenths)
{
	EFI_TIME now;

	if (EFI_ERROR(core_get_time(&now)))
		mem_set(&now, 0, sizeof(now));
	fat_time_encode(&now, date, time, tenths);
}
