/* Firmware volumes and the firmware file system (PI 1.8 volume 3: 3.2 the volume header and
 * its block map, 2.2 the FFS file header, 2.1.4 the file states, 2.2.4 the section
 * headers) and the dependency expressions of DXE drivers (volume 2, chapter 10). All
 * little-endian, packed as they lie in flash. */
#ifndef EFI_PI_FIRMWARE_VOLUME_H
#define EFI_PI_FIRMWARE_VOLUME_H

#include <efi/types.h>

#define EFI_FIRMWARE_FILE_SYSTEM2_GUID                                                             \
	EFI_GUID_INIT(0x8c8ce578, 0x8a3d, 0x4f1c, 0x99, 0x35, 0x89, 0x61, 0x85, 0xc3, 0x2d, 0xd3)
#define EFI_FIRMWARE_FILE_SYSTEM3_GUID                                                             \
	EFI_GUID_INIT(0x5473c07a, 0x3dcb, 0x4dca, 0xbd, 0x6f, 0x1e, 0x96, 0x89, 0xe7, 0x34, 0x9a)
/* The GUID-defined section whose data is preceded by its CRC-32 (PI volume 3, 2.2.4). */
#define EFI_CRC32_GUIDED_SECTION_EXTRACTION_GUID                                                   \
	EFI_GUID_INIT(0xfc1bcdb0, 0x7d31, 0x49aa, 0x93, 0x6a, 0xa4, 0x60, 0x0d, 0x9d, 0xd0, 0x83)

#define EFI_FVH_SIGNATURE 0x4856465f /* "_FVH" */
#define EFI_FVH_REVISION 0x02

/* EFI_FVB_ATTRIBUTES_2 (volume 3, 3.2.1.1). */
#define EFI_FVB2_READ_DISABLED_CAP 0x00000001
#define EFI_FVB2_READ_ENABLED_CAP 0x00000002
#define EFI_FVB2_READ_STATUS 0x00000004
#define EFI_FVB2_WRITE_DISABLED_CAP 0x00000008
#define EFI_FVB2_WRITE_ENABLED_CAP 0x00000010
#define EFI_FVB2_WRITE_STATUS 0x00000020
#define EFI_FVB2_LOCK_CAP 0x00000040
#define EFI_FVB2_LOCK_STATUS 0x00000080
#define EFI_FVB2_STICKY_WRITE 0x00000200
#define EFI_FVB2_MEMORY_MAPPED 0x00000400
#define EFI_FVB2_ERASE_POLARITY 0x00000800
#define EFI_FVB2_READ_LOCK_CAP 0x00001000
#define EFI_FVB2_READ_LOCK_STATUS 0x00002000
#define EFI_FVB2_WRITE_LOCK_CAP 0x00004000
#define EFI_FVB2_WRITE_LOCK_STATUS 0x00008000
#define EFI_FVB2_ALIGNMENT 0x001F0000
#define EFI_FVB2_ALIGNMENT_8 0x00030000

#pragma pack(1)

typedef struct {
	UINT32 NumBlocks;
	UINT32 Length;
} EFI_FV_BLOCK_MAP_ENTRY;

typedef struct {
	UINT8 ZeroVector[16];
	EFI_GUID FileSystemGuid;
	UINT64 FvLength;
	UINT32 Signature;
	UINT32 Attributes;
	UINT16 HeaderLength;
	UINT16 Checksum;
	UINT16 ExtHeaderOffset;
	UINT8 Reserved[1];
	UINT8 Revision;
	EFI_FV_BLOCK_MAP_ENTRY BlockMap[1]; /* ends with an entry of zeros */
} EFI_FIRMWARE_VOLUME_HEADER;

/* Where ExtHeaderOffset points (inside the data of a pad file, in practice). */
typedef struct {
	EFI_GUID FvName;
	UINT32 ExtHeaderSize;
} EFI_FIRMWARE_VOLUME_EXT_HEADER;

/* File types (volume 3, 2.1.4.1). */
#define EFI_FV_FILETYPE_ALL 0x00
#define EFI_FV_FILETYPE_RAW 0x01
#define EFI_FV_FILETYPE_FREEFORM 0x02
#define EFI_FV_FILETYPE_SECURITY_CORE 0x03
#define EFI_FV_FILETYPE_PEI_CORE 0x04
#define EFI_FV_FILETYPE_DXE_CORE 0x05
#define EFI_FV_FILETYPE_PEIM 0x06
#define EFI_FV_FILETYPE_DRIVER 0x07
#define EFI_FV_FILETYPE_COMBINED_PEIM_DRIVER 0x08
#define EFI_FV_FILETYPE_APPLICATION 0x09
#define EFI_FV_FILETYPE_MM 0x0A
#define EFI_FV_FILETYPE_FIRMWARE_VOLUME_IMAGE 0x0B
#define EFI_FV_FILETYPE_FFS_PAD 0xF0

/* File attributes (2.2.3). */
#define FFS_ATTRIB_LARGE_FILE 0x01
#define FFS_ATTRIB_DATA_ALIGNMENT_2 0x02
#define FFS_ATTRIB_FIXED 0x04
#define FFS_ATTRIB_DATA_ALIGNMENT 0x38
#define FFS_ATTRIB_CHECKSUM 0x40
/* IntegrityCheck.Checksum.File of a file without FFS_ATTRIB_CHECKSUM. */
#define FFS_FIXED_CHECKSUM 0xAA

/* File states (2.1.4.1), as bits that are set when the erase polarity is 0. */
#define EFI_FILE_HEADER_CONSTRUCTION 0x01
#define EFI_FILE_HEADER_VALID 0x02
#define EFI_FILE_DATA_VALID 0x04
#define EFI_FILE_MARKED_FOR_UPDATE 0x08
#define EFI_FILE_DELETED 0x10
#define EFI_FILE_HEADER_INVALID 0x20

typedef struct {
	EFI_GUID Name;
	struct {
		UINT8 Header;
		UINT8 File;
	} IntegrityCheck;
	UINT8 Type;
	UINT8 Attributes;
	UINT8 Size[3];
	UINT8 State;
} EFI_FFS_FILE_HEADER;

/* FFS_ATTRIB_LARGE_FILE (FFS3 volumes only): Size is 0 and ExtendedSize holds it. */
typedef struct {
	EFI_FFS_FILE_HEADER Header;
	UINT64 ExtendedSize;
} EFI_FFS_FILE_HEADER2;

/* Section types (2.1.5.1). */
#define EFI_SECTION_ALL 0x00
#define EFI_SECTION_COMPRESSION 0x01
#define EFI_SECTION_GUID_DEFINED 0x02
#define EFI_SECTION_DISPOSABLE 0x03
#define EFI_SECTION_PE32 0x10
#define EFI_SECTION_PIC 0x11
#define EFI_SECTION_TE 0x12
#define EFI_SECTION_DXE_DEPEX 0x13
#define EFI_SECTION_VERSION 0x14
#define EFI_SECTION_USER_INTERFACE 0x15
#define EFI_SECTION_COMPATIBILITY16 0x16
#define EFI_SECTION_FIRMWARE_VOLUME_IMAGE 0x17
#define EFI_SECTION_FREEFORM_SUBTYPE_GUID 0x18
#define EFI_SECTION_RAW 0x19
#define EFI_SECTION_PEI_DEPEX 0x1B
#define EFI_SECTION_MM_DEPEX 0x1C

typedef struct {
	UINT8 Size[3];
	UINT8 Type;
} EFI_COMMON_SECTION_HEADER;

/* Size 0xFFFFFF: the real size follows. */
typedef struct {
	UINT8 Size[3];
	UINT8 Type;
	UINT32 ExtendedSize;
} EFI_COMMON_SECTION_HEADER2;

#define EFI_NOT_COMPRESSED 0x00
#define EFI_STANDARD_COMPRESSION 0x01

/* The fields after the common header of a compression section. */
typedef struct {
	UINT32 UncompressedLength;
	UINT8 CompressionType;
} EFI_COMPRESSION_SECTION_FIELDS;

#define EFI_GUIDED_SECTION_PROCESSING_REQUIRED 0x01
#define EFI_GUIDED_SECTION_AUTH_STATUS_VALID 0x02

/* The fields after the common header of a GUID-defined section; DataOffset counts from the
 * section's start. */
typedef struct {
	EFI_GUID SectionDefinitionGuid;
	UINT16 DataOffset;
	UINT16 Attributes;
} EFI_GUID_DEFINED_SECTION_FIELDS;

#pragma pack()

/* Dependency expression opcodes (volume 2, 10.7). */
#define EFI_DEP_BEFORE 0x00
#define EFI_DEP_AFTER 0x01
#define EFI_DEP_PUSH 0x02
#define EFI_DEP_AND 0x03
#define EFI_DEP_OR 0x04
#define EFI_DEP_NOT 0x05
#define EFI_DEP_TRUE 0x06
#define EFI_DEP_FALSE 0x07
#define EFI_DEP_END 0x08
#define EFI_DEP_SOR 0x09

_Static_assert(sizeof(EFI_FIRMWARE_VOLUME_HEADER) == 64, "volume header with one map entry");
_Static_assert(sizeof(EFI_FIRMWARE_VOLUME_EXT_HEADER) == 20, "extended header layout");
_Static_assert(sizeof(EFI_FFS_FILE_HEADER) == 24, "FFS file header layout");
_Static_assert(sizeof(EFI_FFS_FILE_HEADER2) == 32, "FFS file header 2 layout");
_Static_assert(sizeof(EFI_COMMON_SECTION_HEADER2) == 8, "section header 2 layout");
_Static_assert(sizeof(EFI_GUID_DEFINED_SECTION_FIELDS) == 20, "GUID-defined section layout");

#endif
