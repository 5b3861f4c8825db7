/* ACPI structures the firmware hands over (ACPI 6.5 chapter 5) and the UEFI configuration
 * table GUIDs that point at the RSDP (UEFI 2.10, section 4.6). */
#ifndef EFI_ACPI_H
#define EFI_ACPI_H

#include <efi/types.h>

/* ACPI 2.0 and later */
#define EFI_ACPI_TABLE_GUID                                                                        \
	EFI_GUID_INIT(0x8868e871, 0xe4f1, 0x11d3, 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81)
/* ACPI 1.0 */
#define ACPI_TABLE_GUID                                                                            \
	EFI_GUID_INIT(0xeb9d2d30, 0x2d88, 0x11d3, 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)

#define EFI_ACPI_RSDP_SIGNATURE "RSD PTR "
#define EFI_ACPI_RSDP_REVISION_1 0 /* 20 bytes, RSDT only */
#define EFI_ACPI_RSDP_REVISION_2 2 /* 36 bytes, with XSDT */
#define EFI_ACPI_RSDP_V1_SIZE 20

#pragma pack(push, 1)
/* Root System Description Pointer (5.2.5.3); revision 0 ends after RsdtAddress. */
typedef struct {
	UINT8 Signature[8];
	UINT8 Checksum; /* over the first 20 bytes */
	UINT8 OemId[6];
	UINT8 Revision;
	UINT32 RsdtAddress;
	UINT32 Length;
	UINT64 XsdtAddress;
	UINT8 ExtendedChecksum; /* over all Length bytes */
	UINT8 Reserved[3];
} EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER;

/* System Description Table Header (5.2.6), which every table but the FACS starts with. */
typedef struct {
	UINT8 Signature[4];
	UINT32 Length;
	UINT8 Revision;
	UINT8 Checksum;
	UINT8 OemId[6];
	UINT8 OemTableId[8];
	UINT32 OemRevision;
	UINT32 CreatorId;
	UINT32 CreatorRevision;
} EFI_ACPI_DESCRIPTION_HEADER;

/* Generic Address Structure (5.2.3.2). */
typedef struct {
	UINT8 AddressSpaceId; /* 0 memory, 1 system I/O */
	UINT8 RegisterBitWidth;
	UINT8 RegisterBitOffset;
	UINT8 AccessSize;
	UINT64 Address;
} EFI_ACPI_GENERIC_ADDRESS_STRUCTURE;

/* Boot Graphics Resource Table: the image the firmware drew during boot, which an
 * OS keeps on screen; the image lies in EfiBootServicesData and the OS copies it. */
typedef struct {
	EFI_ACPI_DESCRIPTION_HEADER Header;
	UINT16 Version; /* 1 */
	UINT8 Status;	/* bit 0: displayed; bits 1-2: orientation offset */
	UINT8 ImageType;
	UINT64 ImageAddress;
	UINT32 ImageOffsetX; /* upper-left corner on the screen */
	UINT32 ImageOffsetY;
} EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE;
#pragma pack(pop)

/* FADT fields by offset (5.2.9), for readers that must not assume a revision's length. */
#define EFI_ACPI_FADT_FIRMWARE_CTRL_OFFSET 36
#define EFI_ACPI_FADT_DSDT_OFFSET 40
#define EFI_ACPI_FADT_SCI_INT_OFFSET 46
#define EFI_ACPI_FADT_PM1A_EVT_BLK_OFFSET 56
#define EFI_ACPI_FADT_PM1A_CNT_BLK_OFFSET 64
#define EFI_ACPI_FADT_PM_TMR_BLK_OFFSET 76
#define EFI_ACPI_FADT_X_FIRMWARE_CTRL_OFFSET 132
#define EFI_ACPI_FADT_X_DSDT_OFFSET 140

/* Table signatures */
#define EFI_ACPI_RSDT_SIGNATURE "RSDT"
#define EFI_ACPI_XSDT_SIGNATURE "XSDT"
#define EFI_ACPI_FADT_SIGNATURE "FACP"
#define EFI_ACPI_FACS_SIGNATURE "FACS"
#define EFI_ACPI_DSDT_SIGNATURE "DSDT"
#define EFI_ACPI_MADT_SIGNATURE "APIC"
#define EFI_ACPI_MCFG_SIGNATURE "MCFG"
#define EFI_ACPI_BGRT_SIGNATURE "BGRT"

#define EFI_ACPI_RSDT_REVISION 1
#define EFI_ACPI_BGRT_REVISION 1
#define EFI_ACPI_BGRT_VERSION 1
#define EFI_ACPI_BGRT_STATUS_DISPLAYED 0x01
#define EFI_ACPI_BGRT_IMAGE_TYPE_BMP 0

#define EFI_ACPI_XSDT_REVISION 1

_Static_assert(sizeof(EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER) == 36, "RSDP layout");
_Static_assert(offsetof(EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER, Length) == 20, "RSDP layout");
_Static_assert(sizeof(EFI_ACPI_DESCRIPTION_HEADER) == 36, "ACPI header layout");
_Static_assert(sizeof(EFI_ACPI_GENERIC_ADDRESS_STRUCTURE) == 12, "GAS layout");
_Static_assert(sizeof(EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE) == 56, "BGRT layout");

#endif
