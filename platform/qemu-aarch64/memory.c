/* The core's first memory map: the RAM the device tree gives, minus the tree itself and
 * the firmware image (code, data, early stack), which the OS must leave alone; and the
 * devices the runtime services use, which the OS maps for them (runtime MMIO): the
 * variables' flash, the PL031 (GetTime, SetTime) and the PL011 (ResetSystem's log line). */
#include <ember/core/core.h>
#include <ember/core/varstore.h>
#include <ember/lib/util.h>
#include "aarch64.h"

#define MMIO_PAGE 4096 /* the PL011's and the PL031's registers */
#define RAM_ATTRIBUTES (EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT | EFI_MEMORY_WB)

static struct core_memory_range ranges[8];
static size_t range_count;

static void add_range(uint64_t start, uint64_t end, EFI_MEMORY_TYPE type, uint64_t attributes)
{
	start = ALIGN_UP(start, 4096ULL);
	end = ALIGN_DOWN(end, 4096ULL);
	if (end > start && range_count < ARRAY_SIZE(ranges))
		ranges[range_count++] =
		    (struct core_memory_range){start, (end - start) >> 12, type, attributes};
}

const struct core_memory_range *memory_ranges(size_t *count)
{
	uint64_t ram_end = machine.ram_base + machine.ram_size;
	uint64_t image = (uintptr_t)__image_start, image_end = (uintptr_t)__image_end;

	range_count = 0;
	/* The device tree and the room below the image (core.ld). */
	add_range(machine.ram_base, image, EfiBootServicesData, RAM_ATTRIBUTES);
	/* The runtime services run from the image. */
	add_range(image, image_end, EfiRuntimeServicesCode, RAM_ATTRIBUTES);
	add_range(image_end, ram_end, EfiConventionalMemory, RAM_ATTRIBUTES);
	/* The variables' flash stays mapped for the OS's runtime variable calls. */
	if (machine.vars_base)
		add_range(machine.vars_base, machine.vars_base + VARSTORE_REGION_SIZE,
			  EfiMemoryMappedIO, EFI_MEMORY_UC | EFI_MEMORY_RUNTIME);
	if (machine.rtc_base)
		add_range(machine.rtc_base, machine.rtc_base + MMIO_PAGE, EfiMemoryMappedIO,
			  EFI_MEMORY_UC | EFI_MEMORY_RUNTIME);
	add_range(machine.uart_base, machine.uart_base + MMIO_PAGE, EfiMemoryMappedIO,
		  EFI_MEMORY_UC | EFI_MEMORY_RUNTIME);
	*count = range_count;
	return ranges;
}
