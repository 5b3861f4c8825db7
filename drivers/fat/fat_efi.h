/* EFI_SIMPLE_FILE_SYSTEM_PROTOCOL and EFI_FILE_PROTOCOL (UEFI 2.10, 13.4 and 13.5) over
 * the FAT engine. A fat_sfs is one file system instance over a fat_disk; the driver
 * binding (fat_binding.c) makes one per DiskIo device, tests make them over memory. */
#ifndef EMBER_FAT_EFI_H
#define EMBER_FAT_EFI_H

#include "fat.h"
#include <efi/protocol/simple_file_system.h>

#define FAT_SFS_SIGNATURE SIGNATURE_32('f', 'a', 't', 'V')
#define FAT_FILE_SIGNATURE SIGNATURE_32('f', 'a', 't', 'F')

struct fat_sfs {
	UINT32 signature;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL sfs;
	struct fat_disk *disk;
	EFI_UNICODE_COLLATION_PROTOCOL *uc;
	struct fat_volume *vol; /* the current mount */
};

/* One EFI_FILE_PROTOCOL handle. */
struct fat_file {
	UINT32 signature;
	EFI_FILE_PROTOCOL file;
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

/* The handle behind This, or NULL when This is not one. */
struct fat_file *fat_file_from(EFI_FILE_PROTOCOL *This);
/* A new handle on node (taking over the caller's reference). */
EFI_STATUS fat_file_new(struct fat_volume *vol, struct fat_node *node, bool writable,
			struct fat_file **out);
void fat_file_free(struct fat_file *f);
/* EFI_SUCCESS while the handle's mount is usable (the medium is checked), else why not. */
EFI_STATUS fat_file_usable(struct fat_file *f);
/* The TPL lock every entry point takes. */
EFI_TPL fat_enter(void);
void fat_leave(EFI_TPL old);
/* Token handling for the ...Ex calls (they complete before returning). */
bool fat_token_ok(const EFI_FILE_IO_TOKEN *token);
EFI_STATUS fat_complete(EFI_FILE_IO_TOKEN *token, EFI_STATUS status);

/* ---- Entry points ---- */
EFI_STATUS EFIAPI fat_file_open(EFI_FILE_PROTOCOL *This, EFI_FILE_PROTOCOL **NewHandle,
				CHAR16 *FileName, UINT64 OpenMode, UINT64 Attributes);
EFI_STATUS EFIAPI fat_file_open_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_PROTOCOL **NewHandle,
				   CHAR16 *FileName, UINT64 OpenMode, UINT64 Attributes,
				   EFI_FILE_IO_TOKEN *Token);
EFI_STATUS EFIAPI fat_file_close(EFI_FILE_PROTOCOL *This);
EFI_STATUS EFIAPI fat_file_delete(EFI_FILE_PROTOCOL *This);
EFI_STATUS EFIAPI fat_file_read(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer);
EFI_STATUS EFIAPI fat_file_write(EFI_FILE_PROTOCOL *This, UINTN *BufferSize, VOID *Buffer);
EFI_STATUS EFIAPI fat_file_get_position(EFI_FILE_PROTOCOL *This, UINT64 *Position);
EFI_STATUS EFIAPI fat_file_set_position(EFI_FILE_PROTOCOL *This, UINT64 Position);
EFI_STATUS EFIAPI fat_file_get_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				    UINTN *BufferSize, VOID *Buffer);
EFI_STATUS EFIAPI fat_file_set_info(EFI_FILE_PROTOCOL *This, EFI_GUID *InformationType,
				    UINTN BufferSize, VOID *Buffer);
EFI_STATUS EFIAPI fat_file_flush(EFI_FILE_PROTOCOL *This);
EFI_STATUS EFIAPI fat_file_read_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token);
EFI_STATUS EFIAPI fat_file_write_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token);
EFI_STATUS EFIAPI fat_file_flush_ex(EFI_FILE_PROTOCOL *This, EFI_FILE_IO_TOKEN *Token);

/* EFI_FILE_INFO for an entry (fat_info.c): its size is 80 bytes plus the name. */
EFI_STATUS fat_info_fill(struct fat_volume *vol, const struct fat_dirent *de, bool root,
			 const CHAR16 *name, UINTN *size, VOID *buffer);

#endif
