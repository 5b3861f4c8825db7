/* EMBER_VARIABLE_OWNER_PROTOCOL: how the firmware's own setup screen writes Secure Boot's
 * keys (PK, KEK, db, dbx, dbt) without a signature, as the platform owner at the console
 * (UEFI 2.10 32.3 leaves the owner's physically present way to the platform; EDK2 calls
 * its way "custom mode"). docs/setup-settings.md says why this cannot serve any other program:
 *  - the boot manager (or ember-run --firmware-ui) puts it only on the image handle of the
 *    firmware's own setup program, loaded from the firmware, before starting it, and takes
 *    it away when that program returns;
 *  - each call is refused (EFI_ACCESS_DENIED) unless that image is the one running now
 *    (not a program it started), no application from outside the firmware has been
 *    started since the machine was reset, and ExitBootServices has not happened.
 * Values are the variables' whole data (chains of EFI_SIGNATURE_LISTs, checked as an
 * authenticated write's payload is), stamped with the current time; DataSize 0 deletes
 * (PK: back to Setup Mode). */
#ifndef EMBER_VARIABLE_OWNER_H
#define EMBER_VARIABLE_OWNER_H

#include <efi/types.h>

#define EMBER_VARIABLE_OWNER_PROTOCOL_GUID                                                         \
	EFI_GUID_INIT(0x3b0c5e7d, 0x91a4, 0x4f26, 0xb8, 0x3e, 0x6d, 0x21, 0xf0, 0x4a, 0x95, 0xc7)

#define EMBER_VARIABLE_OWNER_REVISION 0x00010000

typedef struct _EMBER_VARIABLE_OWNER_PROTOCOL EMBER_VARIABLE_OWNER_PROTOCOL;

/* Writes PK or KEK (EFI_GLOBAL_VARIABLE) or db, dbx, dbt (EFI_IMAGE_SECURITY_DATABASE) as
 * the owner. Attributes: NV+BS+RT+TIME_BASED_AUTHENTICATED_WRITE_ACCESS, with APPEND_WRITE
 * to merge (not for PK). Other variables or attributes: EFI_INVALID_PARAMETER. */
typedef EFI_STATUS(EFIAPI *EMBER_VARIABLE_OWNER_SET_KEY)(EMBER_VARIABLE_OWNER_PROTOCOL *This,
							 CONST CHAR16 *VariableName,
							 CONST EFI_GUID *VendorGuid,
							 UINT32 Attributes, UINTN DataSize,
							 CONST VOID *Data);
/* EFI_SUCCESS when SetKey would be accepted now, EFI_ACCESS_DENIED (and why not) else. */
typedef EFI_STATUS(EFIAPI *EMBER_VARIABLE_OWNER_USABLE)(EMBER_VARIABLE_OWNER_PROTOCOL *This);

struct _EMBER_VARIABLE_OWNER_PROTOCOL {
	UINT32 Revision;
	EMBER_VARIABLE_OWNER_SET_KEY SetKey;
	EMBER_VARIABLE_OWNER_USABLE Usable;
};

#endif
