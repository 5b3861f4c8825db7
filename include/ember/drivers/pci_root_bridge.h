/* EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL over a platform's host bridge (drivers/pci_root_bridge):
 * the protocol, its argument checks, Configuration() and DMA are the same on every
 * platform; the platform gives how configuration space and I/O ports are reached and the
 * apertures the PCI bus driver (drivers/pci) assigns BARs and bridge windows from. Used by
 * QEMU's x86-64 machines (0xCF8/ECAM, port I/O) and AArch64 virt (ECAM, the I/O window
 * as MMIO). */
#ifndef EMBER_PCI_ROOT_BRIDGE_H
#define EMBER_PCI_ROOT_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>
#include <efi/status.h>
#include <efi/types.h>

/* Address ranges of the root bridge as PCI sees them, inclusive limits; a range is empty
 * when base > limit. */
struct pci_apertures {
	uint64_t io_base, io_limit;
	uint64_t mem32_base, mem32_limit;
	uint64_t mem64_base, mem64_limit;
};

/* The hardware behind one root bridge (segment 0). Accesses are naturally aligned and of
 * size 1, 2 or 4; a function is bdf = bus << 8 | device << 3 | function, its bus inside
 * [bus_base, bus_limit]. */
struct pci_root_bridge_hw {
	uint32_t (*config_read)(uint32_t bdf, uint16_t offset, unsigned size);
	void (*config_write)(uint32_t bdf, uint16_t offset, unsigned size, uint32_t value);
	/* PCI I/O space at port (at most io_space_limit). */
	uint32_t (*io_read)(uint64_t port, unsigned size);
	void (*io_write)(uint64_t port, unsigned size, uint32_t value);
	struct pci_apertures apertures;
	/* Where the CPU sees PCI I/O port 0 (Arm's I/O window in MMIO); 0 on x86, where ports
	 * are ports. Configuration() gives it as the translation offset (UEFI 2.10, 14.2). */
	uint64_t io_host_base;
	uint64_t io_space_limit; /* the last I/O port reachable */
	uint8_t bus_base, bus_limit;
	bool extended_config; /* offsets 256-4095 reachable (ECAM) */
	uint64_t attributes;  /* EFI_PCI_ATTRIBUTE_* on at start */
	uint64_t supports;    /* EFI_PCI_ATTRIBUTE_* SetAttributes accepts */
};

/* Installs the protocol for hw (copied) on a new handle with the device path PciRoot(0x0). */
EFI_STATUS pci_root_bridge_install(const struct pci_root_bridge_hw *hw, EFI_HANDLE *handle);

#endif
