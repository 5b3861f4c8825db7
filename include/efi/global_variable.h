/* Globally defined variables and the structures they hold (UEFI 2.10): the load options
 * of Boot####/Driver####/SysPrep#### (3.1.3), key options (3.1.6), the boot manager's
 * capabilities (3.1.4), hardware error records (appendix P) and the image security
 * databases' GUID (32.6.1). The variables themselves use EFI_GLOBAL_VARIABLE
 * (efi/runtime_services.h). */
#ifndef EFI_GLOBAL_VARIABLE_H
#define EFI_GLOBAL_VARIABLE_H

#include <efi/types.h>

/* EFI_LOAD_OPTION: UINT32 Attributes; UINT16 FilePathListLength; CHAR16 Description[]
 * (terminated); EFI_DEVICE_PATH_PROTOCOL FilePathList[]; UINT8 OptionalData[]. Packed,
 * so only its fixed head is a structure. */
typedef struct __attribute__((packed)) {
	UINT32 Attributes;
	UINT16 FilePathListLength;
} EFI_LOAD_OPTION_HEAD;
_Static_assert(sizeof(EFI_LOAD_OPTION_HEAD) == 6, "EFI_LOAD_OPTION layout");

#define LOAD_OPTION_ACTIVE 0x00000001
#define LOAD_OPTION_FORCE_RECONNECT 0x00000002
#define LOAD_OPTION_HIDDEN 0x00000008
#define LOAD_OPTION_CATEGORY 0x00001F00
#define LOAD_OPTION_CATEGORY_BOOT 0x00000000
#define LOAD_OPTION_CATEGORY_APP 0x00000100

/* BootOptionSupport */
#define EFI_BOOT_OPTION_SUPPORT_KEY 0x00000001
#define EFI_BOOT_OPTION_SUPPORT_APP 0x00000002
#define EFI_BOOT_OPTION_SUPPORT_SYSPREP 0x00000010
#define EFI_BOOT_OPTION_SUPPORT_COUNT 0x00000300

/* EFI_KEY_OPTION (Key####): then InputKeyCount EFI_INPUT_KEYs of 4 bytes each. */
typedef struct __attribute__((packed)) {
	UINT32 KeyData; /* EFI_BOOT_KEY_DATA: InputKeyCount in bits 30-31 */
	UINT32 BootOptionCrc;
	UINT16 BootOption;
} EFI_KEY_OPTION;
_Static_assert(sizeof(EFI_KEY_OPTION) == 10, "EFI_KEY_OPTION layout");
#define EFI_KEY_OPTION_INPUT_KEY_COUNT(key_data) (((key_data) >> 30) & 3)

/* Hardware error records: HwErrRec#### under this GUID, NV+BS+RT+HR (appendix P). */
#define EFI_HARDWARE_ERROR_VARIABLE                                                                \
	EFI_GUID_INIT(0x414e6bdd, 0xe47b, 0x47cc, 0xb2, 0x44, 0xbb, 0x61, 0x02, 0x0c, 0xf5, 0x16)

/* db, dbx, dbt, dbr (the image security databases). */
#define EFI_IMAGE_SECURITY_DATABASE_GUID                                                           \
	EFI_GUID_INIT(0xd719b2cb, 0x3d3a, 0x4596, 0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f)

#endif
