/* The MMU on with a 1:1 map of 1 GiB blocks (4 KiB granule, 40-bit addresses: one level-0
 * table over two level-1 tables): RAM normal write-back cacheable memory, everything else
 * (flash, MMIO, the PCIe ECAM and windows, virt's 64-bit one at 512 GiB included) device
 * nGnRE and never executable. Before the MMU is on every data access is to device memory,
 * where unaligned accesses fault: main.c turns it on first. */
#include <ember/lib/util.h>
#include "aarch64.h"

#define GIB (1ULL << 30)
#define BLOCK 0x1ULL
#define TABLE 0x3ULL
#define ATTR_DEVICE (0ULL << 2) /* MAIR index 0 */
#define ATTR_NORMAL (1ULL << 2) /* MAIR index 1 */
#define INNER_SHAREABLE (3ULL << 8)
#define ACCESS_FLAG (1ULL << 10)
#define PXN (1ULL << 53)
#define UXN (1ULL << 54)
#define MAIR_VALUE (0x04ULL | 0xffULL << 8) /* device nGnRE, normal WB read/write-allocate */
/* T0SZ 24 (the walk starts at level 0), walks write-back inner shareable, TTBR1 walks off,
 * 40-bit physical addresses. */
#define TCR_VALUE (24ULL | 1ULL << 8 | 1ULL << 10 | 3ULL << 12 | 1ULL << 23 | 2ULL << 32)
#define SCTLR_M (1ULL << 0)
#define SCTLR_A (1ULL << 1)
#define SCTLR_C (1ULL << 2)
#define SCTLR_I (1ULL << 12)
#define ENTRIES 512
#define LEVEL0_ENTRIES 2 /* 512 GiB each */

static uint64_t level0[ENTRIES] __attribute__((aligned(4096)));
static uint64_t level1[LEVEL0_ENTRIES][ENTRIES] __attribute__((aligned(4096)));

static void flush_tlb(void)
{
	__asm__ __volatile__("dsb ishst\n\ttlbi vmalle1\n\tdsb ish\n\tisb" : : : "memory");
}

void mmu_enable(void)
{
	for (uint64_t t = 0; t < LEVEL0_ENTRIES; t++) {
		for (uint64_t i = 0; i < ENTRIES; i++)
			level1[t][i] =
			    (t * ENTRIES + i) * GIB | BLOCK | ATTR_DEVICE | ACCESS_FLAG | PXN | UXN;
		level0[t] = (uintptr_t)level1[t] | TABLE;
	}
	/* The first GiB of RAM (the firmware, the device tree) until the tree says more. */
	mmu_map_ram(machine.ram_base, machine.ram_base + GIB);
	WRITE_SYSREG(mair_el1, MAIR_VALUE);
	WRITE_SYSREG(tcr_el1, TCR_VALUE);
	WRITE_SYSREG(ttbr0_el1, (uintptr_t)level0);
	flush_tlb();
	WRITE_SYSREG(sctlr_el1, (READ_SYSREG(sctlr_el1) | SCTLR_M | SCTLR_C | SCTLR_I) & ~SCTLR_A);
	ISB();
}

void mmu_map_ram(uint64_t start, uint64_t end)
{
	for (uint64_t at = ALIGN_DOWN(start, GIB); at < end && at / GIB < LEVEL0_ENTRIES * ENTRIES;
	     at += GIB)
		level1[at / GIB / ENTRIES][at / GIB % ENTRIES] =
		    at | BLOCK | ATTR_NORMAL | INNER_SHAREABLE | ACCESS_FLAG;
	flush_tlb();
}
