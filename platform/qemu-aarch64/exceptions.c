/* Exceptions at EL1: IRQs go to the timer (timer.c); anything else is a crash, reported
 * on the PL011 with the syndrome, the faulting address and the registers. A fault in a
 * running program's code ends that program as Exit(EFI_ABORTED) and the boot goes on, as
 * on x86-64; any other halts. */
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include "aarch64.h"

#define SPSR_EL1H_MASKED 0x3c5	  /* EL1 on SP_EL1, D, A, I and F masked */
#define EC_INSTRUCTION_ABORT 0x21 /* from EL1 */
#define EC_DATA_ABORT 0x25	  /* from EL1 */
#define FSC_PERMISSION 0x0c	  /* ISS[5:2] of a permission fault, at any level */
#define ISS_WNR (1u << 6)	  /* a data abort's access was a write */

/* The frame vectors.S builds. */
struct exception_frame {
	uint64_t x[31]; /* x0-x30 */
	uint64_t elr, spsr;
	uint64_t pad;
};
_Static_assert(sizeof(struct exception_frame) == 34 * 8, "vectors.S frame");

enum { KIND_SYNC, KIND_IRQ, KIND_FIQ, KIND_SERROR };

extern char aarch64_vectors[];
void aarch64_abort_trampoline(void);
void aarch64_exception(uint64_t kind, struct exception_frame *frame);

static const char *const kind_names[] = {"synchronous exception", "IRQ", "FIQ", "SError"};
static const char *const origins[] = {"EL1 on SP_EL0", "EL1", "EL0 (AArch64)", "EL0 (AArch32)"};

/* The exception class of ESR_EL1, in words, for the common ones. */
static const char *class_name(uint32_t ec)
{
	switch (ec) {
	case 0x00:
		return "unknown reason (undefined instruction?)";
	case 0x07:
		return "FP/SIMD access";
	case 0x0e:
		return "illegal execution state";
	case 0x15:
		return "SVC";
	case 0x18:
		return "system register access";
	case 0x20:
	case 0x21:
		return "instruction abort";
	case 0x22:
		return "PC alignment fault";
	case 0x24:
	case 0x25:
		return "data abort";
	case 0x26:
		return "SP alignment fault";
	case 0x3c:
		return "BRK";
	default:
		return "other";
	}
}

/* "image+0xoffset" for an address in a loaded image or in Ember itself. */
static void say_location(const char *prefix, uint64_t address)
{
	struct image_location where;

	if (image_find_by_address(address, &where))
		panic_printf("%s%s+0x%llx\n", prefix, where.name, address - where.base);
	else if (address >= (uintptr_t)__image_start && address < (uintptr_t)__image_end)
		panic_printf("%sember+0x%llx\n", prefix, address - (uintptr_t)__image_start);
	else
		panic_printf("%s0x%llx\n", prefix, address);
}

static bool in_code(uint64_t address)
{
	struct image_location where;

	return image_find_by_address(address, &where) ||
	       (address >= (uintptr_t)__image_start && address < (uintptr_t)__image_end);
}

/* A permission fault of memory protection (mmu.c): a write to read-only memory or a jump
 * into never-execute memory; 0 for anything else. */
static uint32_t protection_fault(uint64_t esr)
{
	uint32_t ec = (uint32_t)(esr >> 26) & 0x3f;

	if ((esr & 0x3c) != FSC_PERMISSION)
		return 0;
	if (ec == EC_DATA_ABORT && (esr & ISS_WNR))
		return EC_DATA_ABORT;
	return ec == EC_INSTRUCTION_ABORT ? EC_INSTRUCTION_ABORT : 0;
}

static void say_protection_fault(uint64_t esr, uint64_t far, const struct exception_frame *f)
{
	if (protection_fault(esr) == EC_DATA_ABORT) {
		say_location("write to read-only memory at ", far);
	} else if (protection_fault(esr) == EC_INSTRUCTION_ABORT) {
		say_location("jump into non-executable memory at ", far);
		/* After a call into data, the link register says from where. */
		if (in_code(f->x[30]))
			say_location("  called from ", f->x[30]);
	}
}

static void report(uint64_t kind, const struct exception_frame *f)
{
	uint64_t esr = READ_SYSREG(esr_el1), far = READ_SYSREG(far_el1);

	panic_printf("\n!!!! Ember: %s from %s: %s (ESR 0x%llx) !!!!\n", kind_names[kind & 3],
		     origins[(kind >> 2) & 3], class_name((uint32_t)(esr >> 26) & 0x3f), esr);
	say_location("in ", f->elr);
	say_protection_fault(esr, far, f);
	panic_printf("PC  %016llx  SPSR %016llx  FAR %016llx\n", f->elr, f->spsr, far);
	panic_printf("SP  %016llx\n", (uint64_t)(uintptr_t)(f + 1));
	for (int i = 0; i < 31; i += 2) {
		if (i + 1 < 31)
			panic_printf("X%-2d %016llx  X%-2d %016llx\n", i, f->x[i], i + 1,
				     f->x[i + 1]);
		else
			panic_printf("X%-2d %016llx\n", i, f->x[i]);
	}
}

/* A synchronous exception in a running program's code, or a jump into data while it runs
 * (taken as the program's: Ember runs no data): the exception returns into
 * image_abort_running on the stack below the program's StartImage, interrupts masked
 * (StartImage lowers the TPL, which unmasks them). */
static bool end_running_program(uint64_t kind, struct exception_frame *f)
{
	struct image_location running;
	bool jump_into_data = protection_fault(READ_SYSREG(esr_el1)) == EC_INSTRUCTION_ABORT;
	EFI_TPL tpl = tpl_raise(TPL_HIGH_LEVEL);

	if ((kind & 3) != KIND_SYNC || !image_fault_abortable(f->elr, tpl, jump_into_data) ||
	    !image_running(&running)) {
		tpl_restore(tpl);
		return false;
	}
	panic_printf("!!!! Ember: %s ends as if it had called Exit(EFI_ABORTED); the boot goes "
		     "on.\n",
		     running.name);
	f->x[0] = image_abort_stack();
	f->elr = (uintptr_t)aarch64_abort_trampoline;
	f->spsr = SPSR_EL1H_MASKED;
	return true;
}

static void crash(uint64_t kind, struct exception_frame *f)
{
	static bool handling; /* a fault while reporting one ends everything */

	if (handling) {
		panic_printf("\n!!!! Ember: exception while reporting one; halted.\n");
		aarch64_halt();
	}
	handling = true;
	report(kind, f);
	if (end_running_program(kind, f)) {
		handling = false;
		return;
	}
	panic_printf("!!!! Ember: system halted.\n");
	aarch64_halt();
}

void aarch64_exception(uint64_t kind, struct exception_frame *frame)
{
	if ((kind & 3) == KIND_IRQ && (kind >> 2) <= 1) {
		timer_irq();
		return;
	}
	crash(kind, frame);
}

void exceptions_init(void)
{
	WRITE_SYSREG(vbar_el1, (uintptr_t)aarch64_vectors);
	ISB();
}
