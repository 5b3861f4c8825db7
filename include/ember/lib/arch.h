/* What differs between processor architectures in code the core and drivers share: the
 * jump buffer of jump_set/jump_long (lib/ARCH/jump.S), the stack's shape at a call, a
 * spin-wait hint, the PE machine type programs must have and the removable-media file.
 * Everything else per-architecture lives in a platform directory (docs/design.md,
 * "Architectures"). */
#ifndef EMBER_ARCH_H
#define EMBER_ARCH_H

#include <efi/types.h>

#if defined(__x86_64__)
/* Callee-saved state of both x86-64 ABIs (System V, and Microsoft's, which adds rdi, rsi
 * and xmm6-15), plus the SSE and x87 control words. */
struct jump_buffer {
	UINT64 rbx, rbp, r12, r13, r14, r15, rsp, rip, rdi, rsi;
	UINT8 xmm6_15[10 * 16];
	UINT32 mxcsr;
	UINT16 fpu_control;
};
#define JUMP_BUFFER_CHECK_LAYOUT()                                                                 \
	_Static_assert(offsetof(struct jump_buffer, xmm6_15) == 0x50, "jump.S layout");            \
	_Static_assert(offsetof(struct jump_buffer, mxcsr) == 0xf0, "jump.S layout");              \
	_Static_assert(offsetof(struct jump_buffer, fpu_control) == 0xf4, "jump.S layout")

/* The PE/COFF machine type of programs the firmware runs (IMAGE_FILE_MACHINE_X64), and
 * the removable-media boot file (UEFI 2.10, 3.5.1.1). */
#define ARCH_PE_MACHINE 0x8664
#define ARCH_REMOVABLE_FILE u"\\EFI\\BOOT\\BOOTX64.EFI"

/* A call pushes the return address: a function's frame starts 8 bytes below 16. */
#define ARCH_RETURN_ADDRESS_SLOT 8

static inline UINTN jump_buffer_sp(const struct jump_buffer *jb)
{
	return (UINTN)jb->rsp;
}

static inline void arch_cpu_relax(void)
{
	__builtin_ia32_pause();
}
#elif defined(__aarch64__)
/* Callee-saved state of AAPCS64: x19-x28, the frame pointer x29, the link register x30,
 * sp, and the low halves d8-d15 of v8-v15; UEFI's AArch64 binding is AAPCS64 itself. */
struct jump_buffer {
	UINT64 x19_x28[10];
	UINT64 x29, x30, sp;
	UINT64 d8_d15[8];
};
#define JUMP_BUFFER_CHECK_LAYOUT()                                                                 \
	_Static_assert(offsetof(struct jump_buffer, x29) == 0x50, "jump.S layout");                \
	_Static_assert(offsetof(struct jump_buffer, sp) == 0x60, "jump.S layout");                 \
	_Static_assert(offsetof(struct jump_buffer, d8_d15) == 0x68, "jump.S layout")

/* IMAGE_FILE_MACHINE_ARM64, and the AArch64 removable-media boot file. */
#define ARCH_PE_MACHINE 0xaa64
#define ARCH_REMOVABLE_FILE u"\\EFI\\BOOT\\BOOTAA64.EFI"

/* The return address goes to x30, and sp stays 16-byte aligned. */
#define ARCH_RETURN_ADDRESS_SLOT 0

static inline UINTN jump_buffer_sp(const struct jump_buffer *jb)
{
	return (UINTN)jb->sp;
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("yield");
}
#else
#error "Ember knows x86-64 and AArch64 only"
#endif

/* Returns 0 when called, and again (with value, never 0) when jump_long reaches it. */
__attribute__((returns_twice)) int jump_set(struct jump_buffer *jb);
_Noreturn void jump_long(struct jump_buffer *jb, int value);

#endif
