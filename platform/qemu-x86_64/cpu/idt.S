/* Interrupt and exception entry stubs. Each pushes its vector (and a zero where the CPU
 * pushes no error code), then interrupt_common saves every register and the SSE state,
 * calls interrupt_dispatch(struct interrupt_frame *) and returns with iretq. */

	.text
.macro STUB_NOERR n
	.globl	interrupt_stub_\n
interrupt_stub_\n:
	pushq	$0
	pushq	$\n
	jmp	interrupt_common
.endm
.macro STUB_ERR n
	.globl	interrupt_stub_\n
interrupt_stub_\n:
	pushq	$\n
	jmp	interrupt_common
.endm

	/* Exceptions 8, 10-14, 17, 21, 29, 30 push an error code. */
	STUB_NOERR 0
	STUB_NOERR 1
	STUB_NOERR 2
	STUB_NOERR 3
	STUB_NOERR 4
	STUB_NOERR 5
	STUB_NOERR 6
	STUB_NOERR 7
	STUB_ERR 8
	STUB_NOERR 9
	STUB_ERR 10
	STUB_ERR 11
	STUB_ERR 12
	STUB_ERR 13
	STUB_ERR 14
	STUB_NOERR 15
	STUB_NOERR 16
	STUB_ERR 17
	STUB_NOERR 18
	STUB_NOERR 19
	STUB_NOERR 20
	STUB_ERR 21
	STUB_NOERR 22
	STUB_NOERR 23
	STUB_NOERR 24
	STUB_NOERR 25
	STUB_NOERR 26
	STUB_NOERR 27
	STUB_NOERR 28
	STUB_ERR 29
	STUB_ERR 30
	STUB_NOERR 31
	.irp n, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	STUB_NOERR \n
	.endr
	STUB_NOERR 255

interrupt_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, %rbx		/* the frame; rbx survives the call */
	subq	$512, %rsp
	andq	$-16, %rsp
	fxsave	(%rsp)
	cld
	movq	%rbx, %rdi
	callq	interrupt_dispatch
	fxrstor	(%rsp)
	movq	%rbx, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp		/* vector and error code */
	iretq

	.section .rodata
	.balign	8
	.globl	interrupt_stubs
interrupt_stubs:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	.quad	interrupt_stub_\n
	.endr
	.globl	interrupt_stub_default
interrupt_stub_default:
	.quad	interrupt_stub_255

	.section .note.GNU-stack,"",@progbits
