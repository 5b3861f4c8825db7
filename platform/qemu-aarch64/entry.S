/* The first instructions after QEMU's reset, run in place from the code flash at 0 with
 * the MMU off: drop from EL2 to EL1 when started there, allow FP/SIMD, copy the image to
 * the RAM address it is linked at (core.ld), clear .bss, take the early stack (on SP_EL0:
 * SP_EL1 is the exception stack, vectors.S) and go on in C (main.c). Only PC-relative code
 * until the jump: the flash is not where it is linked. */
	.section .text.entry, "ax"
	.globl	aarch64_reset
	.type	aarch64_reset, %function
aarch64_reset:
	mrs	x19, CurrentEL
	lsr	x19, x19, #2
	cmp	x19, #2
	b.ne	1f
	/* EL2: EL1 runs AArch64 and reads the counters without traps. */
	mov	x19, #(1 << 31)			/* HCR_EL2.RW */
	msr	hcr_el2, x19
	mov	x19, #3				/* CNTHCTL_EL2.EL1PCTEN, EL1PCEN */
	msr	cnthctl_el2, x19
	msr	cntvoff_el2, xzr
	/* A GICv3 CPU interface (ID_AA64PFR0_EL1.GIC): EL1 may use its system registers. */
	mrs	x19, id_aa64pfr0_el1
	ubfx	x19, x19, #24, #4
	cbz	x19, 0f
	mov	x19, #0xf			/* ICC_SRE_EL2: SRE, DFB, DIB, Enable */
	msr	s3_4_c12_c9_5, x19
	isb
0:	mov	x19, #0x3c5			/* EL1h, D, A, I and F masked */
	msr	spsr_el2, x19
	adr	x19, 1f
	msr	elr_el2, x19
	eret
1:	mov	x19, #(3 << 20)			/* CPACR_EL1.FPEN: no FP/SIMD traps */
	msr	cpacr_el1, x19
	isb
	adr	x0, aarch64_reset		/* where the image is (the flash) */
	ldr	x1, =__image_start
	ldr	x2, =__image_file_end
	cmp	x0, x1
	b.eq	3f
2:	ldp	x3, x4, [x0], #16
	stp	x3, x4, [x1], #16
	cmp	x1, x2
	b.lo	2b
3:	ldr	x1, =__bss_start
	ldr	x2, =__bss_end
4:	cmp	x1, x2
	b.hs	5f
	stp	xzr, xzr, [x1], #16
	b	4b
5:	ldr	x0, =aarch64_exception_stack_top	/* SP_EL1: exceptions only (vectors.S) */
	mov	sp, x0
	msr	spsel, #0			/* EL1t: the firmware runs on SP_EL0 */
	ldr	x0, =__early_stack_top
	mov	sp, x0
	ldr	x0, =aarch64_main
	br	x0
	.ltorg
	.size	aarch64_reset, . - aarch64_reset

	.section .note.GNU-stack,"",%progbits
