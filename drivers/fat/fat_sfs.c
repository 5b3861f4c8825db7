/* A FAT file system instance: EFI_SIMPLE_FILE_SYSTEM_PROTOCOL.OpenVolume() (UEFI 2.10,
 * 13.4.1), remounting after a change of medium, and the life of file handles. */
#define LOG_PREFIX "fat: "
#include "fat_efi.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

/* TPL_CALLBACK, not higher: the disk below may wait on events of its own. */
#define FAT_TPL TPL_CALLBACK

EFI_TPL fat_enter(void)
{
	return tpl_raise(FAT_TPL);
}

void fat_leave(EFI_TPL old)
{
	tpl_restore(old);
}

/* A mount nobody uses any more is freed. */
static void release(struct fat_volume *vol)
{
	if (vol->gone && !vol->owner && vol->handles == 0)
		fat_volume_free(vol);
}

static void detach(struct fat_sfs *sfs, EFI_STATUS why)
{
	struct fat_volume *vol = sfs->vol;

	if (!vol)
		return;
	fat_volume_end(vol, why);
	vol->owner = NULL;
	sfs->vol = NULL;
	release(vol);
}

static void close_file(struct file_front *front)
{
	fat_file_free(fat_file_of(front));
}

/* Ends the mount when its medium went away or changed. */
static void check_medium(struct fat_volume *vol)
{
	if (!vol->gone && vol->disk->check) {
		EFI_STATUS status = vol->disk->check(vol->disk);
		if (status == EFI_NO_MEDIA || status == EFI_MEDIA_CHANGED)
			fat_volume_end(vol, status);
	}
}

/* The medium is checked at every call: a handle of a mount that ended fails with why. */
static EFI_STATUS file_usable(struct file_front *front)
{
	struct fat_volume *vol = fat_file_of(front)->vol;

	check_medium(vol);
	return vol->gone;
}

static const struct file_front_ops fat_file_ops = {
    .tpl = FAT_TPL,
    .label_max = 12, /* one more than FAT's 11: fat_label_set tells what is too long */
    .usable = file_usable,
    .open = fat_file_open,
    .close = close_file,
    .delete = fat_file_delete,
    .read = fat_file_read,
    .write = fat_file_write,
    .get_position = fat_file_get_position,
    .set_position = fat_file_set_position,
    .flush = fat_file_flush,
    .file_info = fat_file_info,
    .fs_info = fat_fs_info,
    .volume_label = fat_label_info,
    .set_file_info = fat_file_set_info,
    .set_label = fat_file_set_label,
};

EFI_STATUS fat_file_new(struct fat_volume *vol, struct fat_node *node, bool writable,
			struct fat_file **out)
{
	struct fat_file *f = pool_alloc(sizeof(*f));

	if (!f) {
		fat_node_unref(node);
		return EFI_OUT_OF_RESOURCES;
	}
	file_front_init(&f->front, &fat_file_ops);
	f->vol = vol;
	f->node = node;
	f->writable = writable;
	vol->handles++;
	*out = f;
	return EFI_SUCCESS;
}

void fat_file_free(struct fat_file *f)
{
	struct fat_volume *vol = f->vol;

	file_front_fini(&f->front);
	fat_node_unref(f->node);
	pool_free(f);
	vol->handles--;
	release(vol);
}

/* The mount to open: the current one, or a new one after the medium changed. */
static EFI_STATUS current_volume(struct fat_sfs *sfs, struct fat_volume **out)
{
	struct fat_disk *disk = sfs->disk;
	bool had = sfs->vol != NULL;
	EFI_STATUS status;

	if (sfs->vol)
		check_medium(sfs->vol);
	if (sfs->vol && !sfs->vol->gone) {
		*out = sfs->vol;
		return EFI_SUCCESS;
	}
	detach(sfs, EFI_MEDIA_CHANGED);
	if (disk->check && disk->check(disk) == EFI_NO_MEDIA)
		return EFI_NO_MEDIA;
	status = fat_mount(disk, sfs->uc, &sfs->vol);
	if (status == EFI_UNSUPPORTED && had)
		status = EFI_MEDIA_CHANGED; /* "the medium is no longer supported" */
	if (EFI_ERROR(status)) {
		log_debug("remounting: %r\n", status);
		return status;
	}
	log_debug("volume remounted\n");
	sfs->vol->owner = sfs;
	*out = sfs->vol;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI open_volume(EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *This,
				     EFI_FILE_PROTOCOL **Root)
{
	struct fat_sfs *sfs = This ? container_of(This, struct fat_sfs, sfs) : NULL;
	struct fat_volume *vol;
	struct fat_file *f = NULL;
	EFI_STATUS status;
	EFI_TPL old;

	if (!sfs || !mem_is_allocated(sfs, sizeof(*sfs)) || sfs->signature != FAT_SFS_SIGNATURE ||
	    !Root)
		return EFI_INVALID_PARAMETER;
	old = fat_enter();
	status = current_volume(sfs, &vol);
	if (!EFI_ERROR(status)) {
		fat_node_ref(vol->root);
		status = fat_file_new(vol, vol->root, !vol->read_only, &f);
	}
	*Root = f ? &f->front.file : NULL;
	fat_leave(old);
	return status;
}

EFI_STATUS fat_sfs_create(struct fat_disk *disk, EFI_UNICODE_COLLATION_PROTOCOL *uc,
			  struct fat_sfs **out)
{
	struct fat_sfs *sfs = pool_alloc(sizeof(*sfs));
	EFI_STATUS status;

	if (!sfs)
		return EFI_OUT_OF_RESOURCES;
	status = fat_mount(disk, uc, &sfs->vol);
	if (EFI_ERROR(status)) {
		pool_free(sfs);
		return status;
	}
	sfs->signature = FAT_SFS_SIGNATURE;
	sfs->sfs.Revision = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_REVISION;
	sfs->sfs.OpenVolume = open_volume;
	sfs->disk = disk;
	sfs->uc = uc;
	sfs->vol->owner = sfs;
	*out = sfs;
	return EFI_SUCCESS;
}

void fat_sfs_destroy(struct fat_sfs *sfs)
{
	EFI_TPL old = fat_enter();

	/* Unmounting: a free count worked out since the last change goes to FSInfo too. */
	if (sfs->vol && !sfs->vol->gone)
		fat_volume_flush(sfs->vol);
	detach(sfs, EFI_MEDIA_CHANGED);
	sfs->signature = 0;
	pool_free(sfs);
	fat_leave(old);
}
