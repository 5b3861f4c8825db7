/* A CPU exception ends the boot with a report on the serial port: which exception, the
 * error code, where (image and offset), the registers and the frames that can be found. */
#include <ember/core/core.h>
#include "cpu/interrupts.h"
#include "qemu.h"

#define MAX_FRAMES 16

static const char *const exception_names[32] = {
    "divide error",
    "debug",
    "NMI",
    "breakpoint",
    "overflow",
    "bound range exceeded",
    "invalid opcode",
    "device not available",
    "double fault",
    "coprocessor overrun",
    "invalid TSS",
    "segment not present",
    "stack fault",
    "general protection fault",
    "page fault",
    "reserved (15)",
    "x87 floating-point error",
    "alignment check",
    "machine check",
    "SIMD floating-point exception",
    "virtualization exception",
    "control protection exception",
};

/* "image+0xoffset" for an address in a loaded image or in Ember itself. */
static void say_location(const char *prefix, uint64_t address)
{
	struct image_location where;

	if (image_find_by_address(address, &where))
		panic_printf("%s%s+0x%llx (0x%llx)\n", prefix, where.name,
			     (unsigned long long)(address - where.base),
			     (unsigned long long)address);
	else if (address >= (uintptr_t)__core_start && address < (uintptr_t)__core_end)
		panic_printf("%sember+0x%llx (0x%llx)\n", prefix,
			     (unsigned long long)(address - (uintptr_t)__core_start),
			     (unsigned long long)address);
	else
		panic_printf("%s0x%llx\n", prefix, (unsigned long long)address);
}

static void say_registers(const struct interrupt_frame *f)
{
	panic_printf("  rax %016llx rbx %016llx rcx %016llx rdx %016llx\n", f->rax, f->rbx, f->rcx,
		     f->rdx);
	panic_printf("  rsi %016llx rdi %016llx rbp %016llx rsp %016llx\n", f->rsi, f->rdi, f->rbp,
		     f->rsp);
	panic_printf("  r8  %016llx r9  %016llx r10 %016llx r11 %016llx\n", f->r8, f->r9, f->r10,
		     f->r11);
	panic_printf("  r12 %016llx r13 %016llx r14 %016llx r15 %016llx\n", f->r12, f->r13, f->r14,
		     f->r15);
	panic_printf("  rip %016llx cs %04llx rflags %08llx ss %04llx\n", f->rip, f->cs, f->rflags,
		     f->ss);
}

static bool is_code(uint64_t address)
{
	struct image_location where;

	return image_find_by_address(address, &where) ||
	       (address >= (uintptr_t)__core_start && address < (uintptr_t)__core_end);
}

/* Follows saved frame pointers while they stay in allocated memory and lead to code:
 * code built without frame pointers ends the walk rather than printing noise. */
static void say_frames(uint64_t rbp)
{
	for (int i = 0; i < MAX_FRAMES && rbp && (rbp & 7) == 0; i++) {
		const uint64_t *frame = (const uint64_t *)(uintptr_t)rbp;
		if (!mem_is_allocated(frame, 16) || !is_code(frame[1]))
			break;
		say_location("  called from ", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

_Noreturn void exception_report(const struct interrupt_frame *f)
{
	uint64_t cr2;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(cr2));
	panic_printf("\n!!! Ember: CPU exception %llu (%s), error code 0x%llx\n", f->vector,
		     f->vector < 32 && exception_names[f->vector] ? exception_names[f->vector]
								  : "reserved",
		     f->error_code);
	say_location("  at ", f->rip);
	if (f->vector == 14)
		panic_printf("  fault address (CR2) 0x%llx\n", (unsigned long long)cr2);
	say_registers(f);
	say_frames(f->rbp);
	panic_printf("!!! Ember: system halted.\n");
	qemu_halt();
}
