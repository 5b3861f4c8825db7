/* A FAT file system instance: EFI_SIMPLE_FILE_SYSTEM_PROTOCOL.OpenVolume() (UEFI 2.10,
 * 13.4.1), remounting after a change of medium, and the life of file handles. */
#include "fat_efi.h"
#include <ember/core.h>
#include <ember/log.h>

static const EFI_FILE_PROTOCOL file_template = {
    .Revision = EFI_FILE_PROTOCOL_REVISION2,
    .Open = fat_file_open,
    .Close = fat_file_close,
    .Delete = fat_file_delete,
    .Read = fat_file_read,
    .Write = fat_file_write,
    .GetPosition = fat_file_get_position,
    .SetPosition = fat_file_set_position,
    .GetInfo = fat_file_get_info,
    .SetInfo = fat_file_set_info,
    .Flush = fat_file_flush,
    .OpenEx = fat_file_open_ex,
    .ReadEx = fat_file_read_ex,
    .WriteEx = fat_file_write_ex,
    .FlushEx = fat_file_flush_ex,
};

EFI_TPL fat_enter(void)
{
	/* TPL_CALLBACK, not higher: the disk below may wait on events of its own. */
	return tpl_raise(TPL_CALLBACK);
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

struct fat_file *fat_file_from(EFI_FILE_PROTOCOL *This)
{
	struct fat_file *f;

	if (!This)
		return NULL;
	f = container_of(This, struct fat_file, file);
	if (!mem_is_allocated(f, sizeof(*f)) || f->signature != FAT_FILE_SIGNATURE)
		return NULL;
	return f;
}

EFI_STATUS fat_file_new(struct fat_volume *vol, struct fat_node *node, bool writable,
			struct fat_file **out)
{
	struct fat_file *f = pool_alloc(sizeof(*f));

	if (!f) {
		fat_node_unref(node);
		return EFI_OUT_OF_RESOURCES;
	}
	f->signature = FAT_FILE_SIGNATURE;
	f->file = file_template;
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

	f->signature = 0;
	fat_node_unref(f->node);
	pool_free(f);
	vol->handles--;
	release(vol);
}

EFI_STATUS fat_file_usable(struct fat_file *f)
{
	struct fat_volume *vol = f->vol;

	if (!vol->gone && vol->disk->check) {
		EFI_STATUS status = vol->disk->check(vol->disk);
		if (status == EFI_NO_MEDIA || status == EFI_MEDIA_CHANGED)
			fat_volume_end(vol, status);
	}
	return vol->gone;
}

bool fat_token_ok(const EFI_FILE_IO_TOKEN *token)
{
	return token && (!token->Event || event_is_valid(token->Event));
}

EFI_STATUS fat_complete(EFI_FILE_IO_TOKEN *token, EFI_STATUS status)
{
	token->Status = status;
	if (!token->Event)
		return status; /* blocking I/O */
	/* Done before returning: the request was queued, its outcome is in the token. */
	event_signal(token->Event);
	return EFI_SUCCESS;
}

/* The mount to open: the current one, or a new one after the medium changed. */
static EFI_STATUS current_volume(struct fat_sfs *sfs, struct fat_volume **out)
{
	struct fat_disk *disk = sfs->disk;
	bool had = sfs->vol != NULL;
	EFI_STATUS status;

	if (sfs->vol && !sfs->vol->gone && disk->check) {
		status = disk->check(disk);
		if (status == EFI_NO_MEDIA || status == EFI_MEDIA_CHANGED)
			fat_volume_end(sfs->vol, status);
	}
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
	if (EFI_ERROR(status))
		return status;
	log_debug("fat: volume remounted\n");
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
	*Root = f ? &f->file : NULL;
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
