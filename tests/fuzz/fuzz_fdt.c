/* Fuzzes the flattened device tree reader (lib/fdt.c) as platform/qemu-aarch64/dt.c uses
 * it: any blob, every node walked, the properties and reg entries the platform reads, and
 * the PCI host bridge nodes read whole (lib/fdt_pci.c); and, as EFI_DT_FIXUP_PROTOCOL does
 * (platform/qemu-aarch64/dt_fixup.c), a checked tree's reservations listed and the tree
 * copied into a bigger buffer and fixed up (lib/fdt_edit.c), which must leave a tree that
 * passes the check and says the RAM it was given. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/lib/fdt.h>
#include <ember/lib/fdt_edit.h>
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

#define FIXUP_ROOM 256
#define RAM_BASE 0x40000000ULL
#define RAM_SIZE 0x40000000ULL

static bool count_reservation(void *ctx, UINT64 base, UINT64 size, bool no_map)
{
	(*(unsigned *)ctx)++;
	return true;
}

/* The walks that take any tree: the children of the root, the reservation block. */
static void walk(const struct fdt *f)
{
	long root = fdt_find_node(f, -1, "", NULL), child = -1;
	UINT64 address, size;

	for (int n = 0; n < 10000 && (child = fdt_next_child(f, root, child)) >= 0; n++)
		fdt_props_end(f, child);
	for (UINT32 i = 0; i < 10000 && fdt_mem_rsv(f, i, &address, &size); i++)
		;
}

static UINT32 root_cells(const struct fdt *f, long root, const char *name, UINT32 otherwise)
{
	const void *value;
	UINT32 len;
	const UINT8 *p;

	if (!fdt_get_prop(f, root, name, &value, &len) || len != 4)
		return otherwise;
	p = value;
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* Whether the root's first child named memory (or memory@...) has reg (RAM_BASE, RAM_SIZE). */
static bool memory_says_ram(const struct fdt *f)
{
	long root = fdt_find_node(f, -1, "", NULL), child = -1;
	UINT32 ac = root_cells(f, root, "#address-cells", 2);
	UINT32 sc = root_cells(f, root, "#size-cells", 1);
	UINT64 base, size;

	while ((child = fdt_next_child(f, root, child)) >= 0) {
		/* The tree passed fdt_check: the name is terminated. */
		const char *name = (const char *)f->blob + f->struct_off + child + 4;
		if (strncmp(name, "memory", 6) == 0 && (name[6] == 0 || name[6] == '@'))
			return fdt_get_reg(f, child, ac, sc, 0, &base, &size) && base == RAM_BASE &&
			       size == RAM_SIZE;
	}
	return false;
}

/* What EFI_DT_FIXUP_PROTOCOL does with a tree that passed fdt_check. */
static void fix_up(const struct fdt *f)
{
	UINT32 capacity = f->size + FIXUP_ROOM;
	uint8_t *buffer = malloc(capacity);
	struct fdt_edit e;
	struct fdt out;
	unsigned count = 0;
	long chosen;

	fdt_reservations(f, count_reservation, &count);
	if (fdt_edit_copy(&e, f, buffer, capacity)) {
		chosen = fdt_find_node(&e.view, -1, "chosen", NULL);
		if (chosen >= 0)
			fdt_edit_set_prop(&e, chosen, "bootargs", "console=ttyAMA0", 16);
		if (fdt_edit_set_memory(&e, RAM_BASE, RAM_SIZE) && !memory_says_ram(&e.view))
			__builtin_trap(); /* the fix-up said yes, and the tree says otherwise */
		fdt_edit_set_total(&e, capacity);
		if (!fdt_open(&out, buffer, capacity) || !fdt_check(&out))
			__builtin_trap(); /* an edit broke the tree */
		fdt_reservations(&out, count_reservation, &count);
	}
	free(buffer);
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
		walk(&f);
		if (fdt_check(&f))
			fix_up(&f);
	}
	free(copy);
	return 0;
}
