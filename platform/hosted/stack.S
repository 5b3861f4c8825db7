/* hosted_call_on_stack(fn, arg, stack_top): calls fn(arg) on another stack and returns.
 * EFI programs run on a stack in firmware memory, as they would on a machine. */
	.text
	.globl	hosted_call_on_stack
	.type	hosted_call_on_stack, @function
hosted_call_on_stack:
	pushq	%rbp
	movq	%rsp, %rbp
	movq	%rdx, %rsp		/* 16-byte aligned top of the new stack */
	movq	%rdi, %rax
	movq	%rsi, %rdi
	callq	*%rax
	movq	%rbp, %rsp
	popq	%rbp
	retq
	.size	hosted_call_on_stack, . - hosted_call_on_stack

	.section .note.GNU-stack,"",@progbits
