/* SMBIOS entry points (DMTF DSP0134 3.7, section 5.2) and the UEFI configuration table GUIDs
 * that point at them (UEFI 2.10, section 4.6). */
#ifndef EFI_SMBIOS_H
#define EFI_SMBIOS_H

#include <efi/types.h>

/* 2.x entry point ("_SM_") */
#define SMBIOS_TABLE_GUID                                                                          \
	EFI_GUID_INIT(0xeb9d2d31, 0x2d88, 0x11d3, 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)
/* 3.x entry point ("_SM3_") */
#define SMBIOS3_TABLE_GUID                                                                         \
	EFI_GUID_INIT(0xf2fd1544, 0x9794, 0x4a2c, 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94)

#pragma pack(push, 1)
/* 32-bit entry point (5.2.1). */
typedef struct {
	UINT8 AnchorString[4]; /* "_SM_" */
	UINT8 EntryPointStructureChecksum;
	UINT8 EntryPointLength; /* 0x1F */
	UINT8 MajorVersion;
	UINT8 MinorVersion;
	UINT16 MaxStructureSize;
	UINT8 EntryPointRevision;
	UINT8 FormattedArea[5];
	UINT8 IntermediateAnchorString[5]; /* "_DMI_" */
	UINT8 IntermediateChecksum;	   /* over the 15 bytes from the intermediate anchor */
	UINT16 TableLength;
	UINT32 TableAddress;
	UINT16 NumberOfSmbiosStructures;
	UINT8 SmbiosBcdRevision;
} SMBIOS_TABLE_ENTRY_POINT;

/* 64-bit entry point (5.2.2). */
typedef struct {
	UINT8 AnchorString[5]; /* "_SM3_" */
	UINT8 EntryPointStructureChecksum;
	UINT8 EntryPointLength; /* 0x18 */
	UINT8 MajorVersion;
	UINT8 MinorVersion;
	UINT8 DocRev;
	UINT8 EntryPointRevision; /* 1 */
	UINT8 Reserved;
	UINT32 TableMaximumSize;
	UINT64 TableAddress;
} SMBIOS_TABLE_3_0_ENTRY_POINT;

/* Every structure starts with this header; its strings follow, ended by a double NUL. */
typedef struct {
	UINT8 Type;
	UINT8 Length;
	UINT16 Handle;
} SMBIOS_STRUCTURE;
#pragma pack(pop)

#define SMBIOS_TYPE_END_OF_TABLE 127

_Static_assert(sizeof(SMBIOS_TABLE_ENTRY_POINT) == 0x1f, "SMBIOS 2.x entry point layout");
_Static_assert(offsetof(SMBIOS_TABLE_ENTRY_POINT, TableAddress) == 0x18, "SMBIOS 2.x layout");
_Static_assert(sizeof(SMBIOS_TABLE_3_0_ENTRY_POINT) == 0x18, "SMBIOS 3.0 entry point layout");
_Static_assert(offsetof(SMBIOS_TABLE_3_0_ENTRY_POINT, TableAddress) == 0x10, "SMBIOS 3 layout");

#endif
