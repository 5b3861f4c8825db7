/* EFI_RESET_NOTIFICATION_PROTOCOL (UEFI 2.10, section 8.5.1): functions called when
 * ResetSystem runs before ExitBootServices, ahead of the reset. */
#ifndef EFI_PROTOCOL_RESET_NOTIFICATION_H
#define EFI_PROTOCOL_RESET_NOTIFICATION_H

#include <efi/runtime_services.h>

#define EFI_RESET_NOTIFICATION_PROTOCOL_GUID                                                       \
	EFI_GUID_INIT(0x9da34ae0, 0xeaf9, 0x4bbf, 0x8e, 0xc3, 0xfd, 0x60, 0x22, 0x6c, 0x44, 0xbe)

typedef struct _EFI_RESET_NOTIFICATION_PROTOCOL EFI_RESET_NOTIFICATION_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_REGISTER_RESET_NOTIFY)(EFI_RESET_NOTIFICATION_PROTOCOL *This,
						      EFI_RESET_SYSTEM ResetFunction);
typedef EFI_STATUS(EFIAPI *EFI_UNREGISTER_RESET_NOTIFY)(EFI_RESET_NOTIFICATION_PROTOCOL *This,
							EFI_RESET_SYSTEM ResetFunction);

struct _EFI_RESET_NOTIFICATION_PROTOCOL {
	EFI_REGISTER_RESET_NOTIFY RegisterResetNotify;
	EFI_UNREGISTER_RESET_NOTIFY UnregisterResetNotify;
};
_Static_assert(sizeof(EFI_RESET_NOTIFICATION_PROTOCOL) == 16,
	       "EFI_RESET_NOTIFICATION_PROTOCOL layout");

#endif
