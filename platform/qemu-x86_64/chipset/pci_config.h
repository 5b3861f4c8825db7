/* PCI configuration space through the legacy 0xCF8/0xCFC mechanism (both machines) and,
 * on q35, the memory-mapped ECAM for the extended space. */
#ifndef QEMU_PCI_CONFIG_H
#define QEMU_PCI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#define PCI_BDF(bus, dev, fn) (((uint32_t)(bus) << 8) | ((uint32_t)(dev) << 3) | (fn))

/* One access of size 1, 2 or 4 bytes (the root bridge's hooks). */
uint32_t pci_config_read(uint32_t bdf, uint16_t offset, unsigned size);
void pci_config_write(uint32_t bdf, uint16_t offset, unsigned size, uint32_t value);
uint32_t pci_read32(uint32_t bdf, uint16_t offset);
uint16_t pci_read16(uint32_t bdf, uint16_t offset);
uint8_t pci_read8(uint32_t bdf, uint16_t offset);
void pci_write32(uint32_t bdf, uint16_t offset, uint32_t value);
void pci_write16(uint32_t bdf, uint16_t offset, uint16_t value);
void pci_write8(uint32_t bdf, uint16_t offset, uint8_t value);
/* True when offsets 256-4095 (PCIe extended space) are reachable (ECAM). */
bool pci_config_extended(void);

#endif
