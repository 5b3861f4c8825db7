/* The device tree QEMU's virt machine writes at the start of RAM for a firmware boot: the
 * memory, the UART, the RTC, fw_cfg, the GIC, the timer's interrupt, PSCI's conduit and the
 * PCIe host bridge (lib/fdt_pci.c).
 * The machine's fixed addresses stand where the tree says nothing. All of virt's devices
 * sit at the root, whose #address-cells and #size-cells their reg properties use. */
#include <ember/core/varstore.h>
#include <ember/lib/fdt.h>
#include <ember/lib/str.h>
#include "aarch64.h"

#define DT_MAX_SIZE (2u << 20) /* the room below the image (core.ld) */
#define PPI_BASE 16
#define TIMER_VIRT_INDEX 2 /* secure, non-secure physical, virtual, hypervisor */

struct machine machine = {
    .ram_base = 0x40000000,
    .ram_size = 128 << 20,
    .uart_base = 0x09000000,
    .rtc_base = 0x09010000,
    .fw_cfg_base = 0x09020000,
    .vars_base = 0x04000000,
    .gicd_base = 0x08000000,
    .gicc_base = 0x08010000,
    .gic_version = 2,
    .psci_hvc = true,
    .timer_virq = 27,
};

static struct fdt tree;
static bool tree_valid;

static UINT32 cells(long root, const char *name, UINT32 otherwise)
{
	const void *value;
	UINT32 len;
	const UINT8 *p;

	if (!fdt_get_prop(&tree, root, name, &value, &len) || len != 4)
		return otherwise;
	p = value;
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* The base of the first node compatible with compatible, through *base; false when none. */
static bool device_base(const char *compatible, UINT32 ac, UINT32 sc, uint64_t *base)
{
	long node = fdt_find_node(&tree, -1, NULL, compatible);
	UINT64 address, size;

	if (node < 0 || !fdt_get_reg(&tree, node, ac, sc, 0, &address, &size))
		return false;
	*base = address;
	return true;
}

/* A GICv2 (reg: the distributor, the CPU interface) or a GICv3 (reg: the distributor, then
 * the redistributors' region). */
static void read_gic(UINT32 ac, UINT32 sc)
{
	long v2 = fdt_find_node(&tree, -1, NULL, "arm,cortex-a15-gic");
	long v3 = fdt_find_node(&tree, -1, NULL, "arm,gic-v3");
	long node = v2 >= 0 ? v2 : v3;
	UINT64 dist, second, size, second_size;

	machine.gic_version = 0; /* none: the timer is polled (timer.c) */
	if (node < 0 || !fdt_get_reg(&tree, node, ac, sc, 0, &dist, &size) ||
	    !fdt_get_reg(&tree, node, ac, sc, 1, &second, &second_size))
		return;
	machine.gicd_base = dist;
	if (node == v2) {
		machine.gicc_base = second;
		machine.gic_version = 2;
	} else {
		machine.gicr_base = second;
		machine.gicr_size = second_size;
		machine.gic_version = 3;
	}
}

/* The pflash pair: one "cfi-flash" node whose reg holds both banks, code then variables. */
static void read_flash(UINT32 ac, UINT32 sc)
{
	long node = fdt_find_node(&tree, -1, NULL, "cfi-flash");
	UINT64 base, size;

	if (node < 0 || !fdt_get_reg(&tree, node, ac, sc, 1, &base, &size) ||
	    size < VARSTORE_REGION_SIZE)
		machine.vars_base = 0;
	else
		machine.vars_base = base;
}

static void read_timer(void)
{
	long node = fdt_find_node(&tree, -1, NULL, "arm,armv8-timer");
	const void *value;
	UINT32 len;
	const UINT8 *p;

	/* interrupts: (type, number, flags) for each of the four timers. */
	if (node < 0 || !fdt_get_prop(&tree, node, "interrupts", &value, &len) ||
	    len < (TIMER_VIRT_INDEX + 1) * 12)
		return;
	p = (const UINT8 *)value + TIMER_VIRT_INDEX * 12 + 4;
	machine.timer_virq = PPI_BASE + ((UINT32)p[2] << 8 | p[3]);
}

static void read_pcie(UINT32 ac, UINT32 sc)
{
	long node = fdt_find_node(&tree, -1, NULL, "pci-host-ecam-generic");

	machine.pcie = node >= 0 && fdt_pci_host_read(&tree, node, ac, sc, &machine.pcie_host);
}

static void read_psci(void)
{
	long node = fdt_find_node(&tree, -1, "psci", NULL);
	const void *value;
	UINT32 len;

	if (node < 0 || !fdt_get_prop(&tree, node, "method", &value, &len))
		return;
	machine.psci = true;
	machine.psci_hvc = len >= 3 && mem_cmp(value, "hvc", 3) == 0;
}

bool dt_read(void)
{
	const void *blob = (const void *)(uintptr_t)machine.ram_base;
	long root, memory;
	UINT32 ac, sc;
	UINT64 base, size;

	if (!fdt_open(&tree, blob, DT_MAX_SIZE))
		return false;
	tree_valid = true;
	root = fdt_find_node(&tree, -1, "", NULL);
	ac = cells(root, "#address-cells", 2);
	sc = cells(root, "#size-cells", 1);
	memory = fdt_find_node(&tree, -1, "memory", NULL);
	if (memory >= 0 && fdt_get_reg(&tree, memory, ac, sc, 0, &base, &size) &&
	    base == machine.ram_base && size > DT_MAX_SIZE)
		machine.ram_size = size;
	if (!device_base("arm,pl031", ac, sc, &machine.rtc_base))
		machine.rtc_base = 0;
	if (!device_base("qemu,fw-cfg-mmio", ac, sc, &machine.fw_cfg_base))
		machine.fw_cfg_base = 0;
	device_base("arm,pl011", ac, sc, &machine.uart_base);
	read_gic(ac, sc);
	read_flash(ac, sc);
	read_timer();
	read_psci();
	read_pcie(ac, sc);
	return true;
}

void dt_location(uint64_t *base, uint64_t *size)
{
	*base = machine.ram_base;
	*size = tree_valid ? tree.size : 0;
}
