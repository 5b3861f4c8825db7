/* EFI_DECOMPRESS_PROTOCOL (UEFI 2.10, 19.5): decompression of the UEFI compression
 * format (chapter 19) into the caller's buffers. */
#ifndef EFI_PROTOCOL_DECOMPRESS_H
#define EFI_PROTOCOL_DECOMPRESS_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_DECOMPRESS_PROTOCOL_GUID                                                               \
	EFI_GUID_INIT(0xd8117cfe, 0x94a6, 0x11d4, 0x9a, 0x3a, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)

typedef struct _EFI_DECOMPRESS_PROTOCOL EFI_DECOMPRESS_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_DECOMPRESS_GET_INFO)(EFI_DECOMPRESS_PROTOCOL *This, VOID *Source,
						    UINT32 SourceSize, UINT32 *DestinationSize,
						    UINT32 *ScratchSize);
typedef EFI_STATUS(EFIAPI *EFI_DECOMPRESS_DECOMPRESS)(EFI_DECOMPRESS_PROTOCOL *This, VOID *Source,
						      UINT32 SourceSize, VOID *Destination,
						      UINT32 DestinationSize, VOID *Scratch,
						      UINT32 ScratchSize);

struct _EFI_DECOMPRESS_PROTOCOL {
	EFI_DECOMPRESS_GET_INFO GetInfo;
	EFI_DECOMPRESS_DECOMPRESS Decompress;
};
_Static_assert(sizeof(EFI_DECOMPRESS_PROTOCOL) == 16, "EFI_DECOMPRESS_PROTOCOL layout");

#endif
