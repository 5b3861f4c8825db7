/* call_on_stack(fn, arg, stack_top) for AArch64: calls fn(arg) on another stack and
 * returns (see include/ember/lib/util.h). */
	.text
	.globl	call_on_stack
	.type	call_on_stack, %function
call_on_stack:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x9, x0
	mov	x0, x1
	mov	sp, x2			/* 16-byte aligned top of the new stack */
	blr	x9
	mov	sp, x29
	ldp	x29, x30, [sp], #16
	ret
	.size	call_on_stack, . - call_on_stack

	.section .note.GNU-stack,"",%progbits
