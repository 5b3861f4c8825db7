/* The IDT, exceptions and hardware interrupts. */
#ifndef QEMU_INTERRUPTS_H
#define QEMU_INTERRUPTS_H

#include <stdbool.h>
#include <stdint.h>

/* What the stubs in idt.S leave on the stack, lowest address first. */
struct interrupt_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define IRQ_BASE 32 /* the 8259s are remapped to vectors 32-47 */
#define VECTOR_DOUBLE_FAULT 8
#define VECTOR_PAGE_FAULT 14
/* Their entries in the TSS's interrupt stack table (gdt.c). */
#define IST_DOUBLE_FAULT 1
#define IST_PAGE_FAULT 2

/* Loads an IDT where every exception goes to exception_handle. */
void interrupts_init(void);
/* Has vector's handler run on the stack of entry ist (1-7) of the TSS's interrupt stack
 * table. */
void interrupts_set_stack(unsigned vector, unsigned ist);
/* A handler for a legacy IRQ line (0-15); called with interrupts off, after the EOI. */
void interrupts_set_irq_handler(unsigned irq, void (*handler)(void));
/* Unmasks or masks an IRQ line at the 8259s. */
void pic_unmask(unsigned irq);
void pic_mask_all(void);

/* gdt.c: a GDT with a TSS that gives the page-fault and double-fault handlers their own
 * stacks (allocated here: call once memory can be allocated). */
bool gdt_fault_stacks_init(void);

/* exception.c: the report for a fault, then the machine halts; or, when the fault is the
 * running program's, the frame is changed so that returning from the exception ends
 * that program as Exit(EFI_ABORTED). */
void exception_handle(struct interrupt_frame *frame);

/* Called by the stubs in idt.S with the saved state of every interrupt and exception. */
void interrupt_dispatch(struct interrupt_frame *frame);

#endif
