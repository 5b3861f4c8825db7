/* The IDT, the 8259 interrupt controllers, and dispatch from the stubs in idt.S. */
#include <ember/lib/util.h>
#include "cpu/interrupts.h"
#include "cpu/io.h"
#include "qemu.h"

#define PIC1 0x20
#define PIC2 0xa0
#define PIC_EOI 0x20
#define IDT_ENTRIES 256
#define KERNEL_CS 0x18 /* the 64-bit code segment of the reset code's GDT */

struct idt_entry {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type; /* 0x8e: present, ring 0, 64-bit interrupt gate */
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
};
_Static_assert(sizeof(struct idt_entry) == 16, "IDT entry layout");

extern const uint64_t interrupt_stubs[48];
extern const uint64_t interrupt_stub_default;

static struct idt_entry idt[IDT_ENTRIES] __attribute__((aligned(16)));
static void (*irq_handlers[16])(void);
static uint8_t pic_masks[2] = {0xff, 0xff};

static void idt_set(unsigned vector, uint64_t handler)
{
	idt[vector] = (struct idt_entry){
	    .offset_low = (uint16_t)handler,
	    .selector = KERNEL_CS,
	    .type = 0x8e,
	    .offset_mid = (uint16_t)(handler >> 16),
	    .offset_high = (uint32_t)(handler >> 32),
	};
}

/* Both 8259s to vectors 32-47, every line masked: they read 0 (all open) at reset. */
static void pic_init(void)
{
	outb(PIC1, 0x11);
	outb(PIC2, 0x11);
	outb(PIC1 + 1, IRQ_BASE);
	outb(PIC2 + 1, IRQ_BASE + 8);
	outb(PIC1 + 1, 4); /* slave on IRQ2 */
	outb(PIC2 + 1, 2);
	outb(PIC1 + 1, 0x01);
	outb(PIC2 + 1, 0x01);
	outb(PIC1 + 1, pic_masks[0]);
	outb(PIC2 + 1, pic_masks[1]);
}

void pic_unmask(unsigned irq)
{
	if (irq >= 8) {
		pic_masks[0] &= (uint8_t) ~(1u << 2);
		pic_masks[1] &= (uint8_t) ~(1u << (irq - 8));
	} else {
		pic_masks[0] &= (uint8_t) ~(1u << irq);
	}
	outb(PIC1 + 1, pic_masks[0]);
	outb(PIC2 + 1, pic_masks[1]);
}

void pic_mask_all(void)
{
	pic_masks[0] = pic_masks[1] = 0xff;
	outb(PIC1 + 1, 0xff);
	outb(PIC2 + 1, 0xff);
}

/* The local APIC starts with its LINT pins masked: pass the 8259's output through
 * (LINT0 as ExtINT, "virtual wire" mode) and NMIs on LINT1. */
#define MSR_APIC_BASE 0x1b
#define LAPIC_TPR 0x080
#define LAPIC_SVR 0x0f0
#define LAPIC_LINT0 0x350
#define LAPIC_LINT1 0x360
#define SVR_ENABLE 0x100
#define SPURIOUS_VECTOR 0xff
#define LVT_EXTINT 0x700
#define LVT_NMI 0x400

static void lapic_virtual_wire(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE) & ~0xfffULL;

	mmio_write32(base + LAPIC_TPR, 0);
	mmio_write32(base + LAPIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
	mmio_write32(base + LAPIC_LINT0, LVT_EXTINT);
	mmio_write32(base + LAPIC_LINT1, LVT_NMI);
}

void interrupts_init(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = {sizeof(idt) - 1, 0};

	/* Set here, not in the initializer: a constant copy would put an unaligned absolute
	 * address in .data, which scripts/mkfd's map of pointer slots refuses. */
	idtr.base = (uint64_t)(uintptr_t)idt;
	for (unsigned v = 0; v < IDT_ENTRIES; v++)
		idt_set(v, v < ARRAY_SIZE(interrupt_stubs) ? interrupt_stubs[v]
							   : interrupt_stub_default);
	__asm__ __volatile__("lidt %0" ::"m"(idtr));
	pic_init();
	lapic_virtual_wire();
}

void interrupts_set_stack(unsigned vector, unsigned ist)
{
	idt[vector].ist = (uint8_t)ist;
}

void interrupts_set_irq_handler(unsigned irq, void (*handler)(void))
{
	irq_handlers[irq] = handler;
}

/* A line the 8259 did not really raise (IRQ 7/15 glitches) needs no EOI to its own chip. */
static bool is_spurious(unsigned irq)
{
	uint16_t port = irq < 8 ? PIC1 : PIC2;
	outb(port, 0x0b); /* read the in-service register */
	return !(inb(port) & (1u << (irq & 7)));
}

void interrupt_dispatch(struct interrupt_frame *frame)
{
	unsigned irq;

	if (frame->vector < IRQ_BASE) {
		uint64_t cr2;
		__asm__ __volatile__("mov %%cr2, %0" : "=r"(cr2));
		if (frame->vector == VECTOR_PAGE_FAULT && cold_fault(frame->error_code, cr2))
			return; /* the cold part is there now: the instruction runs again */
		/* The report's code may lie in the cold part: a fault in there would take the
		 * page-fault stack this handler may be on. */
		cold_unpack(0);
		exception_handle(frame);
		return;
	}
	if (frame->vector >= IRQ_BASE + 16)
		return; /* stray vector: nothing to acknowledge */
	irq = (unsigned)frame->vector - IRQ_BASE;
	if ((irq == 7 || irq == 15) && is_spurious(irq)) {
		if (irq == 15)
			outb(PIC1, PIC_EOI);
		return;
	}
	/* Acknowledge first: the handler may enable interrupts for nested ticks. */
	if (irq >= 8)
		outb(PIC2, PIC_EOI);
	outb(PIC1, PIC_EOI);
	if (irq_handlers[irq])
		irq_handlers[irq]();
}
