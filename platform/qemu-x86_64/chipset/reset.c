/* ResetSystem: reset through the chipset's reset control register (0xCF9, on both i440FX
 * and Q35), with the keyboard controller's pulse as a fallback; shutdown through the ACPI
 * PM1 control register that chipset.c programmed. */
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/core/platform_common.h>
#include "cpu/io.h"
#include "qemu.h"

#define RESET_CONTROL 0xcf9
#define RST_CPU 0x04
#define SYS_RST 0x02
#define FULL_RST 0x08
#define KBC_COMMAND 0x64

_Noreturn void plat_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, const void *data)
{
	cpu_cli();
	plat_reset_log(type, status, data_size, data);
	if (type == EfiResetShutdown)
		chipset_power_off();
	/* Cold: a full reset; warm: CPU and system reset only. */
	outb(RESET_CONTROL, SYS_RST | (type == EfiResetCold ? FULL_RST : 0));
	outb(RESET_CONTROL, SYS_RST | RST_CPU | (type == EfiResetCold ? FULL_RST : 0));
	outb(KBC_COMMAND, 0xfe);
	panic_printf("Ember: reset failed; halting\n");
	qemu_halt();
}
