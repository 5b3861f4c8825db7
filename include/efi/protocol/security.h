/* EFI_SECURITY_ARCH_PROTOCOL and EFI_SECURITY2_ARCH_PROTOCOL (PI 1.8 volume 2, 12.8 and
 * 12.9): the checks the DXE core asks of a platform's security policy before LoadImage
 * places an image. Loaders such as shim and systemd-stub reinstall or hook them. */
#ifndef EFI_PROTOCOL_SECURITY_H
#define EFI_PROTOCOL_SECURITY_H

#include <efi/status.h>
#include <efi/protocol/device_path.h>

#define EFI_SECURITY_ARCH_PROTOCOL_GUID                                                            \
	EFI_GUID_INIT(0xa46423e3, 0x4617, 0x49f1, 0xb9, 0xff, 0xd1, 0xbf, 0xa9, 0x11, 0x58, 0x39)
#define EFI_SECURITY2_ARCH_PROTOCOL_GUID                                                           \
	EFI_GUID_INIT(0x94ab2f58, 0x1438, 0x4ef1, 0x91, 0x52, 0x18, 0x94, 0x1a, 0x3a, 0x0e, 0x68)

typedef struct _EFI_SECURITY_ARCH_PROTOCOL EFI_SECURITY_ARCH_PROTOCOL;
typedef struct _EFI_SECURITY2_ARCH_PROTOCOL EFI_SECURITY2_ARCH_PROTOCOL;

/* Whether a file whose authentication status (from its firmware-volume section) is
 * AuthenticationStatus may be used. */
typedef EFI_STATUS(EFIAPI *EFI_SECURITY_FILE_AUTHENTICATION_STATE)(
    const EFI_SECURITY_ARCH_PROTOCOL *This, UINT32 AuthenticationStatus,
    const EFI_DEVICE_PATH_PROTOCOL *File);

struct _EFI_SECURITY_ARCH_PROTOCOL {
	EFI_SECURITY_FILE_AUTHENTICATION_STATE FileAuthenticationState;
};

/* Whether the file (its device path and, when read, its bytes) may be used: EFI_SUCCESS,
 * EFI_SECURITY_VIOLATION (may be loaded, not started), EFI_ACCESS_DENIED (never). */
typedef EFI_STATUS(EFIAPI *EFI_SECURITY2_FILE_AUTHENTICATION)(
    const EFI_SECURITY2_ARCH_PROTOCOL *This, const EFI_DEVICE_PATH_PROTOCOL *File, VOID *FileBuffer,
    UINTN FileSize, BOOLEAN BootPolicy);

struct _EFI_SECURITY2_ARCH_PROTOCOL {
	EFI_SECURITY2_FILE_AUTHENTICATION FileAuthentication;
};

#endif
