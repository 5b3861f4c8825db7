/* The EL1 exception vector table (VBAR_EL1): 16 entries of 0x80 bytes, by origin (current
 * EL with SP_EL0, with SP_ELx, lower EL AArch64, AArch32) and kind (synchronous, IRQ, FIQ,
 * SError). Each saves the general registers, ELR and SPSR in a frame (struct
 * exception_frame, exceptions.c) and calls aarch64_exception(kind, frame); IRQs return.
 *
 * The firmware and its programs run on SP_EL0 (EL1t, entry.S) until ExitBootServices; an
 * exception switches to SP_EL1, the small exception stack below, so a stack that ran into
 * its guard page can still be reported. An IRQ from there goes back to SP_EL0 first: the
 * tick runs timer events, which may need more room than the exception stack has. */
#define FRAME_SIZE (34 * 8)
#define EXCEPTION_STACK_SIZE (16 * 1024)

	.macro	vector kind
	.balign	0x80
	.if	\kind == 1
	msr	spsel, #0
	.endif
	sub	sp, sp, #FRAME_SIZE
	stp	x0, x1, [sp, #0]
	mov	x0, #\kind
	b	vector_common
	.endm

	.text
	.balign	0x800
	.globl	aarch64_vectors
aarch64_vectors:
	.irp	kind, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vector	\kind
	.endr

vector_common:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	mrs	x1, elr_el1
	stp	x30, x1, [sp, #240]
	mrs	x1, spsr_el1
	str	x1, [sp, #256]
	mov	x1, sp
	bl	aarch64_exception
	msr	daifset, #2			/* the tick may have unmasked IRQs */
	ldr	x1, [sp, #256]
	msr	spsr_el1, x1
	ldp	x30, x1, [sp, #240]
	msr	elr_el1, x1
	ldp	x28, x29, [sp, #224]
	ldp	x26, x27, [sp, #208]
	ldp	x24, x25, [sp, #192]
	ldp	x22, x23, [sp, #176]
	ldp	x20, x21, [sp, #160]
	ldp	x18, x19, [sp, #144]
	ldp	x16, x17, [sp, #128]
	ldp	x14, x15, [sp, #112]
	ldp	x12, x13, [sp, #96]
	ldp	x10, x11, [sp, #80]
	ldp	x8, x9, [sp, #64]
	ldp	x6, x7, [sp, #48]
	ldp	x4, x5, [sp, #32]
	ldp	x2, x3, [sp, #16]
	ldp	x0, x1, [sp, #0]
	add	sp, sp, #FRAME_SIZE
	eret

/* Where a faulting program's exception returns to (exceptions.c): onto the stack x0 gives,
 * then image_abort_running, which ends the program as Exit(EFI_ABORTED) would. */
	.globl	aarch64_abort_trampoline
aarch64_abort_trampoline:
	mov	sp, x0
	b	image_abort_running

	.bss
	.balign	16
	.space	EXCEPTION_STACK_SIZE
	.globl	aarch64_exception_stack_top
aarch64_exception_stack_top:

	.section .note.GNU-stack,"",%progbits
