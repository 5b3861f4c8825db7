/* The size of RAM as a memory map describes it (settings_sysinfo.c), pure for the tests. */
#ifndef SETUP_PURE_SETTINGS_MEMORY_H
#define SETUP_PURE_SETTINGS_MEMORY_H

#include <stddef.h>
#include <efi/types.h>

/* Bytes of the map's descriptors (map_size bytes, descriptor_size apart) whose type is RAM
 * (free, loader, boot and runtime services, ACPI, persistent memory): not MMIO, reserved
 * or unusable memory. 0 when descriptor_size is smaller than EFI_MEMORY_DESCRIPTOR. */
UINT64 settings_memory_bytes(const void *map, size_t map_size, size_t descriptor_size);

#endif
