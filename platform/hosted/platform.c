/* The platform API on Linux: stderr as the log, the host clocks, SIGALRM as the timer
 * interrupt (masked by a flag, as cli/sti would), process exit as reset. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/time.h>

#include "hosted.h"
#include <ember/core/core.h>
#include <ember/lib/format.h>
#include <ember/core/platform.h>
#include <ember/core/platform_common.h>
#include <ember/lib/str.h>
#include <ember/lib/time.h>

#define TICK_US 1000 /* a 1 ms timer interrupt */

static volatile sig_atomic_t irq_enabled = 1, irq_pending;
static INT64 clock_offset_s; /* SetTime moves the firmware's clock, not the host's */

void plat_log_write(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w, n -= (size_t)w;
	}
}

uint64_t plat_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

bool plat_interrupts_disable(void)
{
	bool was = irq_enabled;

	irq_enabled = 0;
	__asm__ __volatile__("" ::: "memory");
	return was;
}

/* The timer "interrupt" that arrived while masked is delivered as soon as it is unmasked. */
void plat_interrupts_enable(void)
{
	__asm__ __volatile__("" ::: "memory");
	irq_enabled = 1;
	if (irq_pending) {
		irq_pending = 0;
		irq_enabled = 0;
		core_timer_tick(); /* ends with interrupts enabled again */
	}
}

static void timer_signal(int sig)
{
	int saved_errno = errno;

	if (!irq_enabled) {
		irq_pending = 1;
	} else {
		irq_enabled = 0;
		core_timer_tick();
	}
	errno = saved_errno;
}

void hosted_timer_start(void)
{
	struct sigaction sa;
	struct itimerval period = {{0, TICK_US}, {0, TICK_US}};

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = timer_signal;
	/* Nested ticks are allowed, as nested interrupts are: the TPL decides what runs. */
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &period, NULL);
}

void hosted_timer_stop(void)
{
	struct itimerval off = {{0, 0}, {0, 0}};

	setitimer(ITIMER_REAL, &off, NULL);
}

void plat_idle(void)
{
	struct timespec nap = {0, TICK_US * 1000};

	nanosleep(&nap, NULL); /* a tick ends it early */
}

EFI_STATUS plat_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	efi_time_from_unix((INT64)ts.tv_sec + clock_offset_s, time);
	time->Nanosecond = (UINT32)ts.tv_nsec;
	time->TimeZone = 0; /* the host's clock is UTC */
	if (capabilities)
		plat_seconds_clock_capabilities(capabilities);
	return EFI_SUCCESS;
}

EFI_STATUS plat_set_time(const EFI_TIME *time)
{
	struct timespec ts;
	INT64 seconds = efi_time_to_unix(time);

	if (time->TimeZone != EFI_UNSPECIFIED_TIMEZONE)
		seconds += (INT64)time->TimeZone * 60; /* local = UTC - TimeZone */
	clock_gettime(CLOCK_REALTIME, &ts);
	clock_offset_s = seconds - (INT64)ts.tv_sec;
	return EFI_SUCCESS;
}

_Noreturn void plat_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, const void *data)
{
	static const char *const kinds[] = {"cold reset", "warm reset", "shutdown",
					    "platform-specific reset"};
	char line[160];

	/* The reset data starts with a string saying why: show it. */
	if (data && data_size >= sizeof(CHAR16)) {
		char why[512];
		ucs2_to_utf8(why, sizeof(why), data, data_size / sizeof(CHAR16));
		format_sn(line, sizeof(line), "ember-run: %s: %s\n",
			  (UINT32)type < 4 ? kinds[type] : "reset", why);
		plat_log_write(line, strlen(line));
	}
	if (EFI_ERROR(status)) {
		format_sn(line, sizeof(line), "ember-run: %s: %s with %r\n", hosted_options.app,
			  (UINT32)type < 4 ? kinds[type] : "reset", status);
		plat_log_write(line, strlen(line));
	}
	hosted_exit(EFI_ERROR(status) ? 1 : 0);
}

void plat_exit_boot_services(void)
{
	hosted_timer_stop();
	hosted_memory_release();
}

/* The RAM mapping's pages get the protection with mprotect: a write to read-only code or
 * a jump into data faults, and crash.c reports it. */
EFI_STATUS plat_memory_protect(uint64_t start, uint64_t pages, uint64_t attributes)
{
	int prot = PROT_READ | PROT_WRITE | PROT_EXEC;

	if (attributes & EFI_MEMORY_RO)
		prot &= ~PROT_WRITE;
	if (attributes & EFI_MEMORY_XP)
		prot &= ~PROT_EXEC;
	if (attributes & EFI_MEMORY_RP)
		prot = PROT_NONE;
	if (mprotect((void *)(uintptr_t)start, pages * 4096, prot) != 0)
		return errno == ENOMEM ? EFI_OUT_OF_RESOURCES : EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}
