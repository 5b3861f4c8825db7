/* Configuration-space access. Offsets below 256 use 0xCF8/0xCFC; the extended space
 * (256-4095) needs ECAM, which only q35 has (chipset.c sets ecam_base). */
#include "io.h"
#include "pci_config.h"
#include "qemu.h"

#define CONFIG_ADDRESS 0xcf8
#define CONFIG_DATA 0xcfc

uint64_t ecam_base; /* 0 when there is no ECAM (i440FX) */

static void select_register(uint32_t bdf, uint16_t offset)
{
	outl(CONFIG_ADDRESS, 0x80000000u | (bdf << 8) | (offset & 0xfc));
}

static volatile void *ecam(uint32_t bdf, uint16_t offset)
{
	return (volatile void *)(uintptr_t)(ecam_base + ((uint64_t)bdf << 12) + offset);
}

uint32_t pci_read32(uint32_t bdf, uint16_t offset)
{
	if (offset >= 256)
		return ecam_base ? *(volatile uint32_t *)ecam(bdf, offset) : 0xffffffff;
	select_register(bdf, offset);
	return inl(CONFIG_DATA);
}

uint16_t pci_read16(uint32_t bdf, uint16_t offset)
{
	return (uint16_t)(pci_read32(bdf, offset & ~3) >> ((offset & 2) * 8));
}

uint8_t pci_read8(uint32_t bdf, uint16_t offset)
{
	return (uint8_t)(pci_read32(bdf, offset & ~3) >> ((offset & 3) * 8));
}

void pci_write32(uint32_t bdf, uint16_t offset, uint32_t value)
{
	if (offset >= 256) {
		if (ecam_base)
			*(volatile uint32_t *)ecam(bdf, offset) = value;
		return;
	}
	select_register(bdf, offset);
	outl(CONFIG_DATA, value);
}

void pci_write16(uint32_t bdf, uint16_t offset, uint16_t value)
{
	if (offset >= 256) {
		if (ecam_base)
			*(volatile uint16_t *)ecam(bdf, offset) = value;
		return;
	}
	select_register(bdf, offset);
	outw(CONFIG_DATA + (offset & 2), value);
}

void pci_write8(uint32_t bdf, uint16_t offset, uint8_t value)
{
	if (offset >= 256) {
		if (ecam_base)
			*(volatile uint8_t *)ecam(bdf, offset) = value;
		return;
	}
	select_register(bdf, offset);
	outb(CONFIG_DATA + (offset & 3), value);
}
