/* Changes to the reset code's identity map once memory can be allocated: page 0 and the
 * guard pages below stacks become not-present, and more of the address space gets mapped
 * when PCI apertures lie beyond the first 64 GiB. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include "qemu.h"
#include "reset/layout.h"

#define PTE_PRESENT 0x1ULL
#define PTE_PRESENT_WRITABLE 0x3ULL
#define PTE_LARGE_PAGE 0x80ULL
#define PTE_ADDRESS_MASK 0x000ffffffffff000ULL
#define PAGE_SIZE 4096ULL
#define LARGE_PAGE_SIZE (2ULL << 20)
#define GIB (1ULL << 30)
#define MAX_GUARDS 4

static uint64_t guards[MAX_GUARDS]; /* pages made not-present below stacks */
static unsigned guard_count;

static uint64_t *table_of(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & PTE_ADDRESS_MASK);
}

static void flush_tlb(void)
{
	uint64_t cr3;

	__asm__ __volatile__("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3)::"memory");
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

/* The 4 KiB page-table entry of address; the 2 MiB page mapping it now is split into
 * 4 KiB pages first. NULL when the address is not mapped or memory ran out. */
static uint64_t *pte_of(uint64_t address)
{
	uint64_t *entry = &((uint64_t *)(uintptr_t)PAGE_TABLES)[(address >> 39) & 511];
	uint64_t table;

	if (!(*entry & PTE_PRESENT))
		return NULL;
	entry = &table_of(*entry)[(address >> 30) & 511];
	if (!(*entry & PTE_PRESENT) || (*entry & PTE_LARGE_PAGE))
		return NULL; /* the map has no 1 GiB pages */
	entry = &table_of(*entry)[(address >> 21) & 511];
	if (!(*entry & PTE_PRESENT))
		return NULL;
	if (*entry & PTE_LARGE_PAGE) {
		uint64_t base = *entry & PTE_ADDRESS_MASK & ~(LARGE_PAGE_SIZE - 1);
		if (!new_table(&table))
			return NULL;
		for (uint64_t i = 0; i < 512; i++)
			table_of(table)[i] = (base + i * PAGE_SIZE) | PTE_PRESENT_WRITABLE;
		*entry = table;
	}
	return &table_of(*entry)[(address >> 12) & 511];
}

/* Page 0 becomes not-present, so a NULL pointer faults with a report instead of reading
 * the real-mode interrupt table. */
void paging_protect_null_page(void)
{
	uint64_t *pte = pte_of(0);

	if (pte) {
		*pte = 0;
		flush_tlb();
	}
}

bool paging_guard_page(uint64_t address)
{
	uint64_t *pte;

	if (guard_count == MAX_GUARDS || !(pte = pte_of(address)))
		return false;
	*pte &= ~PTE_PRESENT;
	flush_tlb();
	guards[guard_count++] = ALIGN_DOWN(address, PAGE_SIZE);
	return true;
}

bool paging_is_guard(uint64_t address)
{
	for (unsigned i = 0; i < guard_count; i++)
		if (address - guards[i] < PAGE_SIZE)
			return true;
	return false;
}

/* The OS gets the identity map of all memory that the specification promises (2.3.4):
 * the guard pages, boot-services memory like the rest, become present again. */
void paging_unguard_all(void)
{
	for (unsigned i = 0; i < guard_count; i++)
		*pte_of(guards[i]) |= PTE_PRESENT;
	guard_count = 0;
	flush_tlb();
}

bool paging_identity_map(uint64_t start, uint64_t end)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)PAGE_TABLES;
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
	flush_tlb();
	return ok;
}
