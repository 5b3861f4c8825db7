/* The platform API on QEMU x86-64: interrupts are the IF flag, idling is hlt, ExitBootServices
 * stops the timer. (Clock in clock.c, RTC in rtc.c, reset in reset.c, log in debug_log.c.) */
#include <ember/core/platform.h>
#include "cpu/io.h"
#include "qemu.h"

bool plat_interrupts_disable(void)
{
	bool was = read_flags() & FLAGS_IF;

	cpu_cli();
	return was;
}

void plat_interrupts_enable(void)
{
	cpu_sti();
}

void plat_idle(void)
{
	cpu_sti_hlt();
}

void timer_stop(void);

/* The OS loader owns memory from now on: it may run code it copies into memory that was
 * free or boot-services data (GRUB 2.06 puts its relocator's trampoline there after
 * ExitBootServices), so only the runtime core keeps its protection (docs/design.md). */
void plat_exit_boot_services(void)
{
	/* Runtime services may need cold code, and the OS maps the whole core. */
	cold_unpack(0);
	timer_stop();
	s3_save();
	paging_unguard_all();
	paging_release_protection((uintptr_t)__core_start, (uintptr_t)__core_end);
}
