/* ramdisk-test: EFI_RAM_DISK_PROTOCOL (UEFI 2.10, 13.17) checked from the outside on any
 * firmware, over images read from the app's own volume. */
#ifndef RAMDISK_TEST_H
#define RAMDISK_TEST_H

#include "../lib/check.h"
#include <efi/protocol/device_path.h>
#include <efi/protocol/simple_file_system.h>

/* A file of the volume the app was loaded from, copied into fresh EfiLoaderData pages
 * (*pages of them, so that it can be freed with FreePages); NULL when it cannot be read. */
void *rdt_read_own_file(const CHAR16 *name, UINTN *size, UINTN *pages);

/* The device path of the app's own volume; NULL when it has none. */
EFI_DEVICE_PATH_PROTOCOL *rdt_own_volume_path(void);

/* The first handle with SimpleFileSystem whose device path begins with path (the volume on
 * a RAM disk, or on one of its partitions); its path in *fs_path. NULL when there is none. */
EFI_HANDLE rdt_find_volume(const EFI_DEVICE_PATH_PROTOCOL *path,
			   EFI_DEVICE_PATH_PROTOCOL **fs_path);

/* Reads the whole file name of the volume on handle into a pool buffer (NUL-terminated,
 * *size bytes before the NUL); NULL when it cannot be read. */
char *rdt_read_volume_file(EFI_HANDLE volume, const CHAR16 *name, UINTN *size);

#endif
