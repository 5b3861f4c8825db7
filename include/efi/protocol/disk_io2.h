/* EFI_DISK_IO2_PROTOCOL (UEFI 2.10, section 13.8): disk I/O with completion tokens. */
#ifndef EFI_PROTOCOL_DISK_IO2_H
#define EFI_PROTOCOL_DISK_IO2_H

#include <efi/status.h>

#define EFI_DISK_IO2_PROTOCOL_GUID                                                                 \
	EFI_GUID_INIT(0x151c8eae, 0x7f2c, 0x472c, 0x9e, 0x54, 0x98, 0x28, 0x19, 0x4f, 0x6a, 0x88)

#define EFI_DISK_IO2_PROTOCOL_REVISION 0x00020000

typedef struct _EFI_DISK_IO2_PROTOCOL EFI_DISK_IO2_PROTOCOL;

/* With a NULL Event (or a NULL token) the request completes before the call returns. */
typedef struct {
	EFI_EVENT Event;
	EFI_STATUS TransactionStatus;
} EFI_DISK_IO2_TOKEN;

typedef EFI_STATUS(EFIAPI *EFI_DISK_CANCEL_EX)(EFI_DISK_IO2_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_DISK_READ_EX)(EFI_DISK_IO2_PROTOCOL *This, UINT32 MediaId,
					     UINT64 Offset, EFI_DISK_IO2_TOKEN *Token,
					     UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_DISK_WRITE_EX)(EFI_DISK_IO2_PROTOCOL *This, UINT32 MediaId,
					      UINT64 Offset, EFI_DISK_IO2_TOKEN *Token,
					      UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_DISK_FLUSH_EX)(EFI_DISK_IO2_PROTOCOL *This,
					      EFI_DISK_IO2_TOKEN *Token);

struct _EFI_DISK_IO2_PROTOCOL {
	UINT64 Revision;
	EFI_DISK_CANCEL_EX Cancel;
	EFI_DISK_READ_EX ReadDiskEx;
	EFI_DISK_WRITE_EX WriteDiskEx;
	EFI_DISK_FLUSH_EX FlushDiskEx;
};

_Static_assert(sizeof(EFI_DISK_IO2_TOKEN) == 16, "EFI_DISK_IO2_TOKEN layout");
_Static_assert(sizeof(EFI_DISK_IO2_PROTOCOL) == 40, "EFI_DISK_IO2_PROTOCOL layout");

#endif
