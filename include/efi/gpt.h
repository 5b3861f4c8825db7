/* On-disk partitioning structures: the legacy MBR (UEFI 2.10, section 5.2) and the GUID
 * Partition Table (section 5.3). Packed: they are read straight from disk sectors. All
 * multi-byte fields are little-endian; the MBR's LBA fields are byte arrays because they
 * are not aligned. */
#ifndef EFI_GPT_H
#define EFI_GPT_H

#include <efi/types.h>

/* ---- Legacy MBR (5.2.1) ---- */

#define MBR_SIGNATURE 0xaa55
#define MAX_MBR_PARTITIONS 4

/* OSType values UEFI gives meaning to (5.2.2, 5.2.3). */
#define PMBR_GPT_PARTITION 0xee /* protective MBR: a GPT disk */
#define EFI_PARTITION 0xef	/* UEFI system partition in a legacy MBR */
/* Extended partition types, whose first sector holds the next logical partition's EBR. */
#define EXTENDED_DOS_PARTITION 0x05
#define EXTENDED_WINDOWS_PARTITION 0x0f
#define EXTENDED_LINUX_PARTITION 0x85

#pragma pack(1)

typedef struct {
	UINT8 BootIndicator; /* 0x80 bootable, 0x00 not; anything else is invalid */
	UINT8 StartHead;
	UINT8 StartSector;
	UINT8 StartTrack;
	UINT8 OSIndicator;
	UINT8 EndHead;
	UINT8 EndSector;
	UINT8 EndTrack;
	UINT8 StartingLBA[4];
	UINT8 SizeInLBA[4];
} MBR_PARTITION_RECORD;

typedef struct {
	UINT8 BootStrapCode[440];
	UINT8 UniqueMbrSignature[4];
	UINT8 Unknown[2];
	MBR_PARTITION_RECORD Partition[MAX_MBR_PARTITIONS];
	UINT16 Signature;
} MASTER_BOOT_RECORD;

/* ---- GUID Partition Table (5.3) ---- */

#define EFI_PTAB_HEADER_ID 0x5452415020494645ULL /* "EFI PART" */
#define EFI_GPT_HEADER_REVISION 0x00010000
#define EFI_GPT_HEADER_MIN_SIZE 92
/* The entry array occupies at least this many bytes (5.3.1). */
#define EFI_GPT_MIN_ENTRY_ARRAY_SIZE 16384

typedef struct {
	EFI_TABLE_HEADER Header;
	EFI_LBA MyLBA;
	EFI_LBA AlternateLBA;
	EFI_LBA FirstUsableLBA;
	EFI_LBA LastUsableLBA;
	EFI_GUID DiskGUID;
	EFI_LBA PartitionEntryLBA;
	UINT32 NumberOfPartitionEntries;
	UINT32 SizeOfPartitionEntry;
	UINT32 PartitionEntryArrayCRC32;
} EFI_PARTITION_TABLE_HEADER;

/* Attribute bits (table 5.8); bits 48-63 belong to the partition type. */
#define EFI_PARTITION_ATTRIBUTE_REQUIRED 0x0000000000000001ULL
#define EFI_PARTITION_ATTRIBUTE_NO_BLOCK_IO 0x0000000000000002ULL
#define EFI_PARTITION_ATTRIBUTE_LEGACY_BIOS_BOOTABLE 0x0000000000000004ULL

typedef struct {
	EFI_GUID PartitionTypeGUID;
	EFI_GUID UniquePartitionGUID;
	EFI_LBA StartingLBA;
	EFI_LBA EndingLBA; /* inclusive */
	UINT64 Attributes;
	CHAR16 PartitionName[36];
} EFI_PARTITION_ENTRY;

#pragma pack()

/* Partition type GUIDs (table 5.7). The ESP's is also installed as a tag protocol
 * (NULL interface) on the ESP's handle. */
#define EFI_PART_TYPE_UNUSED_GUID                                                                  \
	EFI_GUID_INIT(0x00000000, 0x0000, 0x0000, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00)
#define EFI_PART_TYPE_EFI_SYSTEM_PART_GUID                                                         \
	EFI_GUID_INIT(0xc12a7328, 0xf81f, 0x11d2, 0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b)
#define EFI_PART_TYPE_LEGACY_MBR_GUID                                                              \
	EFI_GUID_INIT(0x024dee41, 0x33e7, 0x11d3, 0x9d, 0x69, 0x00, 0x08, 0xc7, 0x81, 0xf3, 0x9f)

_Static_assert(sizeof(MBR_PARTITION_RECORD) == 16, "MBR_PARTITION_RECORD layout");
_Static_assert(sizeof(MASTER_BOOT_RECORD) == 512, "MASTER_BOOT_RECORD layout");
_Static_assert(offsetof(MASTER_BOOT_RECORD, Partition) == 446, "MASTER_BOOT_RECORD layout");
_Static_assert(sizeof(EFI_PARTITION_TABLE_HEADER) == 92, "EFI_PARTITION_TABLE_HEADER layout");
_Static_assert(offsetof(EFI_PARTITION_TABLE_HEADER, PartitionEntryLBA) == 72,
	       "EFI_PARTITION_TABLE_HEADER layout");
_Static_assert(sizeof(EFI_PARTITION_ENTRY) == 128, "EFI_PARTITION_ENTRY layout");
_Static_assert(offsetof(EFI_PARTITION_ENTRY, PartitionName) == 56, "EFI_PARTITION_ENTRY layout");

#endif
