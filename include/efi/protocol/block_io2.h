/* EFI_BLOCK_IO2_PROTOCOL (UEFI 2.10, section 13.10): block I/O with completion tokens. */
#ifndef EFI_PROTOCOL_BLOCK_IO2_H
#define EFI_PROTOCOL_BLOCK_IO2_H

#include <efi/protocol/block_io.h>

#define EFI_BLOCK_IO2_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0xa77b2472, 0xe282, 0x4e9f, 0xa2, 0x45, 0xc2, 0xc0, 0xe2, 0x7b, 0xbc, 0xc1)

typedef struct _EFI_BLOCK_IO2_PROTOCOL EFI_BLOCK_IO2_PROTOCOL;

/* With a NULL Event (or a NULL token) the request completes before the call returns. */
typedef struct {
	EFI_EVENT Event;
	EFI_STATUS TransactionStatus;
} EFI_BLOCK_IO2_TOKEN;

typedef EFI_STATUS(EFIAPI *EFI_BLOCK_RESET_EX)(EFI_BLOCK_IO2_PROTOCOL *This,
					       BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_READ_EX)(EFI_BLOCK_IO2_PROTOCOL *This, UINT32 MediaId,
					      EFI_LBA LBA, EFI_BLOCK_IO2_TOKEN *Token,
					      UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_WRITE_EX)(EFI_BLOCK_IO2_PROTOCOL *This, UINT32 MediaId,
					       EFI_LBA LBA, EFI_BLOCK_IO2_TOKEN *Token,
					       UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_FLUSH_EX)(EFI_BLOCK_IO2_PROTOCOL *This,
					       EFI_BLOCK_IO2_TOKEN *Token);

struct _EFI_BLOCK_IO2_PROTOCOL {
	EFI_BLOCK_IO_MEDIA *Media;
	EFI_BLOCK_RESET_EX Reset;
	EFI_BLOCK_READ_EX ReadBlocksEx;
	EFI_BLOCK_WRITE_EX WriteBlocksEx;
	EFI_BLOCK_FLUSH_EX FlushBlocksEx;
};

_Static_assert(sizeof(EFI_BLOCK_IO2_TOKEN) == 16, "EFI_BLOCK_IO2_TOKEN layout");
_Static_assert(sizeof(EFI_BLOCK_IO2_PROTOCOL) == 40, "EFI_BLOCK_IO2_PROTOCOL layout");

#endif
