/* The S3 resume path of the reset stage, taken in 32-bit protected mode right after
 * reset.S enters it and before it touches any RAM (the OS's memory is intact on a wake):
 * if QEMU's RTC says the machine wakes from S3 (CMOS shutdown status 0xFE) and the S3
 * record (s3.h) and the OS's FACS are valid, it replays the record (chipset and PCI
 * configuration, MTRRs) and jumps to the OS's waking vector: the real-mode
 * FirmwareWakingVector (as Linux sets it) or a 32-bit X_FirmwareWakingVector. Anything
 * else goes back to reset.S for a normal boot, never a hang (ACPI 6.5 sections 5.2.10 and
 * 16.3). */

#include "layout.h"
#include "s3.h"

#define GDT_CODE16 0x18
#define GDT_DATA16 0x20
#define CS16_BASE 0xffff0000

	.section .text, "ax"
	.code32
	.globl	s3_resume
s3_resume:
	movb	$CMOS_SHUTDOWN_STATUS, %al
	outb	%al, $CMOS_INDEX
	inb	$CMOS_DATA, %al
	cmpb	$CMOS_S3_RESUME, %al
	jne	s3_resume_declined
	/* From here a reset boots normally, whatever happens next. */
	movb	$CMOS_SHUTDOWN_STATUS, %al
	outb	%al, $CMOS_INDEX
	xorl	%eax, %eax
	outb	%al, $CMOS_DATA

	movl	$S3_RECORD, %esi
	cmpl	$S3_SIGNATURE_LO, S3_SIGNATURE(%esi)
	jne	s3_damaged
	cmpl	$S3_SIGNATURE_HI, S3_SIGNATURE + 4(%esi)
	jne	s3_damaged
	movl	S3_COUNT(%esi), %ecx
	cmpl	$S3_MAX_ENTRIES, %ecx
	ja	s3_damaged
	shll	$4, %ecx
	addl	$S3_HEADER_SIZE, %ecx
	cmpl	S3_LENGTH(%esi), %ecx
	jne	s3_damaged
	/* The 32-bit words sum to zero. */
	shrl	$2, %ecx
	xorl	%eax, %eax
	movl	%esi, %edi
1:	addl	(%edi), %eax
	addl	$4, %edi
	loop	1b
	testl	%eax, %eax
	jnz	s3_damaged

	/* The FACS (placed by QEMU's table loader, address saved at ExitBootServices). */
	movl	S3_FACS(%esi), %ebx
	testl	%ebx, %ebx
	jz	s3_damaged
	cmpl	$FACS_SIGNATURE, (%ebx)
	jne	s3_damaged
	cmpl	$FACS_MIN_LENGTH, FACS_LENGTH(%ebx)
	jb	s3_damaged
	cmpl	$0, FACS_X_WAKING_VECTOR + 4(%ebx)
	jne	s3_unsupported	/* above 4 GiB: 64-bit wake, not done here */
	movl	FACS_X_WAKING_VECTOR(%ebx), %edx
	testl	%edx, %edx
	jnz	2f
	movl	FACS_WAKING_VECTOR(%ebx), %edx
	testl	%edx, %edx
	jz	s3_unsupported
	cmpl	$0x100000, %edx	/* real mode reaches 1 MiB */
	jae	s3_unsupported
	jmp	3f
2:	/* A 32-bit X vector, unless the OS asked for a 64-bit wake. */
	testl	$FACS_64BIT_WAKE_F, FACS_OSPM_FLAGS(%ebx)
	jnz	s3_unsupported

	movl	$1, S3_AREA + S3_VECTOR_KIND
	jmp	13f
3:	movl	$0, S3_AREA + S3_VECTOR_KIND
13:	/* Valid: replay the entries, then go to the vector (ebx). */
	movl	%edx, %ebx
	leal	S3_HEADER_SIZE(%esi), %edi
	movl	S3_COUNT(%esi), %esi
	jmp	5f
4:	movl	4(%edi), %ecx
	movl	8(%edi), %eax
	cmpl	$S3_KIND_PCI, (%edi)
	jne	6f
	movl	%ecx, %eax
	movw	$0xcf8, %dx
	outl	%eax, %dx
	movl	8(%edi), %eax
	movw	$0xcfc, %dx
	outl	%eax, %dx
	jmp	8f
6:	cmpl	$S3_KIND_MSR, (%edi)
	jne	7f
	movl	12(%edi), %edx
	wrmsr
	jmp	8f
7:	cmpl	$S3_KIND_IO16, (%edi)
	jne	8f
	movl	%ecx, %edx
	outw	%ax, %dx
8:	addl	$S3_ENTRY_SIZE, %edi
	decl	%esi
5:	testl	%esi, %esi
	jnz	4b

	/* Say so on the debug console. */
	leal	s3_resuming_message, %esi
	movw	$DEBUGCON_PORT, %dx
9:	lodsb
	testb	%al, %al
	jz	10f
	outb	%al, %dx
	jmp	9b
10:
	/* The 32-bit waking vector: flat protected mode, paging off, as we are. */
	cmpl	$0, S3_AREA + S3_VECTOR_KIND
	jne	s3_jump32
	/* The real-mode vector V: CS = V >> 4, IP = V & 0xF, through the far pointer in the
	 * scratch bytes, from a 16-bit segment (our code, CS base 0xFFFF0000) with PE off. */
	movl	%ebx, %eax
	andl	$0xf, %eax
	movw	%ax, S3_AREA + S3_FAR_POINTER
	movl	%ebx, %eax
	shrl	$4, %eax
	movw	%ax, S3_AREA + S3_FAR_POINTER + 2
	lgdtl	s3_gdt_descriptor
	ljmpl	$GDT_CODE16, $(s3_real_mode - CS16_BASE)
s3_jump32:
	xorl	%eax, %eax
	jmp	*%ebx

	.code16
s3_real_mode:
	movw	$GDT_DATA16, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs
	movl	%cr0, %eax
	andl	$~CR0_PE, %eax
	movl	%eax, %cr0
	movw	$(S3_AREA >> 4), %ax
	movw	%ax, %ds
	ljmpw	*S3_FAR_POINTER

	.code32
/* A wake the record cannot serve: tell the debug console, then boot normally. */
s3_unsupported:
	leal	s3_unsupported_message, %esi
	jmp	11f
s3_damaged:
	leal	s3_damaged_message, %esi
11:	movw	$DEBUGCON_PORT, %dx
12:	lodsb
	testb	%al, %al
	jz	s3_resume_declined
	outb	%al, %dx
	jmp	12b

s3_resuming_message:
	.asciz	"Ember: S3 resume: jumping to the OS's waking vector\n"
s3_damaged_message:
	.asciz	"Ember: S3 resume: the saved state is damaged; booting normally\n"
s3_unsupported_message:
	.asciz	"Ember: S3 resume: no usable waking vector; booting normally\n"

	.balign	8
s3_gdt:
	.quad	0
	.quad	0x00cf9b000000ffff	/* 0x08: 32-bit code, flat (as reset.S) */
	.quad	0x00cf93000000ffff	/* 0x10: data, flat */
	.quad	0xff009bff0000ffff	/* 0x18: 16-bit code, base 0xFFFF0000, 64 KiB */
	.quad	0x000093000000ffff	/* 0x20: 16-bit data, base 0, 64 KiB */
s3_gdt_end:
s3_gdt_descriptor:
	.word	s3_gdt_end - s3_gdt - 1
	.long	s3_gdt
