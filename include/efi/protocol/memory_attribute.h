/* EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10, section 37.7): the access attributes (read
 * protect, execute protect, read-only) of pages of memory, read and changed by programs. */
#ifndef EFI_PROTOCOL_MEMORY_ATTRIBUTE_H
#define EFI_PROTOCOL_MEMORY_ATTRIBUTE_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_MEMORY_ATTRIBUTE_PROTOCOL_GUID                                                         \
	EFI_GUID_INIT(0xf4560cf6, 0x40ec, 0x4b4a, 0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89)

typedef struct _EFI_MEMORY_ATTRIBUTE_PROTOCOL EFI_MEMORY_ATTRIBUTE_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_GET_MEMORY_ATTRIBUTES)(EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						      EFI_PHYSICAL_ADDRESS BaseAddress,
						      UINT64 Length, UINT64 *Attributes);
typedef EFI_STATUS(EFIAPI *EFI_SET_MEMORY_ATTRIBUTES)(EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						      EFI_PHYSICAL_ADDRESS BaseAddress,
						      UINT64 Length, UINT64 Attributes);
typedef EFI_STATUS(EFIAPI *EFI_CLEAR_MEMORY_ATTRIBUTES)(EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
							EFI_PHYSICAL_ADDRESS BaseAddress,
							UINT64 Length, UINT64 Attributes);

struct _EFI_MEMORY_ATTRIBUTE_PROTOCOL {
	EFI_GET_MEMORY_ATTRIBUTES GetMemoryAttributes;
	EFI_SET_MEMORY_ATTRIBUTES SetMemoryAttributes;
	EFI_CLEAR_MEMORY_ATTRIBUTES ClearMemoryAttributes;
};
_Static_assert(sizeof(EFI_MEMORY_ATTRIBUTE_PROTOCOL) == 24, "EFI_MEMORY_ATTRIBUTE_PROTOCOL layout");

#endif
