/* jump_set / jump_long: setjmp and longjmp for Exit(), which unwinds from anywhere in an
 * image back to its StartImage. Saves the callee-saved registers of both the System V and
 * the Microsoft x64 ABI (rdi, rsi and xmm6-15 are callee-saved only in the latter), plus
 * the SSE and x87 control words. */
	.text
	.globl	jump_set
	.type	jump_set, @function
jump_set:
	movq	%rbx, 0x00(%rdi)
	movq	%rbp, 0x08(%rdi)
	movq	%r12, 0x10(%rdi)
	movq	%r13, 0x18(%rdi)
	movq	%r14, 0x20(%rdi)
	movq	%r15, 0x28(%rdi)
	leaq	8(%rsp), %rax		/* the caller's stack pointer after our return */
	movq	%rax, 0x30(%rdi)
	movq	(%rsp), %rax		/* our return address */
	movq	%rax, 0x38(%rdi)
	movq	%rdi, 0x40(%rdi)
	movq	%rsi, 0x48(%rdi)
	movdqu	%xmm6, 0x50(%rdi)
	movdqu	%xmm7, 0x60(%rdi)
	movdqu	%xmm8, 0x70(%rdi)
	movdqu	%xmm9, 0x80(%rdi)
	movdqu	%xmm10, 0x90(%rdi)
	movdqu	%xmm11, 0xa0(%rdi)
	movdqu	%xmm12, 0xb0(%rdi)
	movdqu	%xmm13, 0xc0(%rdi)
	movdqu	%xmm14, 0xd0(%rdi)
	movdqu	%xmm15, 0xe0(%rdi)
	stmxcsr	0xf0(%rdi)
	fnstcw	0xf4(%rdi)
	xorl	%eax, %eax
	ret
	.size	jump_set, . - jump_set

	.globl	jump_long
	.type	jump_long, @function
jump_long:
	movl	%esi, %eax
	movq	0x00(%rdi), %rbx
	movq	0x08(%rdi), %rbp
	movq	0x10(%rdi), %r12
	movq	0x18(%rdi), %r13
	movq	0x20(%rdi), %r14
	movq	0x28(%rdi), %r15
	movq	0x30(%rdi), %rsp
	movq	0x48(%rdi), %rsi
	movdqu	0x50(%rdi), %xmm6
	movdqu	0x60(%rdi), %xmm7
	movdqu	0x70(%rdi), %xmm8
	movdqu	0x80(%rdi), %xmm9
	movdqu	0x90(%rdi), %xmm10
	movdqu	0xa0(%rdi), %xmm11
	movdqu	0xb0(%rdi), %xmm12
	movdqu	0xc0(%rdi), %xmm13
	movdqu	0xd0(%rdi), %xmm14
	movdqu	0xe0(%rdi), %xmm15
	ldmxcsr	0xf0(%rdi)
	fldcw	0xf4(%rdi)
	movq	0x38(%rdi), %rdx
	movq	0x40(%rdi), %rdi
	testl	%eax, %eax
	jnz	1f
	incl	%eax			/* a jump never returns 0 */
1:	jmp	*%rdx
	.size	jump_long, . - jump_long

	.section .note.GNU-stack,"",@progbits
