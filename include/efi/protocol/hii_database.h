/* EFI_HII_DATABASE_PROTOCOL (UEFI 2.10, 34.8): the firmware's store of HII package lists. */
#ifndef EFI_PROTOCOL_HII_DATABASE_H
#define EFI_PROTOCOL_HII_DATABASE_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/protocol/hii_package_list.h>

#define EFI_HII_DATABASE_PROTOCOL_GUID                                                             \
	EFI_GUID_INIT(0xef9fc172, 0xa1b2, 0x4693, 0xb3, 0x27, 0x6d, 0x32, 0xfc, 0x41, 0x60, 0x42)
/* Signalled when SetKeyboardLayout changes the current layout (34.8.1). */
#define EFI_HII_SET_KEYBOARD_LAYOUT_EVENT_GUID                                                     \
	EFI_GUID_INIT(0x14982a4f, 0xb0ed, 0x45b8, 0xa8, 0x11, 0x5a, 0x7a, 0x9b, 0xc2, 0x32, 0xdf)

typedef UINTN EFI_HII_DATABASE_NOTIFY_TYPE;
#define EFI_HII_DATABASE_NOTIFY_NEW_PACK 0x00000001
#define EFI_HII_DATABASE_NOTIFY_REMOVE_PACK 0x00000002
#define EFI_HII_DATABASE_NOTIFY_EXPORT_PACK 0x00000004
#define EFI_HII_DATABASE_NOTIFY_ADD_PACK 0x00000008

typedef struct _EFI_HII_DATABASE_PROTOCOL EFI_HII_DATABASE_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_HII_DATABASE_NOTIFY)(UINT8 PackageType, const EFI_GUID *PackageGuid,
						    const EFI_HII_PACKAGE_HEADER *Package,
						    EFI_HII_HANDLE Handle,
						    EFI_HII_DATABASE_NOTIFY_TYPE NotifyType);

struct _EFI_HII_DATABASE_PROTOCOL {
	EFI_STATUS(EFIAPI *NewPackageList)
	(const EFI_HII_DATABASE_PROTOCOL *This, const EFI_HII_PACKAGE_LIST_HEADER *PackageList,
	 EFI_HANDLE DriverHandle, EFI_HII_HANDLE *Handle);
	EFI_STATUS(EFIAPI *RemovePackageList)
	(const EFI_HII_DATABASE_PROTOCOL *This, EFI_HII_HANDLE Handle);
	EFI_STATUS(EFIAPI *UpdatePackageList)
	(const EFI_HII_DATABASE_PROTOCOL *This, EFI_HII_HANDLE Handle,
	 const EFI_HII_PACKAGE_LIST_HEADER *PackageList);
	EFI_STATUS(EFIAPI *ListPackageLists)
	(const EFI_HII_DATABASE_PROTOCOL *This, UINT8 PackageType, const EFI_GUID *PackageGuid,
	 UINTN *HandleBufferLength, EFI_HII_HANDLE *Handle);
	EFI_STATUS(EFIAPI *ExportPackageLists)
	(const EFI_HII_DATABASE_PROTOCOL *This, EFI_HII_HANDLE Handle, UINTN *BufferSize,
	 EFI_HII_PACKAGE_LIST_HEADER *Buffer);
	EFI_STATUS(EFIAPI *RegisterPackageNotify)
	(const EFI_HII_DATABASE_PROTOCOL *This, UINT8 PackageType, const EFI_GUID *PackageGuid,
	 EFI_HII_DATABASE_NOTIFY PackageNotifyFn, EFI_HII_DATABASE_NOTIFY_TYPE NotifyType,
	 EFI_HANDLE *NotifyHandle);
	EFI_STATUS(EFIAPI *UnregisterPackageNotify)
	(const EFI_HII_DATABASE_PROTOCOL *This, EFI_HANDLE NotificationHandle);
	EFI_STATUS(EFIAPI *FindKeyboardLayouts)
	(const EFI_HII_DATABASE_PROTOCOL *This, UINT16 *KeyGuidBufferLength,
	 EFI_GUID *KeyGuidBuffer);
	EFI_STATUS(EFIAPI *GetKeyboardLayout)
	(const EFI_HII_DATABASE_PROTOCOL *This, const EFI_GUID *KeyGuid,
	 UINT16 *KeyboardLayoutLength, EFI_HII_KEYBOARD_LAYOUT *KeyboardLayout);
	EFI_STATUS(EFIAPI *SetKeyboardLayout)
	(const EFI_HII_DATABASE_PROTOCOL *This, const EFI_GUID *KeyGuid);
	EFI_STATUS(EFIAPI *GetPackageListHandle)
	(const EFI_HII_DATABASE_PROTOCOL *This, EFI_HII_HANDLE PackageListHandle,
	 EFI_HANDLE *DriverHandle);
};
_Static_assert(sizeof(EFI_HII_DATABASE_PROTOCOL) == 88, "EFI_HII_DATABASE_PROTOCOL layout");

#endif
