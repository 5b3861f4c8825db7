/* The QEMU machine's single PCI root bridge (segment 0, buses 0-255) on the shared
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL (drivers/pci_root_bridge): configuration space through
 * 0xCF8/0xCFC or q35's ECAM (pci_config.c), I/O through x86 ports, OVMF's apertures
 * (pci_apertures.c). */
#include <efi/pci.h>
#include <efi/protocol/pci_root_bridge_io.h>
#include "cpu/io.h"
#include "chipset/pci_config.h"
#include "chipset/pci_host.h"

/* The legacy ranges a QEMU root bridge always forwards (ISA, VGA, IDE). */
#define RB_ATTRIBUTES                                                                              \
	(EFI_PCI_ATTRIBUTE_ISA_MOTHERBOARD_IO | EFI_PCI_ATTRIBUTE_ISA_IO_16 |                      \
	 EFI_PCI_ATTRIBUTE_VGA_MEMORY | EFI_PCI_ATTRIBUTE_VGA_IO_16 |                              \
	 EFI_PCI_ATTRIBUTE_VGA_PALETTE_IO_16 | EFI_PCI_ATTRIBUTE_IDE_PRIMARY_IO |                  \
	 EFI_PCI_ATTRIBUTE_IDE_SECONDARY_IO)

static uint32_t port_read(uint64_t port, unsigned size)
{
	uint16_t p = (uint16_t)port;

	return size == 1 ? inb(p) : size == 2 ? inw(p) : inl(p);
}

static void port_write(uint64_t port, unsigned size, uint32_t value)
{
	uint16_t p = (uint16_t)port;

	if (size == 1)
		outb(p, (uint8_t)value);
	else if (size == 2)
		outw(p, (uint16_t)value);
	else
		outl(p, value);
}

EFI_STATUS qemu_pci_root_bridge_install(EFI_HANDLE *handle)
{
	struct pci_root_bridge_hw hw = {
	    .config_read = pci_config_read,
	    .config_write = pci_config_write,
	    .io_read = port_read,
	    .io_write = port_write,
	    .io_space_limit = 0xffff,
	    .bus_base = 0,
	    .bus_limit = PCI_MAX_BUS,
	    .extended_config = pci_config_extended(),
	    .attributes = RB_ATTRIBUTES,
	    .supports = RB_ATTRIBUTES | EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE,
	};

	pci_apertures_compute(&hw.apertures);
	return pci_root_bridge_install(&hw, handle);
}
