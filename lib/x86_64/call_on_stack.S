/* call_on_stack(fn, arg, stack_top): calls fn(arg) on another stack and returns.
 * Platforms use it to move the firmware (and the programs it runs) onto a stack in
 * firmware memory. */
	.text
	.globl	call_on_stack
	.type	call_on_stack, @function
call_on_stack:
	pushq	%rbp
	movq	%rsp, %rbp
	movq	%rdx, %rsp		/* 16-byte aligned top of the new stack */
	movq	%rdi, %rax
	movq	%rsi, %rdi
	callq	*%rax
	movq	%rbp, %rsp
	popq	%rbp
	retq
	.size	call_on_stack, . - call_on_stack

	.section .note.GNU-stack,"",@progbits
