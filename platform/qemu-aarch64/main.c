/* The AArch64 platform's start-up, step by step, from entry.S. */
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include "aarch64.h"

_Noreturn void aarch64_halt(void)
{
	for (;;)
		__asm__ __volatile__("msr daifset, #15\n\twfi");
}

static void start_core(void)
{
	size_t count;
	const struct core_memory_range *ranges = memory_ranges(&count);
	struct core_config config = {ranges, count, u"Ember", 0x00010000};
	EFI_STATUS status = core_init(&config);

	if (EFI_ERROR(status)) {
		panic_printf("Ember: the core failed to start: %r\n", status);
		aarch64_halt();
	}
}

void aarch64_main(void)
{
	/* First the MMU: without it all data accesses are to device memory, where unaligned
	 * ones fault. */
	mmu_enable();
	exceptions_init();
	if (!dt_read())
		panic_printf("Ember: no device tree at 0x%llx: assuming 128 MiB\n",
			     machine.ram_base);
	mmu_map_ram(machine.ram_base, machine.ram_base + machine.ram_size);
	/* The log shares the UART with the console: warnings and errors only. */
	log_threshold = LOG_LEVEL_WARN;
	start_core();
	timer_init();
	plat_interrupts_enable();
	init_run_all();
	driver_install_builtin();
	driver_connect_all();
	boot_something();
	panic_printf("Ember: halting\n");
	aarch64_halt();
}
