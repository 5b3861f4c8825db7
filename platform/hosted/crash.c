/* A fault in an EFI program (bad pointer, privileged or illegal instruction) becomes a
 * report — which image, at what offset, the registers, the frames — and exit status 3. */
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

static char alt_stack[64 * 1024];

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

static const char *describe(const siginfo_t *info)
{
	switch (info->si_signo) {
	case SIGSEGV:
		if (info->si_code == SEGV_MAPERR)
			return "invalid memory access (unmapped address)";
		if (info->si_code == SEGV_ACCERR)
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

/* "name+0x1234" for an address inside a loaded image, else the bare address. */
static void say_location(const char *prefix, UINT64 address)
{
	struct image_location where;

	if (image_find_by_address(address, &where))
		say("%s%s+0x%llx (0x%llx)\n", prefix, where.name,
		    (unsigned long long)(address - where.base), (unsigned long long)address);
	else
		say("%s0x%llx (not in any loaded image)\n", prefix, (unsigned long long)address);
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

/* Follows saved frame pointers while they stay in firmware memory; EFI programs built
 * without frame pointers end the walk early, which is fine for an attempt. */
static void say_frames(UINT64 rbp)
{
	for (int i = 0; i < MAX_FRAMES && rbp && (rbp & 7) == 0; i++) {
		const UINT64 *frame = (const UINT64 *)(uintptr_t)rbp;
		struct image_location where;
		/* Code built without frame pointers ends the walk rather than printing noise. */
		if (!mem_is_allocated(frame, 16) || !image_find_by_address(frame[1], &where))
			break;
		say_location("  called from ", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

static void crash_signal(int sig, siginfo_t *info, void *context)
{
	const greg_t *r = ((ucontext_t *)context)->uc_mcontext.gregs;
	UINT64 rip = (UINT64)r[REG_RIP];
	struct image_location where;

	plat_interrupts_disable();
	hosted_timer_stop();
	if (image_find_by_address(rip, &where))
		say("ember-run: %s crashed: %s\n", where.name, describe(info));
	else
		say("ember-run: crash outside any EFI image (a bug in Ember?): %s\n",
		    describe(info));
	say_location("  at ", rip);
	if (sig == SIGSEGV || sig == SIGBUS)
		say("  fault address 0x%llx\n", (unsigned long long)(uintptr_t)info->si_addr);
	say_registers(r);
	say_frames((UINT64)r[REG_RBP]);
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
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND; /* a fault in here just ends it */
	for (size_t i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
}
