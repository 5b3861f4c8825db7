/* virt's PCIe host bridge, as the device tree's pci-host-ecam-generic node describes it
 * (dt.c): configuration space through ECAM, PCI I/O space through its window in MMIO (at
 * 0x3eff0000 on virt), the 32-bit and 64-bit memory windows as the apertures. The shared
 * root bridge (drivers/pci_root_bridge) publishes it and the PCI bus driver (drivers/pci)
 * assigns every BAR and bridge window, as on q35: nothing on virt does it before the
 * firmware. All of it is device memory in the MMU's map (mmu.c). Interrupts are not
 * routed: Ember's drivers poll. DMA is 1:1 (no IOMMU) and taken as cache-coherent, which
 * virt's node says ("dma-coherent") and TCG, modelling no caches, cannot contradict. */
#define LOG_PREFIX "pcie: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/pci_root_bridge.h>
#include <ember/lib/util.h>
#include <efi/pci.h>
#include <efi/protocol/pci_root_bridge_io.h>
#include "aarch64.h"

#define MAPPED_END (1ULL << 40) /* what mmu.c maps */
/* Ports below 0x1000 are ISA's on a PC; left out, as a port 0 BAR looks unassigned. */
#define IO_FIRST_PORT 0x1000

static const struct fdt_pci_host *host = &machine.pcie_host;

static volatile void *ecam(uint32_t bdf, uint16_t offset)
{
	uint64_t function = bdf - ((uint32_t)host->bus_first << 8);

	return (volatile void *)(uintptr_t)(host->ecam_base + (function << 12) + (offset & 0xfff));
}

static uint32_t ecam_read(uint32_t bdf, uint16_t offset, unsigned size)
{
	volatile void *p = ecam(bdf, offset);

	return size == 1   ? *(volatile uint8_t *)p
	       : size == 2 ? *(volatile uint16_t *)p
			   : *(volatile uint32_t *)p;
}

static void ecam_write(uint32_t bdf, uint16_t offset, unsigned size, uint32_t value)
{
	volatile void *p = ecam(bdf, offset);

	if (size == 1)
		*(volatile uint8_t *)p = (uint8_t)value;
	else if (size == 2)
		*(volatile uint16_t *)p = (uint16_t)value;
	else
		*(volatile uint32_t *)p = value;
}

/* PCI I/O space is MMIO on Arm: port p is at the window's CPU address + (p - PCI base). */
static uintptr_t io_address(uint64_t port)
{
	return (uintptr_t)(host->io.cpu_base + (port - host->io.pci_base));
}

static uint32_t io_read(uint64_t port, unsigned size)
{
	uintptr_t p = io_address(port);

	return size == 1   ? *(volatile uint8_t *)p
	       : size == 2 ? *(volatile uint16_t *)p
			   : *(volatile uint32_t *)p;
}

static void io_write(uint64_t port, unsigned size, uint32_t value)
{
	uintptr_t p = io_address(port);

	if (size == 1)
		*(volatile uint8_t *)p = (uint8_t)value;
	else if (size == 2)
		*(volatile uint16_t *)p = (uint16_t)value;
	else
		*(volatile uint32_t *)p = value;
}

/* A window as an aperture from PCI address lowest on (empty when absent, or beyond what the
 * MMU maps). */
static void aperture(const struct fdt_pci_window *w, uint64_t lowest, uint64_t *base,
		     uint64_t *limit)
{
	*base = 1;
	*limit = 0;
	if (!w->size || w->cpu_base + w->size > MAPPED_END || w->pci_base + w->size - 1 < lowest)
		return;
	*base = MAX(w->pci_base, lowest);
	*limit = w->pci_base + w->size - 1;
}

static void describe(struct pci_root_bridge_hw *hw)
{
	struct pci_apertures *ap = &hw->apertures;

	*hw = (struct pci_root_bridge_hw){
	    .config_read = ecam_read,
	    .config_write = ecam_write,
	    .io_read = io_read,
	    .io_write = io_write,
	    .io_host_base = host->io.cpu_base - host->io.pci_base,
	    .io_space_limit = host->io.size ? host->io.pci_base + host->io.size - 1 : 0,
	    .bus_base = host->bus_first,
	    .bus_limit = host->bus_last,
	    .extended_config = true,
	    .supports = EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE,
	};
	aperture(&host->io, IO_FIRST_PORT, &ap->io_base, &ap->io_limit);
	aperture(&host->mem32, 0, &ap->mem32_base, &ap->mem32_limit);
	aperture(&host->mem64, 0, &ap->mem64_base, &ap->mem64_limit);
	if (host->mem64.size && ap->mem64_base > ap->mem64_limit)
		log_warn("the 64-bit window at 0x%llx is beyond the map; not used\n",
			 host->mem64.cpu_base);
}

void pcie_init(void)
{
	struct pci_root_bridge_hw hw;
	EFI_HANDLE root;
	EFI_STATUS status;

	if (!machine.pcie) {
		log_warn("no usable PCIe host bridge in the device tree: no PCI devices\n");
		return;
	}
	if (!host->dma_coherent)
		log_warn("the host bridge is not dma-coherent; Ember does no cache maintenance\n");
	describe(&hw);
	status = pci_root_bridge_install(&hw, &root);
	if (EFI_ERROR(status)) {
		log_error("cannot install the root bridge: %r\n", status);
		return;
	}
	status = driver_connect(root, NULL, NULL, false);
	if (EFI_ERROR(status))
		log_error("no driver for the root bridge: %r\n", status);
}
