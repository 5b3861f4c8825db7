/* Exceptions at EL1: IRQs go to the timer (timer.c); anything else is a crash, reported
 * on the PL011 with the syndrome, the faulting address, the registers and the frames that
 * can be found. A fault in a running program's code, or in Ember's on a bad pointer the
 * program passed or on the stack it used up (the guard page below the firmware's stack),
 * ends that program as Exit(EFI_ABORTED) and the boot goes on, as on x86-64; any other
 * halts. The report runs on the exception stack (vectors.S), not the faulting one. */
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include "aarch64.h"

#define SPSR_EL1T_MASKED 0x3c4	  /* EL1 on SP_EL0, D, A, I and F masked */
#define EC_INSTRUCTION_ABORT 0x21 /* from EL1 */
#define EC_DATA_ABORT 0x25	  /* from EL1 */
#define FSC_PERMISSION 0x0c	  /* ISS[5:2] of a permission fault, at any level */
#define ISS_WNR (1u << 6)	  /* a data abort's access was a write */
#define ISS_FNV (1u << 10)	  /* an abort's FAR is not valid */
#define MAX_FRAMES 16
#define PAGE_SIZE 4096

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
/* Ember and its programs run on SP_EL0; on SP_EL1 runs the exception handler (and the OS
 * loader after ExitBootServices). */
static const char *const origins[] = {"EL1", "EL1 on SP_EL1", "EL0 (AArch64)", "EL0 (AArch32)"};
static uint64_t guard_page; /* below the firmware's stack; 0 when there is none */

void exceptions_guard_page(uint64_t address)
{
	guard_page = address;
}

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

/* The address an instruction or data abort at EL1 faulted on, when FAR_EL1 holds it. */
static bool abort_address(uint64_t esr, uint64_t *far)
{
	uint32_t ec = (uint32_t)(esr >> 26) & 0x3f;

	if ((ec != EC_INSTRUCTION_ABORT && ec != EC_DATA_ABORT) || (esr & ISS_FNV))
		return false;
	*far = READ_SYSREG(far_el1);
	return true;
}

/* The stack ran into the guard page below the firmware's stack. */
static bool stack_overflow(uint64_t esr)
{
	uint64_t far;

	return guard_page && abort_address(esr, &far) && far - guard_page < PAGE_SIZE;
}

/* The page tables map address for reading at EL1 (the MMU's own walk, AT S1E1R): the
 * guard page and pages a program made EFI_MEMORY_RP are not. */
static bool mapped(uint64_t address)
{
	uint64_t par;

	__asm__ __volatile__("at s1e1r, %1\n\tisb\n\tmrs %0, par_el1" : "=r"(par) : "r"(address));
	return !(par & 1); /* PAR_EL1.F: the walk failed */
}

/* Memory a report may read: allocated RAM (not a device's registers) that is mapped. */
static bool readable(uint64_t address, uint64_t size)
{
	return mem_is_allocated((const void *)(uintptr_t)address, size) && mapped(address) &&
	       mapped(address + size - 1);
}

/* Follows the frame records x29 points to ({caller's x29, return address}) while they lie
 * in readable memory, lead to code and go up the stack: a broken chain ends the walk
 * rather than faulting in here. */
static void say_frames(uint64_t fp)
{
	for (int i = 0; i < MAX_FRAMES && fp && (fp & 7) == 0; i++) {
		const uint64_t *record = (const uint64_t *)(uintptr_t)fp;
		if (!readable(fp, 16) || !in_code(record[1]))
			break;
		say_location("  called from ", record[1]);
		if (record[0] <= fp)
			break;
		fp = record[0];
	}
}

/* The stack pointer when the exception came: SP_EL0 for one from EL1t (but an IRQ, whose
 * frame vectors.S put on that stack), else just above the frame. */
static uint64_t interrupted_sp(uint64_t kind, const struct exception_frame *f)
{
	if ((kind >> 2) == 0 && (kind & 3) != KIND_IRQ)
		return READ_SYSREG(sp_el0);
	return (uintptr_t)(f + 1);
}

static void report(uint64_t kind, const struct exception_frame *f)
{
	uint64_t esr = READ_SYSREG(esr_el1), far = READ_SYSREG(far_el1);

	panic_printf("\n!!!! Ember: %s from %s: %s (ESR 0x%llx) !!!!\n", kind_names[kind & 3],
		     origins[(kind >> 2) & 3], class_name((uint32_t)(esr >> 26) & 0x3f), esr);
	if (stack_overflow(esr))
		panic_printf("stack overflow: the stack ran into its guard page\n");
	say_location("in ", f->elr);
	say_protection_fault(esr, far, f);
	panic_printf("PC  %016llx  SPSR %016llx  FAR %016llx\n", f->elr, f->spsr, far);
	panic_printf("SP  %016llx\n", interrupted_sp(kind, f));
	for (int i = 0; i < 31; i += 2) {
		if (i + 1 < 31)
			panic_printf("X%-2d %016llx  X%-2d %016llx\n", i, f->x[i], i + 1,
				     f->x[i + 1]);
		else
			panic_printf("X%-2d %016llx\n", i, f->x[i]);
	}
	say_frames(f->x[29]);
}

/* The fault is the program's though Ember's code took it: an abort on an address outside
 * the memory the core handed out (a bad pointer the program passed) or on the guard page
 * (its recursion used the stack up), or a jump into data (Ember runs no data). */
static bool programs_fault(uint64_t esr)
{
	uint64_t far;

	if (protection_fault(esr) == EC_INSTRUCTION_ABORT || stack_overflow(esr))
		return true;
	return abort_address(esr, &far) && !mem_is_allocated((const void *)(uintptr_t)far, 1);
}

/* A synchronous exception in a running program's code, or the program's in Ember's code
 * (programs_fault): the exception returns into image_abort_running on the stack below the
 * program's StartImage, interrupts masked (StartImage lowers the TPL, which unmasks
 * them). */
static bool end_running_program(uint64_t kind, struct exception_frame *f, EFI_TPL tpl)
{
	struct image_location running;

	if ((kind & 3) != KIND_SYNC || (kind >> 2) != 0 ||
	    !image_fault_abortable(f->elr, tpl, programs_fault(READ_SYSREG(esr_el1))) ||
	    !image_running(&running))
		return false;
	panic_printf("!!!! Ember: %s ends as if it had called Exit(EFI_ABORTED); the boot goes "
		     "on.\n",
		     running.name);
	f->x[0] = image_abort_stack();
	f->elr = (uintptr_t)aarch64_abort_trampoline;
	f->spsr = SPSR_EL1T_MASKED;
	return true;
}

static void crash(uint64_t kind, struct exception_frame *f)
{
	static bool handling; /* a fault while reporting one ends everything */
	EFI_TPL tpl;

	if (handling) {
		panic_printf("\n!!!! Ember: exception while reporting one; halted.\n");
		aarch64_halt();
	}
	handling = true;
	/* Nothing the core does in here (looking up memory ranges) may run notify functions
	 * or let the timer in; ending the program leaves the TPL to StartImage. */
	tpl = tpl_raise(TPL_HIGH_LEVEL);
	report(kind, f);
	if (end_running_program(kind, f, tpl)) {
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
