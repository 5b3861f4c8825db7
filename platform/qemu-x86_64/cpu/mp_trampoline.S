/* Where an AP starts after INIT-SIPI-SIPI: copied to a page below 1 MiB whose number is
 * the SIPI vector, so it starts in real mode at CS = page << 8, IP = 0. It goes to
 * protected mode with the trampoline's own GDT, turns on the BSP's paging, enters long
 * mode and looks up its own struct mp_cpu by its local APIC ID (several APs may start at
 * once), whose first field is its stack top, then calls mp_ap_main(cpu). Position
 * independent: the BSP fills in the absolute fields (cpu/mp_trampoline.h). */
#include "reset/layout.h"
#include "cpu/mp_trampoline.h"

	.section .rodata.mp_trampoline, "a"
	.globl mp_trampoline_start, mp_trampoline_end
	.code16
mp_trampoline_start:
	cli
	cld
	xorl %ebx, %ebx
	movw %cs, %bx
	movw %bx, %ds
	shll $4, %ebx			/* the page's linear address, kept in ebx/rbx */
	lgdtl MP_T_GDTR
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl *MP_T_FAR32

	.code32
mp_trampoline_32:
	movw $GDT_DATA, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movw %ax, %fs
	movw %ax, %gs
	movl MP_T_CR4(%ebx), %eax
	movl %eax, %cr4
	movl MP_T_CR3(%ebx), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	movl MP_T_EFER(%ebx), %eax
	xorl %edx, %edx
	wrmsr
	movl MP_T_CR0(%ebx), %eax
	movl %eax, %cr0			/* paging on with EFER.LME: long mode */
	ljmpl *MP_T_FAR64(%ebx)

	.code64
mp_trampoline_64:
	movl %ebx, %ebx			/* the upper half is undefined after the switch */
	movq MP_T_LAPIC_ID(%rbx), %rax
	movl (%rax), %eax
	shrl $24, %eax
	movq MP_T_CPUS(%rbx, %rax, 8), %rdi
	testq %rdi, %rdi
	jz 1f				/* an AP nobody asked for: stop */
	movq (%rdi), %rsp
	callq *MP_T_ENTRY(%rbx)
1:	cli
	hlt
	jmp 1b

	.org MP_T_GDT
	.quad 0
	.quad 0x00cf9b000000ffff	/* GDT_CODE32 */
	.quad 0x00cf93000000ffff	/* GDT_DATA */
	.quad 0x00af9b000000ffff	/* GDT_CODE64 */
	.org MP_T_GDTR
	.word 4 * 8 - 1
	.long 0
	.org MP_T_FAR32
	.long mp_trampoline_32 - mp_trampoline_start
	.word GDT_CODE32
	.org MP_T_FAR64
	.long mp_trampoline_64 - mp_trampoline_start
	.word GDT_CODE64
	.org MP_T_LAPIC_ID + 8
mp_trampoline_end:
