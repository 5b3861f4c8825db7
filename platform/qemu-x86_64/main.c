/* The QEMU platform's start-up, step by step. */
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/util.h>
#include "tables/fw_cfg.h"
#include "../common/qemu_ramfb.h"
#include "cpu/interrupts.h"
#include "chipset/pci_host.h"
#include "tables/acpi.h"
#include "qemu.h"

#define FIRMWARE_STACK_SIZE (1024 * 1024)

static void start_core(void)
{
	size_t count;
	const struct core_memory_range *ranges = memory_ranges(&count);
	struct core_config config = {ranges, count, u"Ember", 0x00010000};
	EFI_STATUS status;

	runtime_image_declare((uintptr_t)__core_start, (uintptr_t)__core_data_start,
			      (uintptr_t)__core_end);
	runtime_pointer_slots_declare((uintptr_t)__core_data_start,
				      (const UINT8 *)__core_slots_start,
				      (UINTN)(__core_slots_end - __core_slots_start));
	status = core_init(&config);

	if (EFI_ERROR(status)) {
		panic_printf("Ember: the core failed to start: %r\n", status);
		qemu_halt();
	}
}

/* Pages get the protection of their memory type (no-execute on data and free memory), the
 * core its code read-only and its data no-execute, as the memory attributes table says. */
static void protect_memory(void)
{
	paging_enable_protection();
	mem_protection_start_with_image((uintptr_t)__core_start, (uintptr_t)__core_data_start,
					(uintptr_t)__core_end);
}

/* A message for the user on the console (the serial port and the screen). */
static void console_notice(const CHAR16 *text)
{
	if (core_st->ConOut)
		core_st->ConOut->OutputString(core_st->ConOut, (CHAR16 *)text);
}

static void boot(void *unused)
{
	bool persistent;

	timer_init();
	plat_interrupts_enable();
	init_run_all();
	driver_install_builtin();
	qemu_measure_firmware();
	persistent = pflash_variables_start();
	qemu_ramfb_start(); /* reads the ConsoleResolution setting */
	/* PCR 7 before anything from outside the firmware (option ROMs) can run. */
	measure_secure_boot_policy();
	pci_platform_init(); /* PCI resources, then QEMU's ACPI tables: see pci_platform.c */
	driver_connect_all();
	/* The volume's drivers after the built-in ones (issue 16): connect again for them. */
	if (qemu_dispatch_volume())
		driver_connect_all();
	bgrt_show_logo(); /* once the GOP is there; the BGRT joins QEMU's ACPI tables */
	if (!persistent)
		console_notice(
		    u"Ember: variables are kept in RAM and lost at power-off: this firmware "
		    u"runs from read-only memory (-bios). Use the pflash pair "
		    u"(ember-code.fd + ember-vars.fd) to keep them.\r\n");
	boot_something();
}

/* The firmware's own stack, on which boot programs run too: from boot-services memory,
 * bigger than the early one, with a not-present page below it (it stays allocated), so a
 * stack overflow faults there with a report instead of writing over memory further down. */
static void switch_stack(void)
{
	EFI_PHYSICAL_ADDRESS stack;

	if (EFI_ERROR(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData,
					 FIRMWARE_STACK_SIZE / 4096 + 1, &stack))) {
		boot(NULL);
		return;
	}
	if (!paging_guard_page(stack))
		log_warn("Ember: no guard page below the stack\n");
	call_on_stack(boot, NULL, (void *)(uintptr_t)(stack + 4096 + FIRMWARE_STACK_SIZE));
}

void qemu_main(void)
{
	log_threshold = LOG_LEVEL_DEBUG;
	interrupts_init();
	cold_prepare(); /* once a fault on the cold part can be handled */
	if (!fw_cfg_init())
		panic_printf("Ember: no fw_cfg device: memory size unknown\n");
	chipset_init();
	clock_init();
	start_core();
	paging_protect_null_page();
	protect_memory();
	if (!gdt_fault_stacks_init())
		log_warn("Ember: no stacks for the fault handlers\n");
	switch_stack();
	panic_printf("Ember: nothing to boot; halting\n");
	qemu_halt();
}
