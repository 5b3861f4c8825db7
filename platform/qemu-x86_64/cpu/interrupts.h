/* The IDT, exceptions and hardware interrupts. */
#ifndef QEMU_INTERRUPTS_H
#define QEMU_INTERRUPTS_H

#include <stdint.h>

/* What the stubs in idt.S leave on the stack, lowest address first. */
struct interrupt_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define IRQ_BASE 32 /* the 8259s are remapped to vectors 32-47 */

/* Loads an IDT where every exception produces a report and halts. */
void interrupts_init(void);
/* A handler for a legacy IRQ line (0-15); called with interrupts off, after the EOI. */
void interrupts_set_irq_handler(unsigned irq, void (*handler)(void));
/* Unmasks or masks an IRQ line at the 8259s. */
void pic_unmask(unsigned irq);
void pic_mask_all(void);

/* exception.c: the report for a fault. */
_Noreturn void exception_report(const struct interrupt_frame *frame);

/* Called by the stubs in idt.S with the saved state of every interrupt and exception. */
void interrupt_dispatch(struct interrupt_frame *frame);

#endif
