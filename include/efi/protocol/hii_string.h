/* EFI_HII_STRING_PROTOCOL (UEFI 2.10, 34.2): strings of the HII database's string packages. */
#ifndef EFI_PROTOCOL_HII_STRING_H
#define EFI_PROTOCOL_HII_STRING_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/protocol/hii_package_list.h>

#define EFI_HII_STRING_PROTOCOL_GUID                                                               \
	EFI_GUID_INIT(0x0fd96974, 0x23aa, 0x4cdc, 0xb9, 0xcb, 0x98, 0xd1, 0x77, 0x50, 0x32, 0x2a)

typedef struct _EFI_HII_STRING_PROTOCOL EFI_HII_STRING_PROTOCOL;

struct _EFI_HII_STRING_PROTOCOL {
	EFI_STATUS(EFIAPI *NewString)
	(const EFI_HII_STRING_PROTOCOL *This, EFI_HII_HANDLE PackageList, EFI_STRING_ID *StringId,
	 const CHAR8 *Language, const CHAR16 *LanguageName, const EFI_STRING String,
	 const EFI_FONT_INFO *StringFontInfo);
	EFI_STATUS(EFIAPI *GetString)
	(const EFI_HII_STRING_PROTOCOL *This, const CHAR8 *Language, EFI_HII_HANDLE PackageList,
	 EFI_STRING_ID StringId, EFI_STRING String, UINTN *StringSize,
	 EFI_FONT_INFO **StringFontInfo);
	EFI_STATUS(EFIAPI *SetString)
	(const EFI_HII_STRING_PROTOCOL *This, EFI_HII_HANDLE PackageList, EFI_STRING_ID StringId,
	 const CHAR8 *Language, const EFI_STRING String, const EFI_FONT_INFO *StringFontInfo);
	EFI_STATUS(EFIAPI *GetLanguages)
	(const EFI_HII_STRING_PROTOCOL *This, EFI_HII_HANDLE PackageList, CHAR8 *Languages,
	 UINTN *LanguagesSize);
	EFI_STATUS(EFIAPI *GetSecondaryLanguages)
	(const EFI_HII_STRING_PROTOCOL *This, EFI_HII_HANDLE PackageList,
	 const CHAR8 *PrimaryLanguage, CHAR8 *SecondaryLanguages, UINTN *SecondaryLanguagesSize);
};
_Static_assert(sizeof(EFI_HII_STRING_PROTOCOL) == 40, "EFI_HII_STRING_PROTOCOL layout");

#endif
