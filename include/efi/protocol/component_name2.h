/* EFI_COMPONENT_NAME2_PROTOCOL (UEFI 2.10, section 11.5). */
#ifndef EFI_PROTOCOL_COMPONENT_NAME2_H
#define EFI_PROTOCOL_COMPONENT_NAME2_H

#include <efi/status.h>

#define EFI_COMPONENT_NAME2_PROTOCOL_GUID                                                          \
	EFI_GUID_INIT(0x6a7a5cff, 0xe8d9, 0x4f70, 0xba, 0xda, 0x75, 0xab, 0x30, 0x25, 0xce, 0x14)

typedef struct _EFI_COMPONENT_NAME2_PROTOCOL EFI_COMPONENT_NAME2_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_COMPONENT_NAME2_GET_DRIVER_NAME)(EFI_COMPONENT_NAME2_PROTOCOL *This,
								CHAR8 *Language,
								CHAR16 **DriverName);
typedef EFI_STATUS(EFIAPI *EFI_COMPONENT_NAME2_GET_CONTROLLER_NAME)(
    EFI_COMPONENT_NAME2_PROTOCOL *This, EFI_HANDLE ControllerHandle, EFI_HANDLE ChildHandle,
    CHAR8 *Language, CHAR16 **ControllerName);

struct _EFI_COMPONENT_NAME2_PROTOCOL {
	EFI_COMPONENT_NAME2_GET_DRIVER_NAME GetDriverName;
	EFI_COMPONENT_NAME2_GET_CONTROLLER_NAME GetControllerName;
	CHAR8 *SupportedLanguages; /* RFC 4646, semicolon-separated */
};

#endif
