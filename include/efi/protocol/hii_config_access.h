/* EFI_HII_CONFIG_ACCESS_PROTOCOL (UEFI 2.10, 35.5): a driver's configuration, read and
 * written as configuration strings, and its callback for the questions of its forms. */
#ifndef EFI_PROTOCOL_HII_CONFIG_ACCESS_H
#define EFI_PROTOCOL_HII_CONFIG_ACCESS_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/hii_ifr.h>
#include <efi/protocol/form_browser2.h>

#define EFI_HII_CONFIG_ACCESS_PROTOCOL_GUID                                                        \
	EFI_GUID_INIT(0x330d4706, 0xf2a0, 0x4e4f, 0xa3, 0x69, 0xb6, 0x6f, 0xa8, 0xd5, 0x43, 0x85)

typedef UINTN EFI_BROWSER_ACTION;

#define EFI_BROWSER_ACTION_CHANGING 0
#define EFI_BROWSER_ACTION_CHANGED 1
#define EFI_BROWSER_ACTION_RETRIEVE 2
#define EFI_BROWSER_ACTION_FORM_OPEN 3
#define EFI_BROWSER_ACTION_FORM_CLOSE 4
#define EFI_BROWSER_ACTION_SUBMITTED 5

typedef struct _EFI_HII_CONFIG_ACCESS_PROTOCOL EFI_HII_CONFIG_ACCESS_PROTOCOL;

struct _EFI_HII_CONFIG_ACCESS_PROTOCOL {
	EFI_STATUS(EFIAPI *ExtractConfig)
	(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This, const EFI_STRING Request, EFI_STRING *Progress,
	 EFI_STRING *Results);
	EFI_STATUS(EFIAPI *RouteConfig)
	(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This, const EFI_STRING Configuration,
	 EFI_STRING *Progress);
	EFI_STATUS(EFIAPI *Callback)
	(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This, EFI_BROWSER_ACTION Action,
	 EFI_QUESTION_ID QuestionId, UINT8 Type, EFI_IFR_TYPE_VALUE *Value,
	 EFI_BROWSER_ACTION_REQUEST *ActionRequest);
};

#endif
