/* A fault in an EFI program (bad pointer, privileged or illegal instruction, stack
 * overflow) becomes a report — which image, at what offset, the registers, the frames —
 * and exit status 3. Under --keep-going a fault that is the running program's ends that
 * program as Exit(EFI_ABORTED) would, and the program that started it goes on. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "hosted.h"
#include <ember/core/core.h>
#include <ember/lib/format.h>
#include <ember/core/platform.h>
#include <ember/lib/util.h>

#define MAX_FRAMES 16
/* A signal the kernel cannot push onto the stack (a frame takes a few KiB) arrives as a
 * SIGSEGV without an address: a stack pointer this close to the guard page says why. */
#define SIGNAL_FRAME_ROOM (16 * 1024)
#define EFLAGS_DF (1u << 10)
#define EFLAGS_AC (1u << 18)
/* The page-fault error code the kernel passes on (REG_ERR): what the access was. */
#define PF_WRITE (1u << 1)
#define PF_FETCH (1u << 4)

static char alt_stack[64 * 1024];
UINT64 hosted_crash_ended;

/* What a fault was, gathered before the report says it. */
struct fault {
	int sig;
	const siginfo_t *info;
	UINT64 rip, rsp, rbp;
	bool has_address;	      /* a memory access at info->si_addr */
	bool overflow;		      /* the stack ran into its guard page */
	bool in_image;		      /* rip lies in a loaded image: "in" says which */
	struct image_location in;     /* ... */
	bool called;		      /* rip is Ember's, serving a call from "caller" */
	struct image_location caller; /* ... */
	bool misaligned;	      /* that call came with a misaligned stack */
	bool wrote_read_only;	      /* a write to a read-only page (code) */
	bool ran_data;		      /* an instruction fetch from a non-executable page */
	bool jumped;		      /* ran_data after a call from "caller" */
};

static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_vsn(line, sizeof(line), fmt, ap);
	va_end(ap);
	plat_log_write(line, MIN(n, sizeof(line) - 1));
}

static const char *describe(const struct fault *f)
{
	if (f->overflow)
		return "stack overflow";
	if (f->wrote_read_only)
		return "write to read-only memory";
	if (f->ran_data)
		return "jump into non-executable memory";
	switch (f->sig) {
	case SIGSEGV:
		if (f->info->si_code == SEGV_MAPERR)
			return "invalid memory access (unmapped address)";
		if (f->info->si_code == SEGV_ACCERR)
			return "invalid memory access (not permitted)";
		return "general protection fault (privileged instruction or bad address)";
	case SIGILL:
		return "illegal instruction";
	case SIGFPE:
		return "arithmetic fault (divide error)";
	case SIGBUS:
		return "bus error";
	default:
		return "fault";
	}
}

static bool in_guard(UINT64 address)
{
	return hosted_stack_guard && address - hosted_stack_guard < HOSTED_GUARD_SIZE;
}

/* Memory the report may read: the firmware's, but not the guard page. */
static bool readable(UINT64 address, UINTN size)
{
	return mem_is_allocated((const void *)(uintptr_t)address, size) && !in_guard(address) &&
	       !in_guard(address + size - 1);
}

/* "name+0x1234" for an address inside a loaded image or ember-run itself (an offset
 * addr2line takes), with the function when symbols say it, else the bare address. */
static void say_location(const char *prefix, UINT64 address)
{
	extern char __executable_start[], etext[];
	UINT64 ember = (UINT64)(uintptr_t)__executable_start;
	struct image_location where;
	char function[128];

	if (image_find_by_address(address, &where)) {
		if (hosted_function_name(where.name, address - where.base, function,
					 sizeof(function)))
			say("%s%s+0x%llx (0x%llx) in %s\n", prefix, where.name,
			    (unsigned long long)(address - where.base), (unsigned long long)address,
			    function);
		else
			say("%s%s+0x%llx (0x%llx)\n", prefix, where.name,
			    (unsigned long long)(address - where.base),
			    (unsigned long long)address);
	} else if (address >= ember && address < (UINT64)(uintptr_t)etext) {
		if (hosted_function_name(NULL, address - ember, function, sizeof(function)))
			say("%sember-run+0x%llx (0x%llx) in %s\n", prefix,
			    (unsigned long long)(address - ember), (unsigned long long)address,
			    function);
		else
			say("%sember-run+0x%llx (0x%llx)\n", prefix,
			    (unsigned long long)(address - ember), (unsigned long long)address);
	} else {
		say("%s0x%llx (not in any loaded image)\n", prefix, (unsigned long long)address);
	}
}

static void say_registers(const greg_t *r)
{
	say("  rax %016llx rbx %016llx rcx %016llx rdx %016llx\n", (unsigned long long)r[REG_RAX],
	    (unsigned long long)r[REG_RBX], (unsigned long long)r[REG_RCX],
	    (unsigned long long)r[REG_RDX]);
	say("  rsi %016llx rdi %016llx rbp %016llx rsp %016llx\n", (unsigned long long)r[REG_RSI],
	    (unsigned long long)r[REG_RDI], (unsigned long long)r[REG_RBP],
	    (unsigned long long)r[REG_RSP]);
	say("  r8  %016llx r9  %016llx r10 %016llx r11 %016llx\n", (unsigned long long)r[REG_R8],
	    (unsigned long long)r[REG_R9], (unsigned long long)r[REG_R10],
	    (unsigned long long)r[REG_R11]);
	say("  r12 %016llx r13 %016llx r14 %016llx r15 %016llx\n", (unsigned long long)r[REG_R12],
	    (unsigned long long)r[REG_R13], (unsigned long long)r[REG_R14],
	    (unsigned long long)r[REG_R15]);
	say("  rip %016llx eflags %08llx\n", (unsigned long long)r[REG_RIP],
	    (unsigned long long)r[REG_EFL]);
}

/* Follows saved frame pointers while they stay in firmware memory. Ember keeps frame
 * pointers, so from a fault in its code the walk goes through its frames up to the
 * program's; EFI programs built without them end the walk early, which is fine for an
 * attempt, and a return address outside every image ends it rather than print noise. */
static void say_frames(UINT64 rbp, bool through_ember)
{
	for (int i = 0; i < MAX_FRAMES && rbp && (rbp & 7) == 0 && readable(rbp, 16); i++) {
		const UINT64 *frame = (const UINT64 *)(uintptr_t)rbp;
		struct image_location where;
		if (image_find_by_address(frame[1], &where))
			through_ember = false; /* the program's frames from here on */
		else if (!through_ember)
			break;
		say_location("  called from ", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

/* When Ember's code faulted: the program whose call it was serving. Ember keeps frame
 * pointers, so its frames lead up to the first return address inside an image; the
 * frame holding it is that of the function the program called, whose saved rbp lies
 * 16 bytes below the program's stack pointer at the call. UEFI (2.3.4.2) wants that
 * 16-byte aligned; code built for the host relies on it for aligned SSE accesses to
 * its stack, and a program that breaks the rule makes Ember's code fault. */
static void find_caller(struct fault *f)
{
	UINT64 rbp = f->rbp;

	for (int i = 0; i < MAX_FRAMES && rbp && (rbp & 7) == 0 && readable(rbp, 16); i++) {
		const UINT64 *frame = (const UINT64 *)(uintptr_t)rbp;
		if (image_find_by_address(frame[1], &f->caller)) {
			f->called = true;
			f->misaligned = (rbp & 15) != 0;
			return;
		}
		if (frame[0] <= rbp)
			return;
		rbp = frame[0];
	}
}

/* A jump into data: the call's return address, on top of the stack, names the program
 * that made it (and the place), even when the data lies outside every image. */
static void find_jumper(struct fault *f)
{
	const UINT64 *top = (const UINT64 *)(uintptr_t)f->rsp;

	if ((f->rsp & 7) == 0 && readable(f->rsp, 8) && image_find_by_address(*top, &f->caller))
		f->jumped = true;
}

static void classify(struct fault *f, const greg_t *r)
{
	UINT64 address = (UINT64)(uintptr_t)f->info->si_addr;
	int code = f->info->si_code;
	bool denied = f->sig == SIGSEGV && code == SEGV_ACCERR;

	f->has_address = (f->sig == SIGSEGV && (code == SEGV_MAPERR || code == SEGV_ACCERR)) ||
			 (f->sig == SIGBUS && code == BUS_ADRERR);
	f->overflow = (f->has_address && in_guard(address)) ||
		      (f->sig == SIGSEGV && code == SI_KERNEL && hosted_stack_guard &&
		       f->rsp - hosted_stack_guard < HOSTED_GUARD_SIZE + SIGNAL_FRAME_ROOM);
	f->wrote_read_only = denied && (r[REG_ERR] & PF_WRITE);
	f->ran_data = denied && ((r[REG_ERR] & PF_FETCH) || address == f->rip);
	f->in_image = image_find_by_address(f->rip, &f->in);
	if (f->ran_data)
		find_jumper(f);
	else if (!f->in_image)
		find_caller(f);
}

/* Ember's code faulted for the program's sake: a pointer outside the firmware's memory,
 * a call with a misaligned stack, or a stack the program had used up. */
static bool programs_fault(const struct fault *f)
{
	UINT64 address = (UINT64)(uintptr_t)f->info->si_addr;

	if (f->jumped && !f->in_image)
		return true;
	return f->called && (f->misaligned || f->overflow ||
			     (f->has_address && !mem_is_allocated((void *)(uintptr_t)address, 1)));
}

static void report(const struct fault *f, const greg_t *r)
{
	if (f->in_image)
		say("ember-run: %s crashed: %s\n", f->in.name, describe(f));
	else if (f->ran_data && f->jumped)
		say("ember-run: %s crashed: %s\n", f->caller.name, describe(f));
	else if (f->called)
		say("ember-run: %s crashed in a call to Ember: %s\n", f->caller.name, describe(f));
	else
		say("ember-run: crash outside any EFI image (a bug in Ember?): %s\n", describe(f));
	if (f->misaligned && !f->overflow)
		say("  %s called Ember with a misaligned stack (UEFI wants it 16-byte aligned at "
		    "calls)\n",
		    f->caller.name);
	say_location("  at ", f->rip);
	if (f->has_address)
		say("  fault address 0x%llx\n", (unsigned long long)(uintptr_t)f->info->si_addr);
	if (f->wrote_read_only || f->ran_data)
		say_location("  the protected page holds ", (UINT64)(uintptr_t)f->info->si_addr);
	if (f->jumped)
		say_location("  called from ", *(const UINT64 *)(uintptr_t)f->rsp);
	if (f->overflow)
		say("  the stack's guard page is 0x%llx-0x%llx\n",
		    (unsigned long long)hosted_stack_guard,
		    (unsigned long long)(hosted_stack_guard + HOSTED_GUARD_SIZE - 1));
	say_registers(r);
	say_frames(f->rbp, !f->in_image);
}

/* Runs where the handler returns to: on the stack below the program's StartImage. */
static _Noreturn void resume_after_fault(void)
{
	hosted_timer_start();
	image_abort_running();
}

/* The handler returns into resume_after_fault instead of the faulting instruction. */
static void end_running_program(ucontext_t *uc)
{
	static const int unblock[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM};
	greg_t *r = uc->uc_mcontext.gregs;
	struct image_location running;

	image_running(&running);
	hosted_crash_ended = running.base;
	say("ember-run: %s ends as if it had called Exit(EFI_ABORTED) (--keep-going)\n",
	    running.name);
	r[REG_RSP] = (greg_t)image_abort_stack();
	r[REG_RIP] = (greg_t)(uintptr_t)resume_after_fault;
	r[REG_EFL] &= ~(greg_t)(EFLAGS_DF | EFLAGS_AC); /* what the ABI expects at a call */
	for (size_t i = 0; i < ARRAY_SIZE(unblock); i++)
		sigdelset(&uc->uc_sigmask, unblock[i]);
}

static void crash_signal(int sig, siginfo_t *info, void *context)
{
	ucontext_t *uc = context;
	const greg_t *r = uc->uc_mcontext.gregs;
	struct fault f = {.sig = sig,
			  .info = info,
			  .rip = (UINT64)r[REG_RIP],
			  .rsp = (UINT64)r[REG_RSP],
			  .rbp = (UINT64)r[REG_RBP]};
	/* Interrupts off and the TPL at its highest: nothing the core does in here (looking
	 * up memory ranges) may run notify functions or timer ticks. */
	EFI_TPL tpl = tpl_raise(TPL_HIGH_LEVEL);

	hosted_timer_stop();
	classify(&f, r);
	report(&f, r);
	if (hosted_options.keep_going && image_fault_abortable(f.rip, tpl, programs_fault(&f))) {
		end_running_program(uc);
		return;
	}
	hosted_console_restore();
	_exit(3);
}

void hosted_crash_handlers_install(void)
{
	static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
	stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof(alt_stack)};
	struct sigaction sa;

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = crash_signal;
	/* On the alternate stack, so a stack overflow can be reported. A fault in the handler
	 * itself (its signal blocked) ends the process. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	for (size_t i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
}
