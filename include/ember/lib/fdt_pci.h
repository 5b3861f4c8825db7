/* A PCI host bridge node of the generic ECAM binding ("pci-host-ecam-generic", Linux's
 * Documentation/devicetree/bindings/pci/host-generic-pci.yaml and the PCI bus binding of
 * IEEE 1275), as QEMU's Arm virt machine describes its PCIe: the ECAM range, the bus range
 * and the windows of `ranges`. Bounded by the tree reader (lib/fdt.c); what it cannot use
 * is refused, never guessed. */
#ifndef EMBER_FDT_PCI_H
#define EMBER_FDT_PCI_H

#include <stdbool.h>
#include <ember/lib/fdt.h>

/* One window of `ranges`: PCI addresses [pci_base, pci_base + size) are CPU addresses
 * [cpu_base, cpu_base + size). size 0: the tree has none of this kind. */
struct fdt_pci_window {
	UINT64 pci_base, cpu_base, size;
};

struct fdt_pci_host {
	UINT64 ecam_base, ecam_size;
	UINT8 bus_first, bus_last;   /* ECAM holds bus_first at ecam_base, 1 MiB a bus */
	struct fdt_pci_window io;    /* I/O space (memory-mapped on Arm) */
	struct fdt_pci_window mem32; /* 32-bit memory, entirely below 4 GiB in PCI space */
	struct fdt_pci_window mem64; /* 64-bit memory */
	bool dma_coherent;	     /* the "dma-coherent" property */
};

/* Reads the host bridge node (its parent's #address-cells and #size-cells, 1 or 2 each)
 * into *host; false when it is unusable: no ECAM range of at least one bus, a bus-range
 * that is not two cells with first <= last <= 255, a node whose #address-cells is not 3
 * or #size-cells not 1 or 2, or a `ranges` whose length is no whole number of entries. A
 * memory window that translates addresses, wraps, or (32-bit) does not lie below 4 GiB is
 * left out (size 0); the bus range is cut to what the ECAM range holds. */
bool fdt_pci_host_read(const struct fdt *f, long node, UINT32 parent_address_cells,
		       UINT32 parent_size_cells, struct fdt_pci_host *host);

#endif
