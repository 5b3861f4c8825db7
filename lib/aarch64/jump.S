/* jump_set / jump_long for AArch64 (see include/ember/lib/arch.h): AAPCS64 makes x19-x28,
 * x29 (frame pointer), x30 (link register), sp and d8-d15 callee-saved. */
	.text
	.globl	jump_set
	.type	jump_set, %function
jump_set:
	stp	x19, x20, [x0, #0x00]
	stp	x21, x22, [x0, #0x10]
	stp	x23, x24, [x0, #0x20]
	stp	x25, x26, [x0, #0x30]
	stp	x27, x28, [x0, #0x40]
	stp	x29, x30, [x0, #0x50]
	mov	x9, sp
	str	x9, [x0, #0x60]
	stp	d8, d9, [x0, #0x68]
	stp	d10, d11, [x0, #0x78]
	stp	d12, d13, [x0, #0x88]
	stp	d14, d15, [x0, #0x98]
	mov	w0, #0
	ret
	.size	jump_set, . - jump_set

	.globl	jump_long
	.type	jump_long, %function
jump_long:
	ldp	x19, x20, [x0, #0x00]
	ldp	x21, x22, [x0, #0x10]
	ldp	x23, x24, [x0, #0x20]
	ldp	x25, x26, [x0, #0x30]
	ldp	x27, x28, [x0, #0x40]
	ldp	x29, x30, [x0, #0x50]
	ldr	x9, [x0, #0x60]
	mov	sp, x9
	ldp	d8, d9, [x0, #0x68]
	ldp	d10, d11, [x0, #0x78]
	ldp	d12, d13, [x0, #0x88]
	ldp	d14, d15, [x0, #0x98]
	cmp	w1, #0
	csinc	w0, w1, wzr, ne		/* a jump never returns 0 */
	ret				/* to jump_set's caller, through the saved x30 */
	.size	jump_long, . - jump_long

	.section .note.GNU-stack,"",%progbits
