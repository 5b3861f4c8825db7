/* The platform API on QEMU's AArch64 virt machine: interrupts are PSTATE.I, idling is wfi
 * (or polling the tick without a GICv2), the clock is the PL031, ResetSystem is PSCI.
 * (Monotonic clock and tick in timer.c, log in pl011.c; no wake-up alarm and the reset's
 * log line in platform/common.) */
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/platform.h>
#include <ember/core/platform_common.h>
#include <ember/lib/time.h>
#include "aarch64.h"

#define DAIF_I (1u << 7)
#define RTC_DR 0x00 /* seconds since 1970, read */
#define RTC_LR 0x08 /* seconds since 1970, written */
#define UNIX_2106 0xffffffffLL

bool plat_interrupts_disable(void)
{
	uint64_t daif = READ_SYSREG(daif);

	__asm__ __volatile__("msr daifset, #2" : : : "memory");
	return !(daif & DAIF_I);
}

void plat_interrupts_enable(void)
{
	__asm__ __volatile__("msr daifclr, #2" : : : "memory");
}

void plat_idle(void)
{
	if (machine.gic_version)
		__asm__ __volatile__("wfi" : : : "memory");
	else
		timer_poll();
}

EFI_STATUS plat_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities)
{
	if (!machine.rtc_base)
		return EFI_DEVICE_ERROR;
	efi_time_from_unix(mmio_read32(machine.rtc_base + RTC_DR), time);
	time->TimeZone = EFI_UNSPECIFIED_TIMEZONE;
	if (capabilities)
		plat_seconds_clock_capabilities(capabilities);
	return EFI_SUCCESS;
}

EFI_STATUS plat_set_time(const EFI_TIME *time)
{
	INT64 seconds = efi_time_to_unix(time);

	if (!machine.rtc_base)
		return EFI_DEVICE_ERROR;
	/* The PL031 counts 32-bit seconds from 1970. */
	if (seconds < 0 || seconds > UNIX_2106)
		return EFI_UNSUPPORTED;
	mmio_write32(machine.rtc_base + RTC_LR, (uint32_t)seconds);
	return EFI_SUCCESS;
}

_Noreturn void plat_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, const void *data)
{
	plat_interrupts_disable();
	plat_reset_log(type, status, data_size, data);
	if (!machine.psci)
		panic_printf("Ember: no PSCI in the device tree: trying %s\n",
			     machine.psci_hvc ? "hvc" : "smc");
	if (type == EfiResetShutdown)
		psci_system_off();
	else
		psci_system_reset();
	panic_printf("Ember: reset failed; halting\n");
	aarch64_halt();
}

/* The OS loader owns memory from now on and may run code it copies there, as on x86-64
 * (docs/design.md): only the image keeps its protection (plat_memory_protect in mmu.c), the
 * guard page below the stack is mapped again. The loader goes on in EL1h, on the same
 * stack: boot programs ran on SP_EL0 (EL1t) so that exceptions had a stack of their own
 * (vectors.S), and an OS may take the SPSel it finds for its own. */
void plat_exit_boot_services(void)
{
	timer_stop();
	mmu_release_protection((uintptr_t)__image_start, (uintptr_t)__image_end);
	__asm__ __volatile__("mov x9, sp\n\tmsr spsel, #1\n\tmov sp, x9" : : : "x9", "memory");
}

/* The devices the runtime services touch move with the OS's map (memory.c lists them as
 * runtime MMIO); the flash's driver converts its own. */
static VOID EFIAPI devices_virtual_address_change(EFI_EVENT event, VOID *context)
{
	runtime_convert_pointer((void **)&machine.rtc_base);
	runtime_convert_pointer((void **)&machine.uart_base);
}

static EFI_STATUS devices_runtime_start(void)
{
	static EFI_EVENT event;

	return event_create(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_NOTIFY,
			    devices_virtual_address_change, NULL, NULL, &event);
}
EMBER_INIT(INIT_EARLY, devices_runtime_start);
