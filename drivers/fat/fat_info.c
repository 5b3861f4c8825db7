/* FAT's part of EFI_FILE_PROTOCOL.GetInfo() (UEFI 2.10, 13.5.13): EFI_FILE_INFO from a
 * directory entry, EFI_FILE_SYSTEM_INFO and EFI_FILE_SYSTEM_VOLUME_LABEL (13.5.16 - 13.5.18). */
#include "fat_efi.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define LABEL_UNITS 12

/* A directory's size is what its clusters hold (FAT records none). */
static UINT64 dir_bytes(struct fat_volume *vol, const struct fat_dirent *de, bool root)
{
	UINT64 bytes = 0;

	if (root && vol->geo.type != FAT_32)
		return (UINT64)vol->geo.root_entries * FAT_DIRENT_SIZE;
	if (EFI_ERROR(fat_chain_bytes(vol, root ? vol->geo.root_cluster : fat_dirent_cluster(de),
				      &bytes)))
		return 0; /* a damaged chain: the listing goes on */
	return bytes;
}

EFI_STATUS fat_info_fill(struct fat_volume *vol, const struct fat_dirent *de, bool root,
			 const CHAR16 *name, UINTN *size, VOID *buffer)
{
	UINTN needed = SIZE_OF_EFI_FILE_INFO + str16_size(name);
	UINT64 csize = vol->geo.cluster_size;
	EFI_FILE_INFO info = {0};

	if (*size < needed) {
		*size = needed;
		return EFI_BUFFER_TOO_SMALL;
	}
	info.Size = needed;
	if (de->attr & FAT_ATTR_DIRECTORY) {
		info.FileSize = info.PhysicalSize = dir_bytes(vol, de, root);
	} else {
		info.FileSize = de->size;
		info.PhysicalSize = (de->size + csize - 1) / csize * csize;
	}
	fat_time_decode(de->create_date, de->create_time, de->create_tenths, &info.CreateTime);
	fat_time_decode(de->access_date, 0, 0, &info.LastAccessTime);
	fat_time_decode(de->write_date, de->write_time, 0, &info.ModificationTime);
	info.Attribute = de->attr & EFI_FILE_VALID_ATTR;
	/* The caller's buffer need not be aligned. */
	mem_copy(buffer, &info, SIZE_OF_EFI_FILE_INFO);
	mem_copy((UINT8 *)buffer + SIZE_OF_EFI_FILE_INFO, name, str16_size(name));
	*size = needed;
	return EFI_SUCCESS;
}

EFI_STATUS fat_fs_info(struct file_front *front, UINTN *size, void *buffer)
{
	struct fat_volume *vol = fat_file_of(front)->vol;
	CHAR16 label[LABEL_UNITS];
	EFI_FILE_SYSTEM_INFO info = {0};
	UINT32 free_clusters;
	UINTN needed;
	EFI_STATUS status = fat_label_get(vol, label, LABEL_UNITS);

	if (EFI_ERROR(status))
		return status;
	needed = SIZE_OF_EFI_FILE_SYSTEM_INFO + str16_size(label);
	if (*size < needed) {
		*size = needed;
		return EFI_BUFFER_TOO_SMALL;
	}
	status = fat_free_clusters(vol, &free_clusters);
	if (EFI_ERROR(status))
		return status;
	info.Size = needed;
	info.ReadOnly = vol->read_only;
	info.VolumeSize = (UINT64)(vol->geo.max_cluster - 1) * vol->geo.cluster_size;
	info.FreeSpace = (UINT64)free_clusters * vol->geo.cluster_size;
	info.BlockSize = vol->geo.cluster_size;
	mem_copy(buffer, &info, SIZE_OF_EFI_FILE_SYSTEM_INFO);
	mem_copy((UINT8 *)buffer + SIZE_OF_EFI_FILE_SYSTEM_INFO, label, str16_size(label));
	*size = needed;
	return EFI_SUCCESS;
}

EFI_STATUS fat_label_info(struct file_front *front, UINTN *size, void *buffer)
{
	struct fat_volume *vol = fat_file_of(front)->vol;
	CHAR16 label[LABEL_UNITS];
	EFI_STATUS status = fat_label_get(vol, label, LABEL_UNITS);

	if (EFI_ERROR(status))
		return status;
	if (*size < str16_size(label)) {
		*size = str16_size(label);
		return EFI_BUFFER_TOO_SMALL;
	}
	*size = str16_size(label);
	mem_copy(buffer, label, *size);
	return EFI_SUCCESS;
}

EFI_STATUS fat_file_info(struct file_front *front, UINTN *size, void *buffer)
{
	struct fat_file *f = fat_file_of(front);
	struct fat_node *node = f->node;

	if (node->deleted)
		return EFI_DEVICE_ERROR;
	return fat_info_fill(f->vol, &node->de, node->is_root, node->name, size, buffer);
}
