/* EFI_DRIVER_BINDING_PROTOCOL (UEFI 2.10, section 11.1). */
#ifndef EFI_PROTOCOL_DRIVER_BINDING_H
#define EFI_PROTOCOL_DRIVER_BINDING_H

#include <efi/status.h>
#include <efi/protocol/device_path.h>

#define EFI_DRIVER_BINDING_PROTOCOL_GUID                                                           \
	EFI_GUID_INIT(0x18a031ab, 0xb443, 0x4d1a, 0xa5, 0xc0, 0x0c, 0x09, 0x26, 0x1e, 0x9f, 0x71)

typedef struct _EFI_DRIVER_BINDING_PROTOCOL EFI_DRIVER_BINDING_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_DRIVER_BINDING_SUPPORTED)(
    EFI_DRIVER_BINDING_PROTOCOL *This, EFI_HANDLE ControllerHandle,
    EFI_DEVICE_PATH_PROTOCOL *RemainingDevicePath);
typedef EFI_STATUS(EFIAPI *EFI_DRIVER_BINDING_START)(EFI_DRIVER_BINDING_PROTOCOL *This,
						     EFI_HANDLE ControllerHandle,
						     EFI_DEVICE_PATH_PROTOCOL *RemainingDevicePath);
typedef EFI_STATUS(EFIAPI *EFI_DRIVER_BINDING_STOP)(EFI_DRIVER_BINDING_PROTOCOL *This,
						    EFI_HANDLE ControllerHandle,
						    UINTN NumberOfChildren,
						    EFI_HANDLE *ChildHandleBuffer);

struct _EFI_DRIVER_BINDING_PROTOCOL {
	EFI_DRIVER_BINDING_SUPPORTED Supported;
	EFI_DRIVER_BINDING_START Start;
	EFI_DRIVER_BINDING_STOP Stop;
	UINT32 Version;
	EFI_HANDLE ImageHandle;
	EFI_HANDLE DriverBindingHandle;
};

#endif
