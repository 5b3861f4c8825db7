/* EFI_UNICODE_COLLATION_PROTOCOL (UEFI 2.10, section 19.1): case-insensitive comparison,
 * wildcard matching, case conversion and FAT 8.3 name conversion for one language.
 * EFI_UNICODE_COLLATION_PROTOCOL2 takes RFC 4646 language tags ("en"); the original
 * protocol, with the same interface, took ISO 639-2 codes ("eng"). */
#ifndef EFI_PROTOCOL_UNICODE_COLLATION_H
#define EFI_PROTOCOL_UNICODE_COLLATION_H

#include <efi/types.h>

#define EFI_UNICODE_COLLATION_PROTOCOL2_GUID                                                       \
	EFI_GUID_INIT(0xa4c751fc, 0x23ae, 0x4c3e, 0x92, 0xe9, 0x49, 0x64, 0xcf, 0x63, 0xf3, 0x49)
/* The EFI 1.10 protocol (ISO 639-2 language codes), still looked for by old drivers. */
#define EFI_UNICODE_COLLATION_PROTOCOL_GUID                                                        \
	EFI_GUID_INIT(0x1d85cd7f, 0xf43d, 0x11d2, 0x9a, 0x0c, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)

typedef struct _EFI_UNICODE_COLLATION_PROTOCOL EFI_UNICODE_COLLATION_PROTOCOL;

typedef INTN(EFIAPI *EFI_UNICODE_COLLATION_STRICOLL)(EFI_UNICODE_COLLATION_PROTOCOL *This,
						     CHAR16 *s1, CHAR16 *s2);
typedef BOOLEAN(EFIAPI *EFI_UNICODE_COLLATION_METAIMATCH)(EFI_UNICODE_COLLATION_PROTOCOL *This,
							  CHAR16 *String, CHAR16 *Pattern);
typedef VOID(EFIAPI *EFI_UNICODE_COLLATION_STRLWR)(EFI_UNICODE_COLLATION_PROTOCOL *This,
						   CHAR16 *Str);
typedef VOID(EFIAPI *EFI_UNICODE_COLLATION_STRUPR)(EFI_UNICODE_COLLATION_PROTOCOL *This,
						   CHAR16 *Str);
typedef VOID(EFIAPI *EFI_UNICODE_COLLATION_FATTOSTR)(EFI_UNICODE_COLLATION_PROTOCOL *This,
						     UINTN FatSize, CHAR8 *Fat, CHAR16 *String);
typedef BOOLEAN(EFIAPI *EFI_UNICODE_COLLATION_STRTOFAT)(EFI_UNICODE_COLLATION_PROTOCOL *This,
							CHAR16 *String, UINTN FatSize, CHAR8 *Fat);

struct _EFI_UNICODE_COLLATION_PROTOCOL {
	EFI_UNICODE_COLLATION_STRICOLL StriColl;
	EFI_UNICODE_COLLATION_METAIMATCH MetaiMatch;
	EFI_UNICODE_COLLATION_STRLWR StrLwr;
	EFI_UNICODE_COLLATION_STRUPR StrUpr;
	EFI_UNICODE_COLLATION_FATTOSTR FatToStr;
	EFI_UNICODE_COLLATION_STRTOFAT StrToFat;
	CHAR8 *SupportedLanguages;
};

_Static_assert(sizeof(EFI_UNICODE_COLLATION_PROTOCOL) == 56, "EFI_UNICODE_COLLATION layout");

#endif
