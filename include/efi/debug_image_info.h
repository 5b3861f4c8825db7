/* EFI_DEBUG_IMAGE_INFO_TABLE (UEFI 2.10, section 18.4): a configuration table through which
 * a debugger finds every loaded image (its LoadedImage protocol and handle). */
#ifndef EFI_DEBUG_IMAGE_INFO_H
#define EFI_DEBUG_IMAGE_INFO_H

#include <efi/protocol/loaded_image.h>

#define EFI_DEBUG_IMAGE_INFO_TABLE_GUID                                                            \
	EFI_GUID_INIT(0x49152e77, 0x1ada, 0x4764, 0xb7, 0xa2, 0x7a, 0xfe, 0xfe, 0xd9, 0x5e, 0x8b)

/* UpdateStatus bits: the table is being changed; it changed since the debugger looked. */
#define EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS 0x01
#define EFI_DEBUG_IMAGE_INFO_TABLE_MODIFIED 0x02

#define EFI_DEBUG_IMAGE_INFO_TYPE_NORMAL 0x01

typedef struct {
	UINT32 ImageInfoType;
	EFI_LOADED_IMAGE_PROTOCOL *LoadedImageProtocolInstance;
	EFI_HANDLE ImageHandle;
} EFI_DEBUG_IMAGE_INFO_NORMAL;
_Static_assert(sizeof(EFI_DEBUG_IMAGE_INFO_NORMAL) == 24, "EFI_DEBUG_IMAGE_INFO_NORMAL layout");

typedef union {
	UINT32 *ImageInfoType;
	EFI_DEBUG_IMAGE_INFO_NORMAL *NormalImage;
} EFI_DEBUG_IMAGE_INFO;

typedef struct {
	volatile UINT32 UpdateStatus;
	UINT32 TableSize; /* elements of EfiDebugImageInfoTable */
	EFI_DEBUG_IMAGE_INFO *EfiDebugImageInfoTable;
} EFI_DEBUG_IMAGE_INFO_TABLE_HEADER;
_Static_assert(sizeof(EFI_DEBUG_IMAGE_INFO_TABLE_HEADER) == 16,
	       "EFI_DEBUG_IMAGE_INFO_TABLE_HEADER layout");

/* EFI_SYSTEM_TABLE_POINTER (18.4.2): on a 4 MiB boundary, for debuggers that scan memory. */
#define EFI_SYSTEM_TABLE_POINTER_ALIGNMENT (4ULL << 20)
typedef struct {
	UINT64 Signature; /* EFI_SYSTEM_TABLE_SIGNATURE, "IBI SYST" */
	EFI_PHYSICAL_ADDRESS EfiSystemTableBase;
	UINT32 Crc32;
} EFI_SYSTEM_TABLE_POINTER;

#endif
