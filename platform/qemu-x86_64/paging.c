/* Changes to the reset code's identity map once memory can be allocated. */
#include <ember/core.h>
#include <ember/str.h>
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
