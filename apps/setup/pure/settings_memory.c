/* RAM in a memory map (settings_memory.h). */
#include "settings_memory.h"
#include <efi/boot_services.h>
#include <ember/lib/str.h>

static bool is_ram(UINT32 type)
{
	switch (type) {
	case EfiLoaderCode:
	case EfiLoaderData:
	case EfiBootServicesCode:
	case EfiBootServicesData:
	case EfiRuntimeServicesCode:
	case EfiRuntimeServicesData:
	case EfiConventionalMemory:
	case EfiACPIReclaimMemory:
	case EfiACPIMemoryNVS:
	case EfiPersistentMemory:
		return true;
	default:
		return false;
	}
}

UINT64 settings_memory_bytes(const void *map, size_t map_size, size_t descriptor_size)
{
	EFI_MEMORY_DESCRIPTOR d;
	UINT64 total = 0;

	if (descriptor_size < sizeof(d))
		return 0;
	for (size_t at = 0; map_size - at >= descriptor_size; at += descriptor_size) {
		mem_copy(&d, (const UINT8 *)map + at, sizeof(d));
		if (is_ram(d.Type) && d.NumberOfPages < (1ull << 52))
			total += d.NumberOfPages << 12;
	}
	return total;
}
