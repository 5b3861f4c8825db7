/* disk-test: what an EFI program sees of the storage stack. `list` prints every BlockIo
 * device with its partition information; `io N OFFSET LENGTH` writes a pattern through
 * DiskIo on device N at an arbitrary offset and reads it back through DiskIo, DiskIo2 and
 * BlockIo; `ro N` checks that device N refuses writes; `checks` runs the generic DiskIo
 * and BlockIo checks on every device; `self` prints where the program was loaded from
 * (its LoadedImage DeviceHandle and FilePath). Devices are numbered in LocateHandleBuffer order. */
#ifndef DISK_TEST_H
#define DISK_TEST_H

#include "../lib/app.h"
#include "../lib/check.h"
#include "../lib/devpath.h"
#include <efi/protocol/block_io2.h>
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/disk_io.h>
#include <efi/protocol/disk_io2.h>
#include <efi/protocol/partition_info.h>
#include <efi/protocol/simple_file_system.h>

extern EFI_GUID dt_block_io_guid, dt_block_io2_guid, dt_disk_io_guid, dt_disk_io2_guid,
    dt_partition_info_guid, dt_device_path_guid, dt_esp_guid, dt_sfs_guid;

/* Every handle with a BlockIo (free with app_free); 0 when there are none. */
UINTN dt_block_devices(EFI_HANDLE **handles);
/* The device path of a handle as text (free with app_free), or NULL. */
CHAR16 *dt_path_text(EFI_HANDLE handle);
/* The test pattern's byte at a byte offset of a device. */
static inline UINT8 dt_pattern(UINT64 offset)
{
	return (UINT8)(offset * 31 + 7);
}

void dt_list(void);
void dt_io(UINTN device, UINT64 offset, UINTN length);
void dt_read_only(UINTN device);
void dt_checks(void);
void dt_self(void);

#endif
