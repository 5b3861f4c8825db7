/* Changes to the reset code's identity map once memory can be allocated. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include "qemu.h"
#include "reset/layout.h"

#define PTE_PRESENT_WRITABLE 0x3ULL

/* Page 0 becomes not-present, so a NULL pointer faults with a report instead of reading
 * the real-mode interrupt table. The first 2 MiB get a table of 4 KiB pages for that. */
void paging_protect_null_page(void)
{
	uint64_t *pd = (uint64_t *)(uintptr_t)(PAGE_TABLES + PD_OFFSET);
	EFI_PHYSICAL_ADDRESS table = 0xffffffff; /* below 4 GiB, like the other tables */
	uint64_t *pt, cr3;

	if (EFI_ERROR(mem_allocate_pages(AllocateMaxAddress, EfiBootServicesData, 1, &table)))
		return;
	pt = (uint64_t *)(uintptr_t)table;
	pt[0] = 0;
	for (uint64_t i = 1; i < 512; i++)
		pt[i] = (i << 12) | PTE_PRESENT_WRITABLE;
	pd[0] = table | PTE_PRESENT_WRITABLE;
	__asm__ __volatile__("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3)::"memory");
}

#define PTE_LARGE_PAGE 0x80ULL
#define PTE_ADDRESS_MASK 0x000ffffffffff000ULL
#define GIB (1ULL << 30)

static uint64_t *table_of(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & PTE_ADDRESS_MASK);
}

/* Points entry at a new zeroed table (below 4 GiB, like the reset code's). */
static bool new_table(uint64_t *entry)
{
	EFI_PHYSICAL_ADDRESS table = 0xffffffff;

	if (EFI_ERROR(mem_allocate_pages(AllocateMaxAddress, EfiBootServicesData, 1, &table)))
		return false;
	mem_set((void *)(uintptr_t)table, 0, 4096);
	*entry = table | PTE_PRESENT_WRITABLE;
	return true;
}

bool paging_identity_map(uint64_t start, uint64_t end)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)PAGE_TABLES, cr3;
	bool ok = true;

	for (uint64_t gib = start / GIB; ok && gib < (end + GIB - 1) / GIB; gib++) {
		uint64_t *pml4e = &pml4[(gib >> 9) & 511], *pdpte, *pd;

		if (!(*pml4e & 1) && !new_table(pml4e)) {
			ok = false;
			break;
		}
		pdpte = &table_of(*pml4e)[gib & 511];
		if (*pdpte & 1)
			continue; /* mapped already (the reset code's first GiBs) */
		if (!new_table(pdpte)) {
			ok = false;
			break;
		}
		pd = table_of(*pdpte);
		for (uint64_t i = 0; i < 512; i++)
			pd[i] = (gib * GIB + (i << 21)) | PTE_PRESENT_WRITABLE | PTE_LARGE_PAGE;
	}
	__asm__ __volatile__("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3)::"memory");
	return ok;
}
