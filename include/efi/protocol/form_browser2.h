/* EFI_FORM_BROWSER2_PROTOCOL (UEFI 2.10, 35.6): shows the forms of HII package lists and
 * lets the user change their questions. */
#ifndef EFI_PROTOCOL_FORM_BROWSER2_H
#define EFI_PROTOCOL_FORM_BROWSER2_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/hii_ifr.h>
#include <efi/protocol/hii_package_list.h>

#define EFI_FORM_BROWSER2_PROTOCOL_GUID                                                            \
	EFI_GUID_INIT(0xb9d4c360, 0xbcfb, 0x4f9b, 0x92, 0x98, 0x53, 0xc1, 0x36, 0x98, 0x22, 0x58)

/* The part of the screen the browser may use; all zero for the whole screen. */
typedef struct {
	UINTN LeftColumn;
	UINTN RightColumn;
	UINTN TopRow;
	UINTN BottomRow;
} EFI_SCREEN_DESCRIPTOR;

typedef UINTN EFI_BROWSER_ACTION_REQUEST;

#define EFI_BROWSER_ACTION_REQUEST_NONE 0
#define EFI_BROWSER_ACTION_REQUEST_RESET 1
#define EFI_BROWSER_ACTION_REQUEST_SUBMIT 2
#define EFI_BROWSER_ACTION_REQUEST_EXIT 3
#define EFI_BROWSER_ACTION_REQUEST_FORM_SUBMIT_EXIT 4
#define EFI_BROWSER_ACTION_REQUEST_FORM_DISCARD_EXIT 5
#define EFI_BROWSER_ACTION_REQUEST_FORM_APPLY 6
#define EFI_BROWSER_ACTION_REQUEST_FORM_DISCARD 7
#define EFI_BROWSER_ACTION_REQUEST_RECONNECT 8
#define EFI_BROWSER_ACTION_REQUEST_QUESTION_APPLY 9

typedef struct _EFI_FORM_BROWSER2_PROTOCOL EFI_FORM_BROWSER2_PROTOCOL;

struct _EFI_FORM_BROWSER2_PROTOCOL {
	EFI_STATUS(EFIAPI *SendForm)
	(const EFI_FORM_BROWSER2_PROTOCOL *This, EFI_HII_HANDLE *Handle, UINTN HandleCount,
	 EFI_GUID *FormSetGuid, EFI_FORM_ID FormId, const EFI_SCREEN_DESCRIPTOR *ScreenDimensions,
	 EFI_BROWSER_ACTION_REQUEST *ActionRequest);
	EFI_STATUS(EFIAPI *BrowserCallback)
	(const EFI_FORM_BROWSER2_PROTOCOL *This, UINTN *ResultsDataSize, EFI_STRING ResultsData,
	 BOOLEAN RetrieveData, const EFI_GUID *VariableGuid, const CHAR16 *VariableName);
};

#endif
