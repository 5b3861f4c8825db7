/* The AArch64 platform's start-up, step by step, from entry.S. */
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/drivers/cfi_flash.h>
#include <ember/lib/util.h>
#include "aarch64.h"
#include "../common/qemu_ramfb.h"

#define FIRMWARE_STACK_SIZE (1024 * 1024)
/* What virt's flash erases at once (QEMU's hw/arm/virt.c); the store's two areas are one
 * sector each. */
#define VIRT_FLASH_SECTOR_SIZE (256 * 1024)

_Noreturn void aarch64_halt(void)
{
	for (;;)
		__asm__ __volatile__("msr daifset, #15\n\twfi");
}

static void start_core(void)
{
	size_t count;
	const struct core_memory_range *ranges = memory_ranges(&count);
	/* Runtime memory in whole 64 KiB pages: the OS may use pages of that size. */
	struct core_config config = {ranges, count, u"Ember", 0x00010000, 0x10000};
	EFI_STATUS status;

	runtime_image_declare((uintptr_t)__image_start, (uintptr_t)__image_data_start,
			      (uintptr_t)__image_end);
	runtime_pointer_slots_declare((uintptr_t)__image_data_start,
				      (const UINT8 *)__image_slots_start,
				      (UINTN)(__image_slots_end - __image_slots_start));
	status = core_init(&config);

	if (EFI_ERROR(status)) {
		panic_printf("Ember: the core failed to start: %r\n", status);
		aarch64_halt();
	}
}

/* Pages get the protection of their memory type (no-execute on data and free memory), the
 * image its code read-only and its data no-execute, as the memory attributes table says. */
static void protect_memory(void)
{
	mem_protection_start_with_image((uintptr_t)__image_start, (uintptr_t)__image_data_start,
					(uintptr_t)__image_end);
}

static void boot(void *unused)
{
	/* The flash is device memory in the map (mmu.c): aligned loads only. */
	struct cfi_flash_region vars = {machine.vars_base, VIRT_FLASH_SECTOR_SIZE, true};

	timer_init();
	plat_interrupts_enable();
	init_run_all();
	driver_install_builtin();
	/* A read-only bank (readonly=on): variables in RAM, and the user is told. */
	if (!machine.vars_base)
		panic_printf("Ember: no second pflash bank in the device tree: no variables\n");
	else if (!cfi_flash_variables_start(&vars, pl011_raw_write))
		panic_printf("Ember: variables are kept in RAM and lost at power-off: the second "
			     "pflash bank is not writable flash\n");
	qemu_ramfb_start(); /* reads the ConsoleResolution setting */
	pcie_init();
	ram_disk_from_fw_cfg();
	acpi_or_dt_install();
	driver_connect_all();
	boot_something();
}

/* The firmware's own stack, on which boot programs run too: from boot-services memory,
 * bigger than the early one in the image (core.ld), above a guard page that stays
 * allocated but unmapped (EFI_MEMORY_RP) until ExitBootServices: a stack overflow faults
 * there with a report (exceptions.c) instead of writing over memory further down. One page:
 * a frame of 4 KiB or more can step over it (nothing probes the stack). */
static void switch_stack(void)
{
	EFI_PHYSICAL_ADDRESS stack;

	if (EFI_ERROR(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData,
					 FIRMWARE_STACK_SIZE / 4096 + 1, &stack))) {
		boot(NULL);
		return;
	}
	if (EFI_ERROR(mem_protect(stack, 1, EFI_MEMORY_RP, 0)))
		log_warn("Ember: no guard page below the stack\n");
	else
		exceptions_guard_page(stack);
	call_on_stack(boot, NULL, (void *)(uintptr_t)(stack + 4096 + FIRMWARE_STACK_SIZE));
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
	protect_memory();
	switch_stack();
	panic_printf("Ember: halting\n");
	aarch64_halt();
}
