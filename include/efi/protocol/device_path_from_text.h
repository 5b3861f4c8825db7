/* EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL (UEFI 2.10, section 10.6.3). */
#ifndef EFI_PROTOCOL_DEVICE_PATH_FROM_TEXT_H
#define EFI_PROTOCOL_DEVICE_PATH_FROM_TEXT_H

#include <efi/protocol/device_path.h>

#define EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL_GUID                                                    \
	EFI_GUID_INIT(0x05c99a21, 0xc70f, 0x4ad2, 0x8a, 0x5f, 0x35, 0xdf, 0x33, 0x43, 0xf5, 0x1e)

typedef EFI_DEVICE_PATH_PROTOCOL *(EFIAPI *EFI_DEVICE_PATH_FROM_TEXT_NODE)(
    CONST CHAR16 *TextDeviceNode);
typedef EFI_DEVICE_PATH_PROTOCOL *(EFIAPI *EFI_DEVICE_PATH_FROM_TEXT_PATH)(
    CONST CHAR16 *TextDevicePath);

typedef struct {
	EFI_DEVICE_PATH_FROM_TEXT_NODE ConvertTextToDeviceNode;
	EFI_DEVICE_PATH_FROM_TEXT_PATH ConvertTextToDevicePath;
} EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL;

#endif
