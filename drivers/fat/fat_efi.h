/* EFI_SIMPLE_FILE_SYSTEM_PROTOCOL and EFI_FILE_PROTOCOL (UEFI 2.10, 13.4 and 13.5) over
 * the FAT engine. A fat_sfs is one file system instance over a fat_disk; the driver
 * binding (fat_binding.c) makes one per DiskIo device, tests make them over memory. */
#ifndef EMBER_FAT_EFI_H
#define EMBER_FAT_EFI_H

#include "fat.h"
#include <ember/drivers/file_front.h>
#include <efi/protocol/simple_file_system.h>

#define FAT_SFS_SIGNATURE SIGNATURE_32('f', 'a', 't', 'V')

struct fat_sfs {
	UINT32 signature;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL sfs;
	struct fat_disk *disk;
	EFI_UNICODE_COLLATION_PROTOCOL *uc;
	struct fat_volume *vol; /* the current mount */
};

/* One EFI_FILE_PROTOCOL handle; its entry points are the shared front end's. */
struct fat_file {
	struct file_front front;
	struct fat_volume *vol;
	struct fat_node *node;
	bool writable;
	UINT64 position; /* bytes; for a directory, the next slot to read */
	struct fat_cursor cursor;
};

/* Mounts disk and makes an instance (its protocol is not installed anywhere).
 * EFI_UNSUPPORTED when the disk holds no FAT file system. */
EFI_STATUS fat_sfs_create(struct fat_disk *disk, EFI_UNICODE_COLLATION_PROTOCOL *uc,
			  struct fat_sfs **out);
/* Ends the instance: open handles fail with EFI_MEDIA_CHANGED from now on and the
 * mount is freed with the last of them. The disk is not used again. */
void fat_sfs_destroy(struct fat_sfs *sfs);

/* ---- Handles (fat_sfs.c) ---- */

/* The handle a front-end handle is. */
static inline struct fat_file *fat_file_of(struct file_front *front)
{
	return container_of(front, struct fat_file, front);
}
/* A new handle on node (taking over the caller's reference). */
EFI_STATUS fat_file_new(struct fat_volume *vol, struct fat_node *node, bool writable,
			struct fat_file **out);
void fat_file_free(struct fat_file *f);
/* The TPL lock every entry point takes. */
EFI_TPL fat_enter(void);
void fat_leave(EFI_TPL old);

/* ---- The file system's part of EFI_FILE_PROTOCOL (struct file_front_ops) ---- */

/* fat_open.c */
EFI_STATUS fat_file_open(struct file_front *from, const CHAR16 *name, UINT64 mode,
			 UINT64 attributes, struct file_front **out);
EFI_STATUS fat_file_delete(struct file_front *front);
/* fat_io.c */
EFI_STATUS fat_file_read(struct file_front *front, UINTN *size, void *buffer);
EFI_STATUS fat_file_write(struct file_front *front, UINTN *size, const void *buffer);
EFI_STATUS fat_file_get_position(struct file_front *front, UINT64 *position);
EFI_STATUS fat_file_set_position(struct file_front *front, UINT64 position);
EFI_STATUS fat_file_flush(struct file_front *front);
/* fat_info.c */
EFI_STATUS fat_file_info(struct file_front *front, UINTN *size, void *buffer);
EFI_STATUS fat_fs_info(struct file_front *front, UINTN *size, void *buffer);
EFI_STATUS fat_label_info(struct file_front *front, UINTN *size, void *buffer);
/* fat_setinfo.c */
EFI_STATUS fat_file_set_info(struct file_front *front, const EFI_FILE_INFO *info,
			     const CHAR16 *name);
EFI_STATUS fat_file_set_label(struct file_front *front, const CHAR16 *label);

/* EFI_FILE_INFO for an entry (fat_info.c): its size is 80 bytes plus the name. */
EFI_STATUS fat_info_fill(struct fat_volume *vol, const struct fat_dirent *de, bool root,
			 const CHAR16 *name, UINTN *size, VOID *buffer);

#endif
