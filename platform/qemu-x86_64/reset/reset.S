/* From the reset vector to the core in 64-bit mode.
 *
 * At reset the CPU runs 16-bit code at 0xFFFFFFF0 with CS base 0xFFFF0000; this blob is the
 * last 8 KiB of the firmware image, linked there (near enough for the vector's jump). It
 * loads a flat GDT, enters 32-bit
 * protected mode, identity-maps the first 64 GiB with 2 MiB pages, enters long mode,
 * enables SSE, unpacks the core from flash into RAM (lib/inflate.c), undoes the call filter
 * (lib/call_filter.c), moves its data above the place of its cold part (which the core
 * unpacks itself when needed: cpu/cold.c), clears its BSS and calls it.
 * The core's placement is described by `core_descriptor`, which scripts/mkfd fills in. */

#include "layout.h"

	.section .text.reset, "ax"
	.code16
	.globl	reset_base
reset_base:

/* ---- 16-bit: into protected mode ---- */
real_mode_entry:
	cli
	cld
	/* 0x66: load a 32-bit GDT base; CS-relative (CS base 0xFFFF0000), since DS is not
	 * set up yet. */
	lgdtl	%cs:(gdt_descriptor - reset_base + RESET_BASE_IN_CS)
	movl	%cr0, %eax
	andl	$~(CR0_CD | CR0_NW), %eax	/* caches on */
	orl	$CR0_PE, %eax
	movl	%eax, %cr0
	ljmpl	$GDT_CODE32, $protected_mode_entry

/* ---- 32-bit: page tables, then long mode ---- */
	.code32
protected_mode_entry:
	movl	$GDT_DATA, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	/* A wake from S3 takes its own path before any RAM is touched (s3_resume.S); it
	 * comes back here for a normal boot. */
	jmp	s3_resume
	.globl	s3_resume_declined
s3_resume_declined:

	/* Zero the PML4 and the PDPT; every page directory is written whole below. */
	movl	$PAGE_TABLES, %edi
	movl	$(PD_OFFSET / 4), %ecx
	xorl	%eax, %eax
	rep stosl

	/* PML4[0] -> PDPT */
	movl	$(PAGE_TABLES + PDPT_OFFSET + PTE_PRESENT_RW), PAGE_TABLES

	/* PDPT[i] -> PD i, for each GiB */
	movl	$PAGE_TABLES + PDPT_OFFSET, %edi
	movl	$(PAGE_TABLES + PD_OFFSET + PTE_PRESENT_RW), %eax
	movl	$IDENTITY_GIB, %ecx
1:	movl	%eax, (%edi)
	addl	$8, %edi
	addl	$0x1000, %eax
	loop	1b

	/* PD entries, 2 MiB pages: the first 4 GiB here (the reset code runs at their top),
	 * the rest in long mode, where SSE writes two entries a step (each instruction counts
	 * in virtual time). */
	movl	$PAGE_TABLES + PD_OFFSET, %edi
	movl	$(PTE_PRESENT_RW | PTE_LARGE), %eax
	xorl	%edx, %edx
	movl	$(LOW_GIB * 512), %ecx
2:	movl	%eax, (%edi)
	movl	%edx, 4(%edi)
	addl	$8, %edi
	addl	$0x200000, %eax
	loop	2b

	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	$PAGE_TABLES, %eax
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	rdmsr
	orl	$EFER_LME, %eax
	wrmsr
	movl	%cr0, %eax
	orl	$CR0_PG, %eax
	movl	%eax, %cr0
	ljmpl	$GDT_CODE64, $long_mode_entry

/* ---- 64-bit: SSE, the core into RAM, and call it ---- */
	.code64
long_mode_entry:
	movl	$GDT_DATA, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	movq	$EARLY_STACK_TOP, %rsp

	/* SSE: no emulation, monitor the coprocessor, OS supports FXSAVE and SIMD faults. */
	movq	%cr0, %rax
	andq	$~CR0_EM, %rax
	orq	$CR0_MP, %rax
	movq	%rax, %cr0
	movq	%cr4, %rax
	orq	$(CR4_OSFXSR | CR4_OSXMMEXCPT), %rax
	movq	%rax, %cr4

	/* The page directories above 4 GiB: xmm0 holds two consecutive entries, xmm1 twice
	 * the 4 MiB they move by. */
	movq	$(PAGE_TABLES + PD_OFFSET + LOW_GIB * 0x1000), %rdi
	movq	$(PAGE_TABLES + PD_OFFSET + IDENTITY_GIB * 0x1000), %rcx
	movabsq	$((LOW_GIB << 30) | PTE_PRESENT_RW | PTE_LARGE), %rax
	movq	%rax, %xmm0
	addq	$0x200000, %rax
	movq	%rax, %xmm2
	punpcklqdq %xmm2, %xmm0
	movl	$0x400000, %eax
	movq	%rax, %xmm1
	punpcklqdq %xmm1, %xmm1
5:	movdqa	%xmm0, (%rdi)
	paddq	%xmm1, %xmm0
	movdqa	%xmm0, 16(%rdi)
	paddq	%xmm1, %xmm0
	addq	$32, %rdi
	cmpq	%rcx, %rdi
	jb	5b
	/* They were not zeroed first: no translation from what was there may stay cached. */
	movq	%cr3, %rax
	movq	%rax, %cr3

	/* The verified start: nothing from the image runs unless the packed core and the
	 * firmware volume's header are whole (verify.c). */
	leaq	core_descriptor(%rip), %rdi
	call	reset_verify
	testq	%rax, %rax
	jnz	verify_failed

	/* inflate_raw(flash, packed size, load address, file size, &produced): the core is
	 * stored DEFLATE-compressed, which halves the flash it takes. */
	subq	$16, %rsp
	movq	core_descriptor + CORE_FLASH(%rip), %rdi
	movq	core_descriptor + CORE_PACKED_SIZE(%rip), %rsi
	movq	core_descriptor + CORE_LOAD(%rip), %rdx
	movq	core_descriptor + CORE_FILE_SIZE(%rip), %rcx
	movq	%rsp, %r8
	call	inflate_raw
	testb	%al, %al
	jz	unpack_failed
	movq	(%rsp), %rcx
	cmpq	core_descriptor + CORE_FILE_SIZE(%rip), %rcx
	jne	unpack_failed
	addq	$16, %rsp

	/* call_filter_decode(load address, code size): mkfd made the calls' targets offsets
	 * from the start, which packs better. */
	movq	core_descriptor + CORE_LOAD(%rip), %rdi
	movq	core_descriptor + CORE_CALLS_SIZE(%rip), %rsi
	call	call_filter_decode

	/* The core's data came right after its hot code; it goes up to its place above the
	 * cold part's (left for cpu/cold.c), last byte first, as the two may overlap. Its size
	 * and both places are multiples of 8 (mkfd). */
	movq	core_descriptor + CORE_LOAD(%rip), %rsi
	movq	%rsi, %rdi
	addq	core_descriptor + CORE_MOVE_AT(%rip), %rsi
	addq	core_descriptor + CORE_MOVE_TO(%rip), %rdi
	movq	core_descriptor + CORE_FILE_SIZE(%rip), %rcx
	subq	core_descriptor + CORE_MOVE_AT(%rip), %rcx
	leaq	(%rdi,%rcx), %rdx	/* the end of the data: the BSS starts there */
	shrq	$3, %rcx
	leaq	-8(%rsi,%rcx,8), %rsi
	leaq	-8(%rdi,%rcx,8), %rdi
	std
	rep movsq
	cld
	movq	%rdx, %rdi
	movq	core_descriptor + CORE_BSS_END(%rip), %rcx
	subq	%rdi, %rcx
	/* Eight bytes a step, then the rest: each step of a rep counts as an instruction. */
	movq	%rcx, %rdx
	shrq	$3, %rcx
	xorl	%eax, %eax
	rep stosq
	movq	%rdx, %rcx
	andq	$7, %rcx
	rep stosb

	movq	core_descriptor + CORE_ENTRY(%rip), %rax
	callq	*%rax
3:	cli
	hlt
	jmp	3b

/* A damaged image: say so on the debug console and the serial port, then stop. */
verify_failed:
	movq	%rax, %rsi
	jmp	4f
unpack_failed:
	leaq	unpack_failed_message(%rip), %rsi
4:	movb	(%rsi), %al
	testb	%al, %al
	jz	3b
	movw	$DEBUGCON_PORT, %dx
	outb	%al, %dx
	movw	$SERIAL_PORT, %dx
	outb	%al, %dx
	incq	%rsi
	jmp	4b
unpack_failed_message:
	.asciz	"Ember: the firmware image is damaged (the core does not unpack)\r\n"

/* ---- Data ---- */
	.balign	16
gdt:
	.quad	0
	.quad	0x00cf9b000000ffff	/* 0x08: 32-bit code, flat */
	.quad	0x00cf93000000ffff	/* 0x10: data, flat */
	.quad	0x00af9b000000ffff	/* 0x18: 64-bit code */
gdt_end:
gdt_descriptor:
	.word	gdt_end - gdt - 1
	.long	gdt

	.balign	16
	.globl	core_descriptor
core_descriptor:	/* filled by scripts/mkfd; see layout.h for the fields */
	.ascii	"EMBERCOR"
	.fill	CORE_DESCRIPTOR_SIZE - 8, 1, 0

/* ---- The reset vector itself, the last 16 bytes of the 4 GiB address space ---- */
	.section .text.vector, "ax"
	.code16
	.globl	reset_vector
reset_vector:
	jmp	real_mode_entry
	.balign	16, 0xcc
