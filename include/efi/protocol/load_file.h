/* EFI_LOAD_FILE_PROTOCOL and EFI_LOAD_FILE2_PROTOCOL (UEFI 2.10, sections 13.1 and 13.2).
 * Both have the same shape; LoadFile2 is never used for boot-policy loads. */
#ifndef EFI_PROTOCOL_LOAD_FILE_H
#define EFI_PROTOCOL_LOAD_FILE_H

#include <efi/status.h>
#include <efi/protocol/device_path.h>

#define EFI_LOAD_FILE_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0x56ec3091, 0x954c, 0x11d2, 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b)
#define EFI_LOAD_FILE2_PROTOCOL_GUID                                                               \
	EFI_GUID_INIT(0x4006c0c1, 0xfcb3, 0x403e, 0x99, 0x6d, 0x4a, 0x6c, 0x87, 0x24, 0xe0, 0x6d)

typedef struct _EFI_LOAD_FILE_PROTOCOL EFI_LOAD_FILE_PROTOCOL;
typedef EFI_LOAD_FILE_PROTOCOL EFI_LOAD_FILE2_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_LOAD_FILE)(EFI_LOAD_FILE_PROTOCOL *This,
					  EFI_DEVICE_PATH_PROTOCOL *FilePath, BOOLEAN BootPolicy,
					  UINTN *BufferSize, VOID *Buffer);

struct _EFI_LOAD_FILE_PROTOCOL {
	EFI_LOAD_FILE LoadFile;
};

#endif
