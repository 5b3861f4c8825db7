/* ACPI resource descriptors used by the PCI protocols to describe apertures and BARs
 * (UEFI 2.10 sections 14.2 Configuration() and 14.4 GetBarAttributes(); ACPI 6.5 section
 * 6.4.3.5.1 QWORD Address Space Descriptor and 6.4.2.9 End Tag). */
#ifndef EFI_ACPI_RESOURCE_H
#define EFI_ACPI_RESOURCE_H

#include <efi/types.h>

/* Descriptor tags (byte 0) */
#define ACPI_ADDRESS_SPACE_DESCRIPTOR 0x8A /* QWORD Address Space Descriptor */
#define ACPI_END_TAG_DESCRIPTOR 0x79

/* ResType */
#define ACPI_ADDRESS_SPACE_TYPE_MEM 0x00
#define ACPI_ADDRESS_SPACE_TYPE_IO 0x01
#define ACPI_ADDRESS_SPACE_TYPE_BUS 0x02

/* SpecificFlag for memory ranges (_MEM field, bits 2:1) */
#define EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_NON_CACHEABLE 0x00
#define EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE 0x02
#define EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_WRITE_COMBINING 0x04
#define EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_PREFETCHABLE 0x06

#pragma pack(push, 1)
/* QWORD Address Space Descriptor. In the PCI protocols AddrSpaceGranularity is 32 or 64 for
 * memory (the decoder width), AddrRangeMin is the base and AddrLen the length. */
typedef struct {
	UINT8 Desc; /* ACPI_ADDRESS_SPACE_DESCRIPTOR */
	UINT16 Len; /* 0x2B: bytes after this field */
	UINT8 ResType;
	UINT8 GenFlag;
	UINT8 SpecificFlag;
	UINT64 AddrSpaceGranularity;
	UINT64 AddrRangeMin;
	UINT64 AddrRangeMax;
	UINT64 AddrTranslationOffset;
	UINT64 AddrLen;
} EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR;

/* End Tag: terminates a descriptor list. */
typedef struct {
	UINT8 Desc; /* ACPI_END_TAG_DESCRIPTOR */
	UINT8 Checksum;
} EFI_ACPI_END_TAG_DESCRIPTOR;
#pragma pack(pop)

_Static_assert(sizeof(EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR) == 46, "QWORD descriptor layout");
_Static_assert(offsetof(EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR, AddrRangeMin) == 14,
	       "QWORD descriptor layout");
_Static_assert(offsetof(EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR, AddrLen) == 38,
	       "QWORD descriptor layout");
_Static_assert(sizeof(EFI_ACPI_END_TAG_DESCRIPTOR) == 2, "End tag layout");

#endif
