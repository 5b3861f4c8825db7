/* EFI_DISK_IO_PROTOCOL (UEFI 2.10, section 13.7): byte-granular access to a block device. */
#ifndef EFI_PROTOCOL_DISK_IO_H
#define EFI_PROTOCOL_DISK_IO_H

#include <efi/status.h>

#define EFI_DISK_IO_PROTOCOL_GUID                                                                  \
	EFI_GUID_INIT(0xce345171, 0xba0b, 0x11d2, 0x8e, 0x4f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b)

#define EFI_DISK_IO_PROTOCOL_REVISION 0x00010000

typedef struct _EFI_DISK_IO_PROTOCOL EFI_DISK_IO_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_DISK_READ)(EFI_DISK_IO_PROTOCOL *This, UINT32 MediaId, UINT64 Offset,
					  UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_DISK_WRITE)(EFI_DISK_IO_PROTOCOL *This, UINT32 MediaId,
					   UINT64 Offset, UINTN BufferSize, VOID *Buffer);

struct _EFI_DISK_IO_PROTOCOL {
	UINT64 Revision;
	EFI_DISK_READ ReadDisk;
	EFI_DISK_WRITE WriteDisk;
};

_Static_assert(sizeof(EFI_DISK_IO_PROTOCOL) == 24, "EFI_DISK_IO_PROTOCOL layout");

#endif
