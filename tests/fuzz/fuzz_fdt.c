/* Fuzzes the flattened device tree reader (lib/fdt.c) as platform/qemu-aarch64/dt.c uses
 * it: any blob, every node walked, the properties and reg entries the platform reads, and
 * the PCI host bridge nodes read whole (lib/fdt_pci.c). */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/lib/fdt.h>
#include <ember/lib/fdt_pci.h>

static const char *const names[] = {"", "memory", "psci", "chosen"};
static const char *const compatibles[] = {"arm,pl011",	      "arm,pl031",
					  "qemu,fw-cfg-mmio", "arm,cortex-a15-gic",
					  "arm,armv8-timer",  "pci-host-ecam-generic"};

static void read_node(const struct fdt *f, long node)
{
	static const char *const props[] = {"reg",	  "compatible",	    "method",
					    "interrupts", "#address-cells", "ranges"};
	struct fdt_pci_host host;
	const void *value;
	UINT32 len;
	UINT64 address, size;
	volatile UINT8 sink = 0;

	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++)
		if (fdt_get_prop(f, node, props[i], &value, &len) && len)
			sink ^= ((const UINT8 *)value)[len - 1]; /* ASan checks the bound */
	for (UINT32 ac = 1; ac <= 2; ac++)
		for (UINT32 idx = 0; idx < 3; idx++)
			fdt_get_reg(f, node, ac, 2, idx, &address, &size);
	for (UINT32 ac = 1; ac <= 3; ac++)
		if (fdt_pci_host_read(f, node, ac, 2, &host) && host.bus_first > host.bus_last)
			__builtin_trap(); /* the reader promised first <= last */
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdt f;
	uint8_t *copy;
	long node;

	/* An exact-size copy, so that reading past the given size is caught. */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (fdt_open(&f, copy, size)) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			for (node = fdt_find_node(&f, -1, names[i], NULL); node >= 0;
			     node = fdt_find_node(&f, node, names[i], NULL))
				read_node(&f, node);
		for (size_t i = 0; i < sizeof(compatibles) / sizeof(compatibles[0]); i++)
			for (node = fdt_find_node(&f, -1, NULL, compatibles[i]); node >= 0;
			     node = fdt_find_node(&f, node, NULL, compatibles[i]))
				read_node(&f, node);
	}
	free(copy);
	return 0;
}
