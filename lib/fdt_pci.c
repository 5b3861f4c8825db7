/* The generic ECAM PCI host bridge node (include/ember/lib/fdt_pci.h). A `ranges` entry is
 * (PCI address: 3 cells, CPU address: the parent's #address-cells, size: the node's
 * #size-cells); the first PCI cell's bits 24-25 name the space (1 I/O, 2 32-bit memory,
 * 3 64-bit memory). */
#include <ember/lib/fdt_pci.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define PCI_ADDRESS_CELLS 3
#define ECAM_BUS_SIZE (1ULL << 20)
#define FOUR_GIB 0x100000000ULL
#define SPACE_IO 1
#define SPACE_MEM32 2
#define SPACE_MEM64 3

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

static UINT64 cells_value(const UINT8 *p, UINT32 cells)
{
	return cells == 2 ? (UINT64)be32(p) << 32 | be32(p + 4) : be32(p);
}

/* The node's own one-cell property name, or otherwise when it has none. */
static bool node_cells(const struct fdt *f, long node, const char *name, UINT32 otherwise,
		       UINT32 *out)
{
	const void *value;
	UINT32 len;

	*out = otherwise;
	if (!fdt_get_prop(f, node, name, &value, &len))
		return true;
	if (len != 4)
		return false;
	*out = be32(value);
	return true;
}

static bool read_bus_range(const struct fdt *f, long node, struct fdt_pci_host *host)
{
	const void *value;
	UINT32 len, first, last;

	host->bus_first = 0;
	host->bus_last = 255;
	if (!fdt_get_prop(f, node, "bus-range", &value, &len))
		return true;
	if (len != 8)
		return false;
	first = be32(value);
	last = be32((const UINT8 *)value + 4);
	if (first > last || last > 255)
		return false;
	host->bus_first = (UINT8)first;
	host->bus_last = (UINT8)last;
	return true;
}

/* Keeps the first usable window of each kind. */
static void take_window(struct fdt_pci_host *host, UINT32 space, UINT64 pci, UINT64 cpu,
			UINT64 size)
{
	struct fdt_pci_window *w = space == SPACE_IO	  ? &host->io
				   : space == SPACE_MEM32 ? &host->mem32
				   : space == SPACE_MEM64 ? &host->mem64
							  : NULL;
	UINT64 end;

	if (!w || w->size || !size || add_overflows(cpu, size - 1, &end) ||
	    add_overflows(pci, size - 1, &end))
		return;
	/* Ember's memory accesses use the BAR address as it is: no translated memory. */
	if (space != SPACE_IO && pci != cpu)
		return;
	if (space != SPACE_MEM64 && end >= FOUR_GIB)
		return;
	*w = (struct fdt_pci_window){pci, cpu, size};
}

static bool read_ranges(const struct fdt *f, long node, UINT32 pac, UINT32 sc,
			struct fdt_pci_host *host)
{
	const void *value;
	UINT32 len, entry = (PCI_ADDRESS_CELLS + pac + sc) * 4;
	const UINT8 *p;

	if (!fdt_get_prop(f, node, "ranges", &value, &len))
		return true; /* no windows: nothing to assign, yet configuration works */
	if (len % entry)
		return false;
	for (p = value; len; p += entry, len -= entry) {
		UINT32 space = be32(p) >> 24 & 3;
		UINT64 pci = (UINT64)be32(p + 4) << 32 | be32(p + 8);
		UINT64 cpu = cells_value(p + PCI_ADDRESS_CELLS * 4, pac);
		UINT64 size = cells_value(p + (PCI_ADDRESS_CELLS + pac) * 4, sc);
		take_window(host, space, pci, cpu, size);
	}
	return true;
}

bool fdt_pci_host_read(const struct fdt *f, long node, UINT32 parent_address_cells,
		       UINT32 parent_size_cells, struct fdt_pci_host *host)
{
	UINT32 ac, sc, len;
	UINT64 buses, end;
	const void *flag;

	mem_set(host, 0, sizeof(*host));
	if (parent_address_cells < 1 || parent_address_cells > 2 || parent_size_cells < 1 ||
	    parent_size_cells > 2)
		return false;
	if (!fdt_get_reg(f, node, parent_address_cells, parent_size_cells, 0, &host->ecam_base,
			 &host->ecam_size) ||
	    host->ecam_size < ECAM_BUS_SIZE ||
	    add_overflows(host->ecam_base, host->ecam_size - 1, &end))
		return false;
	if (!node_cells(f, node, "#address-cells", PCI_ADDRESS_CELLS, &ac) ||
	    ac != PCI_ADDRESS_CELLS || !node_cells(f, node, "#size-cells", 2, &sc) || sc < 1 ||
	    sc > 2)
		return false;
	if (!read_bus_range(f, node, host))
		return false;
	buses = host->ecam_size / ECAM_BUS_SIZE;
	if (buses < (UINT64)host->bus_last - host->bus_first + 1)
		host->bus_last = (UINT8)(host->bus_first + buses - 1);
	host->dma_coherent = fdt_get_prop(f, node, "dma-coherent", &flag, &len);
	return read_ranges(f, node, parent_address_cells, sc, host);
}
