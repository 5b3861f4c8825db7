/* EFI_MEMORY_ATTRIBUTES_TABLE (UEFI 2.10, section 4.6.4): a configuration table listing the
 * runtime memory with the protections an OS may apply to it (EFI_MEMORY_RO for code,
 * EFI_MEMORY_XP for data). */
#ifndef EFI_MEMORY_ATTRIBUTES_TABLE_H
#define EFI_MEMORY_ATTRIBUTES_TABLE_H

#include <efi/boot_services.h>

#define EFI_MEMORY_ATTRIBUTES_TABLE_GUID                                                           \
	EFI_GUID_INIT(0xdcfa911d, 0x26eb, 0x469f, 0xa2, 0x20, 0x38, 0xb7, 0xdc, 0x46, 0x12, 0x20)
/* Version 2 (UEFI 2.10) only adds a flag in the Reserved field; Linux before 6.6 ignores
 * a table whose version is not 1, so version 1 it is. */
#define EFI_MEMORY_ATTRIBUTES_TABLE_VERSION 0x1

typedef struct {
	UINT32 Version;
	UINT32 NumberOfEntries;
	UINT32 DescriptorSize;
	UINT32 Reserved;
	/* EFI_MEMORY_DESCRIPTOR Entry[NumberOfEntries], DescriptorSize bytes apart */
} EFI_MEMORY_ATTRIBUTES_TABLE;
_Static_assert(sizeof(EFI_MEMORY_ATTRIBUTES_TABLE) == 16, "EFI_MEMORY_ATTRIBUTES_TABLE layout");

#endif
