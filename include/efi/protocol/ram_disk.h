/* EFI_RAM_DISK_PROTOCOL (UEFI 2.10, section 13.17): registers a range of memory as a block
 * device whose device path ends in a RamDisk() node (10.3.5.9) of the given type
 * (EFI_VIRTUAL_DISK_GUID, EFI_VIRTUAL_CD_GUID and their persistent forms, or a vendor's
 * GUID), and takes it away again. */
#ifndef EFI_PROTOCOL_RAM_DISK_H
#define EFI_PROTOCOL_RAM_DISK_H

#include <efi/status.h>
#include <efi/protocol/device_path.h>

#define EFI_RAM_DISK_PROTOCOL_GUID                                                                 \
	EFI_GUID_INIT(0xab38a0df, 0x6873, 0x44a9, 0x87, 0xe6, 0xd4, 0xeb, 0x56, 0x14, 0x84, 0x49)

/* DevicePath receives a pool copy of ParentDevicePath (or nothing) followed by the RamDisk()
 * node; the caller frees it. */
typedef EFI_STATUS(EFIAPI *EFI_RAM_DISK_REGISTER_RAMDISK)(
    UINT64 RamDiskBase, UINT64 RamDiskSize, EFI_GUID *RamDiskType,
    EFI_DEVICE_PATH_PROTOCOL *ParentDevicePath, EFI_DEVICE_PATH_PROTOCOL **DevicePath);

typedef EFI_STATUS(EFIAPI *EFI_RAM_DISK_UNREGISTER_RAMDISK)(EFI_DEVICE_PATH_PROTOCOL *DevicePath);

typedef struct _EFI_RAM_DISK_PROTOCOL {
	EFI_RAM_DISK_REGISTER_RAMDISK Register;
	EFI_RAM_DISK_UNREGISTER_RAMDISK Unregister;
} EFI_RAM_DISK_PROTOCOL;

#endif
