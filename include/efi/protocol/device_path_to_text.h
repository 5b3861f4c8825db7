/* EFI_DEVICE_PATH_TO_TEXT_PROTOCOL (UEFI 2.10, section 10.6.2). */
#ifndef EFI_PROTOCOL_DEVICE_PATH_TO_TEXT_H
#define EFI_PROTOCOL_DEVICE_PATH_TO_TEXT_H

#include <efi/protocol/device_path.h>

#define EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID                                                      \
	EFI_GUID_INIT(0x8b843e20, 0x8132, 0x4852, 0x90, 0xcc, 0x55, 0x1a, 0x4e, 0x4a, 0x7f, 0x1c)

typedef CHAR16 *(EFIAPI *EFI_DEVICE_PATH_TO_TEXT_NODE)(CONST EFI_DEVICE_PATH_PROTOCOL *DeviceNode,
						       BOOLEAN DisplayOnly, BOOLEAN AllowShortcuts);
typedef CHAR16 *(EFIAPI *EFI_DEVICE_PATH_TO_TEXT_PATH)(CONST EFI_DEVICE_PATH_PROTOCOL *DevicePath,
						       BOOLEAN DisplayOnly, BOOLEAN AllowShortcuts);

typedef struct {
	EFI_DEVICE_PATH_TO_TEXT_NODE ConvertDeviceNodeToText;
	EFI_DEVICE_PATH_TO_TEXT_PATH ConvertDevicePathToText;
} EFI_DEVICE_PATH_TO_TEXT_PROTOCOL;

#endif
