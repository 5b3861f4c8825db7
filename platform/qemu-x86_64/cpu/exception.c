/* A CPU exception gets a report on the serial port: which exception, the error code,
 * where (image and offset), the registers and the frames that can be found. When the
 * fault is the running program's, the program ends as if it had called
 * Exit(EFI_ABORTED) and the boot goes on; otherwise the machine halts. */
#include <ember/core/core.h>
#include "cpu/interrupts.h"
#include "cpu/mp.h"
#include "qemu.h"

#define MAX_FRAMES 16
#define RFLAGS_RESERVED 0x2 /* bit 1 is always set; IF, DF and the rest clear */
#define VECTOR_NMI 2
#define VECTOR_MACHINE_CHECK 18
/* A double fault on the way into a handler leaves the stack pointer where it could push
 * no more: this close above a guard page, the stack had run out. */
#define FRAME_ROOM 256
/* Page-fault error code bits: a protection violation (not a missing page), by a write, by
 * an instruction fetch. */
#define PF_PROTECTION 0x1
#define PF_WRITE 0x2
#define PF_FETCH 0x10

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

/* Memory a report may read: allocated, and not a guard page (which would fault again). */
static bool readable(uint64_t address, uint64_t size)
{
	return mem_is_allocated((const void *)(uintptr_t)address, size) &&
	       !paging_is_guard(address) && !paging_is_guard(address + size - 1);
}

/* Follows saved frame pointers while they stay in allocated memory and lead to code:
 * code built without frame pointers ends the walk rather than printing noise. */
static void say_frames(uint64_t rbp)
{
	for (int i = 0; i < MAX_FRAMES && rbp && (rbp & 7) == 0; i++) {
		const uint64_t *frame = (const uint64_t *)(uintptr_t)rbp;
		if (!readable(rbp, 16) || !is_code(frame[1]))
			break;
		say_location("  called from ", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

/* The stack ran into a guard page: a page fault on it, or a double fault when the
 * exception's frame could not be pushed. */
static bool stack_overflow(const struct interrupt_frame *f, uint64_t cr2)
{
	return (f->vector == VECTOR_PAGE_FAULT && paging_is_guard(cr2)) ||
	       (f->vector == VECTOR_DOUBLE_FAULT && paging_is_guard(f->rsp - FRAME_ROOM));
}

/* A page-fault on a protected page: a write to read-only memory (code) or a jump into
 * non-executable memory (data), said with the page's image and offset. */
static bool protection_fault(const struct interrupt_frame *f)
{
	return f->vector == VECTOR_PAGE_FAULT && (f->error_code & PF_PROTECTION) &&
	       (f->error_code & (PF_WRITE | PF_FETCH));
}

static void say_protection_fault(const struct interrupt_frame *f, uint64_t cr2)
{
	const uint64_t *top = (const uint64_t *)(uintptr_t)f->rsp;

	if (f->error_code & PF_FETCH)
		say_location("  jump into non-executable memory at ", cr2);
	else
		say_location("  write to read-only memory at ", cr2);
	/* After a call into data, the return address on top of the stack says from where. */
	if ((f->error_code & PF_FETCH) && readable(f->rsp, 8) && is_code(*top))
		say_location("  called from ", *top);
}

static void report(const struct interrupt_frame *f, uint64_t cr2, bool overflow)
{
	panic_printf("\n!!! Ember: CPU exception %llu (%s), error code 0x%llx\n", f->vector,
		     f->vector < 32 && exception_names[f->vector] ? exception_names[f->vector]
								  : "reserved",
		     f->error_code);
	if (overflow)
		panic_printf("  stack overflow: the stack ran into its guard page\n");
	say_location("  at ", f->rip);
	if (f->vector == VECTOR_PAGE_FAULT)
		panic_printf("  fault address (CR2) 0x%llx\n", (unsigned long long)cr2);
	if (protection_fault(f))
		say_protection_fault(f, cr2);
	say_registers(f);
	say_frames(f->rbp);
}

/* Raised by an instruction: not an NMI or a machine check, which come from the hardware,
 * nor a double fault, which leaves no state to resume. */
static bool caused_by_code(uint64_t vector)
{
	return vector != VECTOR_NMI && vector != VECTOR_DOUBLE_FAULT &&
	       vector != VECTOR_MACHINE_CHECK;
}

/* Returning from the exception resumes in image_abort_running, on the stack below the
 * program's StartImage, with interrupts off (StartImage lowers the TPL, which enables
 * them). */
static void end_running_program(struct interrupt_frame *f)
{
	struct image_location running;

	image_running(&running);
	panic_printf("!!! Ember: %s ends as if it had called Exit(EFI_ABORTED); the boot goes "
		     "on.\n",
		     running.name);
	f->rip = (uint64_t)(uintptr_t)image_abort_running;
	f->rsp = image_abort_stack();
	f->rflags = RFLAGS_RESERVED;
}

void exception_handle(struct interrupt_frame *f)
{
	static bool handling; /* a fault while reporting one ends everything */
	uint64_t cr2;
	bool overflow, bad_address;
	EFI_TPL tpl;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(cr2));
	if (!mp_on_bsp()) {
		/* An AP's procedure: the TPL, the report's lookups and ending the program belong
		 * to the BSP's thread. The AP stops; its job sees it never finish. */
		panic_printf("\n!!! Ember: CPU exception %llu on an AP at 0x%llx (cr2 0x%llx); "
			     "the AP halted.\n",
			     f->vector, f->rip, cr2);
		qemu_halt();
	}
	if (handling) {
		panic_printf("\n!!! Ember: CPU exception %llu while reporting one; halted.\n",
			     f->vector);
		qemu_halt();
	}
	handling = true;
	/* Nothing the core does in here (looking up memory ranges) may run notify
	 * functions or let the timer in. */
	tpl = tpl_raise(TPL_HIGH_LEVEL);
	overflow = stack_overflow(f, cr2);
	report(f, cr2, overflow);
	/* Ember's code faulting on an address outside memory it handed out, or on a stack
	 * the program used up: a bad pointer the program passed, or its recursion. */
	bad_address = f->vector == VECTOR_PAGE_FAULT &&
		      (overflow || !mem_is_allocated((const void *)(uintptr_t)cr2, 1));
	/* A jump into data while a program runs is taken as the program's: Ember runs no data. */
	bad_address |= protection_fault(f) && (f->error_code & PF_FETCH);
	if (caused_by_code(f->vector) && image_fault_abortable(f->rip, tpl, bad_address)) {
		end_running_program(f);
		handling = false;
		return;
	}
	panic_printf("!!! Ember: system halted.\n");
	qemu_halt();
}
