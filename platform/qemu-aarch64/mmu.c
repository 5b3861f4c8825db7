/* The MMU on with a 1:1 map (4 KiB granule, 40-bit addresses: one level-0 table over two
 * level-1 tables of 1 GiB blocks): RAM normal write-back cacheable memory, everything else
 * (flash, MMIO, the PCIe ECAM and windows, virt's 64-bit one at 512 GiB included) device
 * nGnRE and never executable. Before the MMU is on every data access is to device memory,
 * where unaligned accesses fault: main.c turns it on first.
 *
 * The core's memory protection (plat_memory_protect) splits blocks where a range needs it:
 * 1 GiB into 2 MiB blocks, 2 MiB into 4 KiB pages. Read-only is AP[2], never-execute PXN
 * and UXN, EFI_MEMORY_RP an invalid entry that keeps its address and attributes for when
 * it becomes valid again. A live block is replaced by its table break-before-make: the
 * entry is made invalid and the TLBs cleaned before the table goes in, so for a moment
 * nothing maps the block. The code doing it, the tables and the pool they come from must
 * never be in such a block: the 2 MiB blocks from the start of the image's GiB (the device
 * tree and the room below the image) to its end are split into pages before the MMU is on,
 * and the new tables come from that room, the pages after the tree (boot-services data in
 * the memory map from the start: memory.c). */
#include <ember/core/platform.h>
#include <ember/lib/util.h>
#include "aarch64.h"

#define GIB (1ULL << 30)
#define BLOCK_2M (2ULL << 20)
#define PAGE 4096ULL
#define VALID 0x1ULL
#define TABLE 0x3ULL	 /* a table at levels 0-2 */
#define PAGE_TYPE 0x2ULL /* with VALID: a page at level 3 */
#define ATTR_INDEX (7ULL << 2)
#define ATTR_DEVICE (0ULL << 2) /* MAIR index 0 */
#define ATTR_NORMAL (1ULL << 2) /* MAIR index 1 */
#define READ_ONLY (1ULL << 7)	/* AP[2] */
#define INNER_SHAREABLE (3ULL << 8)
#define ACCESS_FLAG (1ULL << 10)
#define PXN (1ULL << 53)
#define UXN (1ULL << 54)
#define ADDRESS_MASK 0x0000fffffffff000ULL
#define NORMAL_RAM (ATTR_NORMAL | INNER_SHAREABLE | ACCESS_FLAG)
#define MAIR_VALUE (0x04ULL | 0xffULL << 8) /* device nGnRE, normal WB read/write-allocate */
/* T0SZ 24 (the walk starts at level 0), walks write-back inner shareable, TTBR1 walks off,
 * 40-bit physical addresses. */
#define TCR_VALUE (24ULL | 1ULL << 8 | 1ULL << 10 | 3ULL << 12 | 1ULL << 23 | 2ULL << 32)
#define SCTLR_M (1ULL << 0)
#define SCTLR_A (1ULL << 1)
#define SCTLR_C (1ULL << 2)
#define SCTLR_I (1ULL << 12)
#define SCTLR_WXN (1ULL << 19) /* writable would mean never-execute: LoaderData must run */
#define ENTRIES 512
#define LEVEL0_ENTRIES 2 /* 512 GiB each */
#define MAPPED_END (LEVEL0_ENTRIES * 512 * GIB)
#define PRESPLIT_BLOCKS 4 /* 2 MiB blocks from the image's GiB to its end: 8 MiB at most */

static uint64_t level0[ENTRIES] __attribute__((aligned(4096)));
static uint64_t level1[LEVEL0_ENTRIES][ENTRIES] __attribute__((aligned(4096)));
static uint64_t image_level2[ENTRIES] __attribute__((aligned(4096)));
static uint64_t image_level3[PRESPLIT_BLOCKS][ENTRIES] __attribute__((aligned(4096)));
static uint64_t presplit_end; /* split from the image's GiB to here; 0 when it did not fit */
static uint64_t pool_next, pool_end;
static bool pool_ready;

static uint64_t *table_of(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & ADDRESS_MASK);
}

static void flush_tlb(void)
{
	__asm__ __volatile__("dsb ishst\n\ttlbi vmalle1is\n\tdsb ish\n\tisb" : : : "memory");
}

/* The 2 MiB blocks from the image's GiB to the image's end as pages, the rest of that GiB
 * as 2 MiB blocks, all normal RAM: with the MMU off, nothing to break. */
static void presplit_image(void)
{
	uint64_t gib = ALIGN_DOWN((uintptr_t)__image_start, GIB);
	uint64_t end = ALIGN_UP((uintptr_t)__image_end, BLOCK_2M);

	if ((end - gib) / BLOCK_2M > PRESPLIT_BLOCKS)
		return; /* no protection: plat_memory_protect says EFI_UNSUPPORTED */
	for (uint64_t i = 0; i < ENTRIES; i++)
		image_level2[i] = (gib + i * BLOCK_2M) | NORMAL_RAM | VALID;
	for (uint64_t b = 0; gib + b * BLOCK_2M < end; b++) {
		for (uint64_t i = 0; i < ENTRIES; i++)
			image_level3[b][i] =
			    (gib + b * BLOCK_2M + i * PAGE) | NORMAL_RAM | PAGE_TYPE | VALID;
		image_level2[b] = (uintptr_t)image_level3[b] | TABLE;
	}
	level1[gib / GIB / ENTRIES][gib / GIB % ENTRIES] = (uintptr_t)image_level2 | TABLE;
	presplit_end = end;
}

void mmu_enable(void)
{
	for (uint64_t t = 0; t < LEVEL0_ENTRIES; t++) {
		for (uint64_t i = 0; i < ENTRIES; i++)
			level1[t][i] =
			    (t * ENTRIES + i) * GIB | VALID | ATTR_DEVICE | ACCESS_FLAG | PXN | UXN;
		level0[t] = (uintptr_t)level1[t] | TABLE;
	}
	/* The first GiB of RAM (the firmware, the device tree) until the tree says more. */
	mmu_map_ram(machine.ram_base, machine.ram_base + GIB);
	presplit_image();
	WRITE_SYSREG(mair_el1, MAIR_VALUE);
	WRITE_SYSREG(tcr_el1, TCR_VALUE);
	WRITE_SYSREG(ttbr0_el1, (uintptr_t)level0);
	flush_tlb();
	WRITE_SYSREG(sctlr_el1, (READ_SYSREG(sctlr_el1) | SCTLR_M | SCTLR_C | SCTLR_I) &
				    ~(SCTLR_A | SCTLR_WXN));
	ISB();
}

void mmu_map_ram(uint64_t start, uint64_t end)
{
	for (uint64_t at = ALIGN_DOWN(start, GIB); at < end && at < MAPPED_END; at += GIB) {
		uint64_t *entry = &level1[at / GIB / ENTRIES][at / GIB % ENTRIES];
		if ((*entry & TABLE) != TABLE) /* the image's GiB is RAM already */
			*entry = at | NORMAL_RAM | VALID;
	}
	flush_tlb();
}

/* A page from the pool (its user fills every entry): the pages between the device tree
 * and the image, which are split into pages from the start (so never in a block being
 * split) and reserved in the memory map. NULL when the pool is used up. */
static uint64_t *pool_take(void)
{
	uint64_t base, size;
	uint64_t *table;

	if (!pool_ready) {
		dt_location(&base, &size);
		pool_next = ALIGN_UP(base + size, PAGE);
		pool_end = (uintptr_t)__image_start;
		if (pool_next < ALIGN_DOWN(pool_end, GIB))
			pool_next = pool_end; /* not in the split pages: no pool */
		pool_ready = true;
	}
	if (pool_next >= pool_end)
		return NULL;
	table = (uint64_t *)(uintptr_t)pool_next;
	pool_next += PAGE;
	return table;
}

/* Replaces a live entry with a table entry, break-before-make: invalid first, the TLBs
 * cleaned of the old entry, then the table. Interrupts stay off meanwhile and nothing but
 * registers and the entry is touched: the block may hold the stack. */
static void replace_entry(uint64_t *entry, uint64_t value)
{
	uint64_t daif;

	__asm__ __volatile__("mrs %[daif], daif\n\t"
			     "msr daifset, #3\n\t"
			     "dsb ishst\n\t" /* the new table's entries before the table */
			     "str xzr, [%[entry]]\n\t"
			     "dsb ishst\n\t"
			     "tlbi vmalle1is\n\t"
			     "dsb ish\n\t"
			     "str %[value], [%[entry]]\n\t"
			     "dsb ishst\n\t"
			     "isb\n\t"
			     "msr daif, %[daif]"
			     : [daif] "=&r"(daif)
			     : [entry] "r"(entry), [value] "r"(value)
			     : "memory");
}

/* Splits the block entry of size bytes (1 GiB or 2 MiB) into a table of 512 entries of the
 * next level with its attributes; false when the pool is used up. */
static bool split(uint64_t *entry, uint64_t size)
{
	uint64_t *table = pool_take();
	uint64_t child = size / ENTRIES, base = *entry & ADDRESS_MASK & ~(size - 1);
	uint64_t flags = *entry & ~ADDRESS_MASK & ~TABLE;

	if (!table)
		return false;
	if (*entry & VALID)
		flags |= VALID;
	if (child == PAGE)
		flags |= PAGE_TYPE;
	for (uint64_t i = 0; i < ENTRIES; i++)
		table[i] = (base + i * child) | flags;
	replace_entry(entry, (uintptr_t)table | TABLE);
	return true;
}

/* The leaf entry (block or page) mapping address, and the size it maps. */
static uint64_t *leaf_of(uint64_t address, uint64_t *size)
{
	uint64_t *entry = &level1[address / GIB / ENTRIES][address / GIB % ENTRIES];

	*size = GIB;
	if ((*entry & TABLE) != TABLE)
		return entry;
	entry = &table_of(*entry)[(address / BLOCK_2M) % ENTRIES];
	*size = BLOCK_2M;
	if ((*entry & TABLE) != TABLE)
		return entry;
	*size = PAGE;
	return &table_of(*entry)[(address / PAGE) % ENTRIES];
}

static uint64_t protection_of(uint64_t entry)
{
	return (entry & VALID ? 0 : EFI_MEMORY_RP) | (entry & READ_ONLY ? EFI_MEMORY_RO : 0) |
	       (entry & PXN ? EFI_MEMORY_XP : 0);
}

static uint64_t with_protection(uint64_t entry, uint64_t attributes)
{
	entry &= ~(VALID | READ_ONLY | PXN | UXN);
	if (!(attributes & EFI_MEMORY_RP))
		entry |= VALID;
	if (attributes & EFI_MEMORY_RO)
		entry |= READ_ONLY;
	if (attributes & EFI_MEMORY_XP)
		entry |= PXN | UXN;
	return entry;
}

EFI_STATUS plat_memory_protect(uint64_t start, uint64_t pages, uint64_t attributes)
{
	uint64_t end = start + pages * PAGE, at = start, size;
	EFI_STATUS status = EFI_SUCCESS;
	bool changed = false;

	if (!presplit_end)
		return EFI_UNSUPPORTED;
	if (end > MAPPED_END || end < start)
		return EFI_UNSUPPORTED;
	attributes &= EFI_MEMORY_RP | EFI_MEMORY_RO | EFI_MEMORY_XP;
	while (at < end) {
		uint64_t *entry = leaf_of(at, &size);
		uint64_t base = ALIGN_DOWN(at, size);
		if (protection_of(*entry) == attributes) {
			at = base + size; /* nothing to change: nothing to split */
		} else if (at == base && end - at >= size) {
			/* Permissions only: no break-before-make; the TLBs are cleaned below. */
			*entry = with_protection(*entry, attributes);
			changed = true;
			at += size;
		} else if (!split(entry, size)) {
			status = EFI_OUT_OF_RESOURCES;
			break;
		}
	}
	if (changed)
		flush_tlb();
	return status;
}

/* Walks the leaves of the map below one level-1 or level-2 entry. */
static void release_entry(uint64_t *entry, uint64_t address, uint64_t size, uint64_t keep_start,
			  uint64_t keep_end)
{
	if (size > PAGE && (*entry & TABLE) == TABLE) {
		for (uint64_t i = 0; i < ENTRIES; i++)
			release_entry(&table_of(*entry)[i], address + i * (size / ENTRIES),
				      size / ENTRIES, keep_start, keep_end);
		return;
	}
	/* RAM only: device memory stays never-execute (no speculative fetches from MMIO). */
	if ((*entry & ATTR_INDEX) != ATTR_NORMAL ||
	    (address < keep_end && address + size > keep_start))
		return;
	*entry = with_protection(*entry, 0);
}

void mmu_release_protection(uint64_t keep_start, uint64_t keep_end)
{
	for (uint64_t t = 0; t < LEVEL0_ENTRIES; t++)
		for (uint64_t i = 0; i < ENTRIES; i++)
			release_entry(&level1[t][i], (t * ENTRIES + i) * GIB, GIB, keep_start,
				      keep_end);
	flush_tlb();
}
