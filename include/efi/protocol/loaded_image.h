/* EFI_LOADED_IMAGE_PROTOCOL (UEFI 2.10, section 9.1). */
#ifndef EFI_PROTOCOL_LOADED_IMAGE_H
#define EFI_PROTOCOL_LOADED_IMAGE_H

#include <efi/status.h>
#include <efi/protocol/device_path.h>

#define EFI_LOADED_IMAGE_PROTOCOL_GUID                                                             \
	EFI_GUID_INIT(0x5b1b31a1, 0x9562, 0x11d2, 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b)
#define EFI_LOADED_IMAGE_PROTOCOL_REVISION 0x1000

struct _EFI_SYSTEM_TABLE;

typedef EFI_STATUS(EFIAPI *EFI_IMAGE_UNLOAD_FUNCTION)(EFI_HANDLE ImageHandle);

typedef struct {
	UINT32 Revision;
	EFI_HANDLE ParentHandle;
	struct _EFI_SYSTEM_TABLE *SystemTable;

	EFI_HANDLE DeviceHandle;
	EFI_DEVICE_PATH_PROTOCOL *FilePath;
	VOID *Reserved;

	UINT32 LoadOptionsSize;
	VOID *LoadOptions;

	VOID *ImageBase;
	UINT64 ImageSize;
	UINT32 ImageCodeType; /* EFI_MEMORY_TYPE */
	UINT32 ImageDataType; /* EFI_MEMORY_TYPE */
	EFI_IMAGE_UNLOAD_FUNCTION Unload;
} EFI_LOADED_IMAGE_PROTOCOL;
_Static_assert(sizeof(EFI_LOADED_IMAGE_PROTOCOL) == 96, "EFI_LOADED_IMAGE_PROTOCOL layout");

#endif
