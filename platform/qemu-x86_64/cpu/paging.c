/* Changes to the reset code's identity map once memory can be allocated: page 0 and the
 * guard pages below stacks become not-present, more of the address space gets mapped
 * when PCI apertures lie beyond the first 64 GiB, and pages get the protection the core
 * asks for (plat_memory_protect): read-only, no-execute (EFER.NXE) or not present. */
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include "qemu.h"
#include "cpu/io.h"
#include "reset/layout.h"

#define PTE_PRESENT 0x1ULL
#define PTE_PRESENT_WRITABLE 0x3ULL
#define PTE_WRITABLE 0x2ULL
#define PTE_LARGE_PAGE 0x80ULL
#define PTE_NO_EXECUTE (1ULL << 63)
/* What a 4 KiB entry keeps of the 2 MiB entry it is split from: access and caching bits
 * (bit 7, PAT in a small entry, is the large-page bit and is not copied). */
#define PTE_INHERITED (PTE_NO_EXECUTE | 0x1fULL)
#define MSR_EFER 0xc0000080
#define EFER_NXE (1ULL << 11)
#define CPUID_NX (1u << 20) /* leaf 0x80000001, EDX */
#define CR0_WP (1ULL << 16)
#define PTE_ADDRESS_MASK 0x000ffffffffff000ULL
#define PAGE_SIZE 4096ULL
#define LARGE_PAGE_SIZE (2ULL << 20)
#define GIB (1ULL << 30)
#define MAX_GUARDS 4

static uint64_t guards[MAX_GUARDS]; /* pages made not-present below stacks */
static unsigned guard_count;
static bool nx_enabled;

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
	/* A 2 MiB page made not-present (EFI_MEMORY_RP) keeps its large-page bit. */
	if (!(*entry & (PTE_PRESENT | PTE_LARGE_PAGE)))
		return NULL;
	if (*entry & PTE_LARGE_PAGE) {
		uint64_t base = *entry & PTE_ADDRESS_MASK & ~(LARGE_PAGE_SIZE - 1);
		uint64_t flags = *entry & PTE_INHERITED;
		if (!new_table(&table))
			return NULL;
		for (uint64_t i = 0; i < 512; i++)
			table_of(table)[i] = (base + i * PAGE_SIZE) | flags;
		*entry = table; /* the table's entry allows all: its pages decide */
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

/* Read-only pages bind the firmware too (CR0.WP: ring 0 ignores them otherwise), and
 * no-execute needs EFER.NXE, where the CPU has it (QEMU's CPUs do); without it
 * EFI_MEMORY_XP is not applied. */
void paging_enable_protection(void)
{
	uint32_t eax, ebx, ecx, edx;
	uint64_t cr0;

	__asm__ __volatile__("mov %%cr0, %0" : "=r"(cr0));
	__asm__ __volatile__("mov %0, %%cr0" ::"r"(cr0 | CR0_WP) : "memory");
	__asm__ __volatile__("cpuid"
			     : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx)
			     : "a"(0x80000000));
	if (eax < 0x80000001)
		return;
	__asm__ __volatile__("cpuid"
			     : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx)
			     : "a"(0x80000001), "c"(0));
	if (!(edx & CPUID_NX))
		return;
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	nx_enabled = true;
}

/* An entry (large or small) with the access bits of attributes. */
static uint64_t with_protection(uint64_t entry, uint64_t attributes)
{
	entry &= ~(PTE_NO_EXECUTE | PTE_WRITABLE | PTE_PRESENT);
	if (!(attributes & EFI_MEMORY_RP))
		entry |= PTE_PRESENT;
	if (!(attributes & EFI_MEMORY_RO))
		entry |= PTE_WRITABLE;
	if ((attributes & EFI_MEMORY_XP) && nx_enabled)
		entry |= PTE_NO_EXECUTE;
	return entry;
}

/* The 2 MiB entry mapping address, when it is a large page; NULL otherwise. */
static uint64_t *large_entry_of(uint64_t address)
{
	uint64_t *entry = &((uint64_t *)(uintptr_t)PAGE_TABLES)[(address >> 39) & 511];

	if (!(*entry & PTE_PRESENT))
		return NULL;
	entry = &table_of(*entry)[(address >> 30) & 511];
	if (!(*entry & PTE_PRESENT) || (*entry & PTE_LARGE_PAGE))
		return NULL;
	entry = &table_of(*entry)[(address >> 21) & 511];
	return (*entry & PTE_LARGE_PAGE) ? entry : NULL;
}

/* Page 0, the guard pages and the cold part while it is packed stay not present whatever
 * their range asks for. */
static bool kept_absent(uint64_t address)
{
	return address < PAGE_SIZE || paging_is_guard(address) || cold_is_absent(address);
}

/* The 4 KiB entry of address when its 2 MiB page is split already (nothing is allocated). */
static uint64_t *small_entry_of(uint64_t address)
{
	uint64_t *entry = &((uint64_t *)(uintptr_t)PAGE_TABLES)[(address >> 39) & 511];

	if (!(*entry & PTE_PRESENT))
		return NULL;
	entry = &table_of(*entry)[(address >> 30) & 511];
	if (!(*entry & PTE_PRESENT) || (*entry & PTE_LARGE_PAGE))
		return NULL;
	entry = &table_of(*entry)[(address >> 21) & 511];
	if (!(*entry & PTE_PRESENT) || (*entry & PTE_LARGE_PAGE))
		return NULL;
	return &table_of(*entry)[(address >> 12) & 511];
}

bool paging_cold_absent(uint64_t start, uint64_t end, uint64_t (*tables)[512], unsigned count)
{
	for (uint64_t at = ALIGN_DOWN(start, LARGE_PAGE_SIZE); at < end; at += LARGE_PAGE_SIZE) {
		uint64_t *entry = large_entry_of(at);
		if (!entry)
			continue; /* split already */
		if (!count--)
			return false;
		for (uint64_t i = 0; i < 512; i++)
			(*tables)[i] = (at + i * PAGE_SIZE) | (*entry & PTE_INHERITED);
		*entry = (uint64_t)(uintptr_t)*tables | PTE_PRESENT_WRITABLE;
		tables++;
	}
	for (uint64_t at = start; at < end; at += PAGE_SIZE) {
		uint64_t *entry = small_entry_of(at);
		if (!entry)
			return false;
		*entry &= ~PTE_PRESENT;
	}
	flush_tlb();
	return true;
}

void paging_cold_present(uint64_t start, uint64_t end, bool writable)
{
	for (uint64_t at = start; at < end; at += PAGE_SIZE) {
		uint64_t *entry = small_entry_of(at);
		if (!entry) /* made absent, so split: the map is what paging_cold_absent left */
			continue;
		*entry = (*entry | PTE_PRESENT) & ~(PTE_NO_EXECUTE | PTE_WRITABLE);
		if (writable)
			*entry |= PTE_WRITABLE;
	}
	flush_tlb();
}

EFI_STATUS plat_memory_protect(uint64_t start, uint64_t pages, uint64_t attributes)
{
	uint64_t end = start + pages * PAGE_SIZE, at = start;
	EFI_STATUS status = EFI_SUCCESS;

	while (at < end) {
		uint64_t *entry = large_entry_of(at);
		/* A whole 2 MiB page in the span changes at once; anything less is split. */
		if (entry && IS_ALIGNED(at, LARGE_PAGE_SIZE) && end - at >= LARGE_PAGE_SIZE) {
			*entry = with_protection(*entry, attributes);
			at += LARGE_PAGE_SIZE;
			continue;
		}
		if (!kept_absent(at)) {
			entry = pte_of(at);
			if (!entry) {
				status = EFI_OUT_OF_RESOURCES;
				break;
			}
			*entry = with_protection(*entry, attributes);
		}
		at += PAGE_SIZE;
	}
	flush_tlb();
	return status;
}

/* An entry made writable and executable again, unless it maps part of [keep_start,
 * keep_end). */
static uint64_t released(uint64_t entry, uint64_t address, uint64_t size, uint64_t keep_start,
			 uint64_t keep_end)
{
	if (!(entry & PTE_PRESENT) || (address < keep_end && address + size > keep_start))
		return entry;
	return (entry | PTE_WRITABLE) & ~PTE_NO_EXECUTE;
}

/* Walks the 2 MiB and 4 KiB entries of the map: nothing is allocated or split. */
void paging_release_protection(uint64_t keep_start, uint64_t keep_end)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)PAGE_TABLES;

	for (uint64_t i = 0; i < 512; i++) {
		if (!(pml4[i] & PTE_PRESENT))
			continue;
		for (uint64_t j = 0; j < 512; j++) {
			uint64_t *pdpte = &table_of(pml4[i])[j];
			if (!(*pdpte & PTE_PRESENT) || (*pdpte & PTE_LARGE_PAGE))
				continue;
			for (uint64_t k = 0; k < 512; k++) {
				uint64_t *pde = &table_of(*pdpte)[k];
				uint64_t address = (i << 39) | (j << 30) | (k << 21);
				if (*pde & PTE_LARGE_PAGE) {
					*pde = released(*pde, address, LARGE_PAGE_SIZE, keep_start,
							keep_end);
				} else if (*pde & PTE_PRESENT) {
					for (uint64_t l = 0; l < 512; l++)
						table_of(*pde)[l] = released(
						    table_of(*pde)[l], address + l * PAGE_SIZE,
						    PAGE_SIZE, keep_start, keep_end);
				}
			}
		}
	}
	flush_tlb();
}
