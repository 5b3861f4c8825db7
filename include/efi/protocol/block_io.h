/* EFI_BLOCK_IO_PROTOCOL and EFI_BLOCK_IO_MEDIA (UEFI 2.10, section 13.9). */
#ifndef EFI_PROTOCOL_BLOCK_IO_H
#define EFI_PROTOCOL_BLOCK_IO_H

#include <efi/status.h>

#define EFI_BLOCK_IO_PROTOCOL_GUID                                                                 \
	EFI_GUID_INIT(0x964e5b21, 0x6459, 0x11d2, 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b)

#define EFI_BLOCK_IO_PROTOCOL_REVISION2 0x00020001
#define EFI_BLOCK_IO_PROTOCOL_REVISION3 ((2 << 16) | (31))

typedef struct _EFI_BLOCK_IO_PROTOCOL EFI_BLOCK_IO_PROTOCOL;

typedef struct {
	UINT32 MediaId;
	BOOLEAN RemovableMedia;
	BOOLEAN MediaPresent;
	BOOLEAN LogicalPartition;
	BOOLEAN ReadOnly;
	BOOLEAN WriteCaching;
	UINT32 BlockSize;
	UINT32 IoAlign;
	EFI_LBA LastBlock;
	/* Revision 2 and later */
	EFI_LBA LowestAlignedLba;
	UINT32 LogicalBlocksPerPhysicalBlock;
	/* Revision 3 and later */
	UINT32 OptimalTransferLengthGranularity;
} EFI_BLOCK_IO_MEDIA;

typedef EFI_STATUS(EFIAPI *EFI_BLOCK_RESET)(EFI_BLOCK_IO_PROTOCOL *This,
					    BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_READ)(EFI_BLOCK_IO_PROTOCOL *This, UINT32 MediaId, EFI_LBA LBA,
					   UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_WRITE)(EFI_BLOCK_IO_PROTOCOL *This, UINT32 MediaId,
					    EFI_LBA LBA, UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_FLUSH)(EFI_BLOCK_IO_PROTOCOL *This);

struct _EFI_BLOCK_IO_PROTOCOL {
	UINT64 Revision;
	EFI_BLOCK_IO_MEDIA *Media;
	EFI_BLOCK_RESET Reset;
	EFI_BLOCK_READ ReadBlocks;
	EFI_BLOCK_WRITE WriteBlocks;
	EFI_BLOCK_FLUSH FlushBlocks;
};

_Static_assert(sizeof(EFI_BLOCK_IO_MEDIA) == 48, "EFI_BLOCK_IO_MEDIA layout");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, BlockSize) == 12, "EFI_BLOCK_IO_MEDIA layout");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, LastBlock) == 24, "EFI_BLOCK_IO_MEDIA layout");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, OptimalTransferLengthGranularity) == 44,
	       "EFI_BLOCK_IO_MEDIA layout");
_Static_assert(sizeof(EFI_BLOCK_IO_PROTOCOL) == 48, "EFI_BLOCK_IO_PROTOCOL layout");

#endif
