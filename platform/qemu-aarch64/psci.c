/* PSCI (Arm DEN 0022) SYSTEM_OFF and SYSTEM_RESET through the conduit the device tree
 * names (hvc or smc). */
#include "aarch64.h"

#define PSCI_SYSTEM_OFF 0x84000008u
#define PSCI_SYSTEM_RESET 0x84000009u

static void psci_call(uint32_t function)
{
	register uint64_t x0 __asm__("x0") = function;

	if (machine.psci_hvc)
		__asm__ __volatile__("hvc #0"
				     : "+r"(x0)
				     :
				     : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
				       "x11", "x12", "x13", "x14", "x15", "x16", "x17", "memory");
	else
		__asm__ __volatile__("smc #0"
				     : "+r"(x0)
				     :
				     : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
				       "x11", "x12", "x13", "x14", "x15", "x16", "x17", "memory");
}

void psci_system_off(void)
{
	psci_call(PSCI_SYSTEM_OFF);
}

void psci_system_reset(void)
{
	psci_call(PSCI_SYSTEM_RESET);
}
