/* The GDT moves to RAM with a task-state segment, whose interrupt stack table gives the
 * page-fault and double-fault handlers stacks of their own. A stack that overflows into
 * its guard page then gets a report: on the faulting stack the CPU could not even push
 * the exception's frame, and would fault again until it resets (a triple fault). */
#include <ember/core/core.h>
#include "cpu/interrupts.h"
#include "cpu/tss.h"
#include "reset/layout.h"

#define FAULT_STACK_SIZE (16 * 1024)
#define TSS_SELECTOR 0x20
#define TSS_AVAILABLE_64 0x89ULL /* present, ring 0, available 64-bit TSS */

static struct x86_tss tss;

/* The reset code's descriptors at the same selectors (reset/layout.h), so no segment
 * register needs loading again; then the TSS's 16-byte descriptor. */
static uint64_t gdt[6] __attribute__((aligned(16))) = {
    0, 0x00cf9b000000ffffULL, /* GDT_CODE32 */
    0x00cf93000000ffffULL,    /* GDT_DATA */
    0x00af9b000000ffffULL,    /* GDT_CODE64 */
};
_Static_assert(GDT_CODE64 == 0x18 && TSS_SELECTOR == 4 * 8, "GDT layout");

static void tss_descriptor(uint64_t base, uint64_t limit)
{
	gdt[4] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (TSS_AVAILABLE_64 << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[5] = base >> 32;
}

bool gdt_fault_stacks_init(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr = {sizeof(gdt) - 1, 0};
	EFI_PHYSICAL_ADDRESS stacks;

	/* Set here, not in the initializer: a constant copy would put an unaligned absolute
	 * address in .data, which scripts/mkfd's map of pointer slots refuses. */
	gdtr.base = (uint64_t)(uintptr_t)gdt;

	if (EFI_ERROR(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData,
					 2 * FAULT_STACK_SIZE / 4096, &stacks)))
		return false;
	tss.ist[IST_DOUBLE_FAULT - 1] = stacks + FAULT_STACK_SIZE;
	tss.ist[IST_PAGE_FAULT - 1] = stacks + 2 * FAULT_STACK_SIZE;
	tss.io_map_base = sizeof(tss); /* no I/O permission bitmap */
	tss_descriptor((uint64_t)(uintptr_t)&tss, sizeof(tss) - 1);
	__asm__ __volatile__("lgdt %0; ltr %w1" ::"m"(gdtr), "r"(TSS_SELECTOR) : "memory");
	interrupts_set_stack(VECTOR_DOUBLE_FAULT, IST_DOUBLE_FAULT);
	interrupts_set_stack(VECTOR_PAGE_FAULT, IST_PAGE_FAULT);
	return true;
}
