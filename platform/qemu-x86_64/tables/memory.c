/* The machine's memory from fw_cfg's etc/e820, turned into the core's first memory map:
 * RAM minus the legacy hole and what the firmware itself already occupies. */
#define LOG_PREFIX "memory: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "tables/fw_cfg.h"
#include "qemu.h"
#include "reset/layout.h"
#include "reset/s3.h"

#define E820_RAM 1
#define E820_RESERVED 2
#define LEGACY_HOLE_START 0xa0000
#define LEGACY_HOLE_END 0x100000
#define IDENTITY_LIMIT ((uint64_t)IDENTITY_GIB << 30)
#define RAM_ATTRIBUTES (EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT | EFI_MEMORY_WB)

struct e820_entry {
	uint64_t address;
	uint64_t length;
	uint32_t type;
} __attribute__((packed));

/* What the firmware claimed before the core ran, inside RAM. */
static const struct {
	uint64_t start, end;
	EFI_MEMORY_TYPE type;
} claims[] = {
    {0, 0x1000, EfiBootServicesData}, /* page 0 is never handed out: NULL stays NULL */
    {PAGE_TABLES, EARLY_STACK_TOP, EfiBootServicesData},
    {S3_AREA, S3_AREA + S3_AREA_SIZE, EfiReservedMemoryType}, /* the S3 record (s3.h) */
    {CORE_LOAD_ADDRESS, 0, EfiRuntimeServicesCode},	      /* end: __core_end */
};

static struct core_memory_range ranges[64];
static size_t range_count;

static void add_range(uint64_t start, uint64_t end, EFI_MEMORY_TYPE type, uint64_t attribute)
{
	start = ALIGN_UP(start, 4096ULL);
	end = ALIGN_DOWN(end, 4096ULL);
	if (end <= start)
		return;
	if (range_count == ARRAY_SIZE(ranges)) {
		log_debug("more than %u ranges: [%llx, %llx) type %u left out\n",
			  (UINT32)ARRAY_SIZE(ranges), start, end, (UINT32)type);
		return;
	}
	ranges[range_count++] =
	    (struct core_memory_range){start, (end - start) >> 12, type, attribute};
}

static uint64_t claim_end(size_t i)
{
	return claims[i].end ? claims[i].end : (uint64_t)(uintptr_t)__core_end;
}

/* Adds a RAM span, cutting out the claims (which become ranges of their own types). */
static void add_ram(uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < ARRAY_SIZE(claims) && start < end; i++) {
		uint64_t cs = claims[i].start, ce = claim_end(i);
		if (ce <= start || cs >= end)
			continue;
		if (cs > start)
			add_range(start, cs, EfiConventionalMemory, RAM_ATTRIBUTES);
		add_range(MAX(cs, start), MIN(ce, end), claims[i].type, RAM_ATTRIBUTES);
		start = ce;
	}
	if (start < end)
		add_range(start, end, EfiConventionalMemory, RAM_ATTRIBUTES);
}

static void add_e820_ram(uint64_t start, uint64_t end)
{
	if (end > IDENTITY_LIMIT) {
		panic_printf("Ember: RAM above %u GiB is not used\n", IDENTITY_GIB);
		end = IDENTITY_LIMIT;
	}
	if (start < LEGACY_HOLE_START)
		add_ram(start, MIN(end, (uint64_t)LEGACY_HOLE_START));
	if (end > LEGACY_HOLE_END)
		add_ram(MAX(start, (uint64_t)LEGACY_HOLE_END), end);
}

/* q35's ECAM window (chipset.c) is reserved in the map, as OVMF does: Linux trusts MCFG only
 * for ranges the firmware reserved (QEMU.md pitfall 8). */
static void add_ecam(void)
{
	uint64_t base, size;

	if (chipset_ecam(&base, &size))
		add_range(base, base + size, EfiReservedMemoryType, EFI_MEMORY_UC);
}

/* Ranges sorted by address (the e820 table usually is; claims keep the order). */
static void sort_ranges(void)
{
	for (size_t i = 1; i < range_count; i++)
		for (size_t j = i; j > 0 && ranges[j].base < ranges[j - 1].base; j--) {
			struct core_memory_range t = ranges[j];
			ranges[j] = ranges[j - 1];
			ranges[j - 1] = t;
		}
}

const struct core_memory_range *memory_ranges(size_t *count)
{
	uint16_t select;
	uint32_t size = 0; /* no etc/e820: no entries */
	struct e820_entry e;

	if (!fw_cfg_find("etc/e820", &select, &size)) {
		/* Without the table, the RAM size key still tells the low RAM. */
		uint64_t ram = fw_cfg_read64(FW_CFG_RAM_SIZE);
		log_debug("no etc/e820: %llu bytes of RAM from the RAM size key\n", ram);
		add_e820_ram(0, MIN(ram, 0xb0000000ULL));
	}
	for (uint32_t off = 0; off + sizeof(e) <= size; off += sizeof(e)) {
		fw_cfg_read_at(select, off, &e, sizeof(e));
		if (e.type == E820_RAM)
			add_e820_ram(e.address, e.address + e.length);
		else if (e.type == E820_RESERVED && e.address + e.length <= IDENTITY_LIMIT)
			add_range(e.address, e.address + e.length, EfiReservedMemoryType, 0);
		else
			log_debug("e820 entry %u ([%llx, +%llx) type %u) not used\n",
				  (UINT32)(off / sizeof(e)), e.address, e.length, e.type);
	}
	add_ecam();
	/* The VARS flash stays mapped for the OS's runtime variable calls. */
	add_range(0x100000000ULL - FW_CODE_SIZE - FW_VARS_SIZE, 0x100000000ULL - FW_CODE_SIZE,
		  EfiMemoryMappedIO, EFI_MEMORY_UC | EFI_MEMORY_RUNTIME);
	sort_ranges();
	*count = range_count;
	return ranges;
}
