/* The core's first memory map: the RAM the device tree gives, minus the tree itself and
 * the firmware image (code, data, early stack), which the OS must leave alone. */
#include <ember/core/core.h>
#include <ember/lib/util.h>
#include "aarch64.h"

#define RAM_ATTRIBUTES (EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT | EFI_MEMORY_WB)

static struct core_memory_range ranges[4];
static size_t range_count;

static void add_range(uint64_t start, uint64_t end, EFI_MEMORY_TYPE type)
{
	start = ALIGN_UP(start, 4096ULL);
	end = ALIGN_DOWN(end, 4096ULL);
	if (end > start && range_count < ARRAY_SIZE(ranges))
		ranges[range_count++] =
		    (struct core_memory_range){start, (end - start) >> 12, type, RAM_ATTRIBUTES};
}

const struct core_memory_range *memory_ranges(size_t *count)
{
	uint64_t ram_end = machine.ram_base + machine.ram_size;
	uint64_t image = (uintptr_t)__image_start, image_end = (uintptr_t)__image_end;

	range_count = 0;
	/* The device tree and the room below the image (core.ld). */
	add_range(machine.ram_base, image, EfiBootServicesData);
	/* The runtime services run from the image. */
	add_range(image, image_end, EfiRuntimeServicesCode);
	add_range(image_end, ram_end, EfiConventionalMemory);
	*count = range_count;
	return ranges;
}
