/* Configuration-space access. With ECAM (q35, once chipset.c enabled it) every access is one
 * memory cycle; otherwise the two-step 0xCF8/0xCFC mechanism reaches offsets below 256, with
 * interrupts off in between so that a handler's access cannot slip between the steps. */
#include <ember/core/platform.h>
#include "cpu/io.h"
#include "chipset/pci_config.h"
#include "qemu.h"

#define CONFIG_ADDRESS 0xcf8
#define CONFIG_DATA 0xcfc

uint64_t ecam_base; /* 0 when there is no ECAM (i440FX) */

static volatile void *ecam(uint32_t bdf, uint16_t offset)
{
	return (volatile void *)(uintptr_t)(ecam_base + ((uint64_t)bdf << 12) + (offset & 0xfff));
}

uint32_t pci_config_read(uint32_t bdf, uint16_t offset, unsigned size)
{
	uint32_t v;
	bool was_on;

	if (ecam_base) {
		volatile void *p = ecam(bdf, offset);
		return size == 1   ? *(volatile uint8_t *)p
		       : size == 2 ? *(volatile uint16_t *)p
				   : *(volatile uint32_t *)p;
	}
	if (offset >= 256)
		return 0xffffffff;
	was_on = plat_interrupts_disable();
	outl(CONFIG_ADDRESS, 0x80000000u | (bdf << 8) | (offset & 0xfc));
	v = size == 1	? inb(CONFIG_DATA + (offset & 3))
	    : size == 2 ? inw(CONFIG_DATA + (offset & 2))
			: inl(CONFIG_DATA);
	if (was_on)
		plat_interrupts_enable();
	return v;
}

void pci_config_write(uint32_t bdf, uint16_t offset, unsigned size, uint32_t value)
{
	bool was_on;

	if (ecam_base) {
		volatile void *p = ecam(bdf, offset);
		if (size == 1)
			*(volatile uint8_t *)p = (uint8_t)value;
		else if (size == 2)
			*(volatile uint16_t *)p = (uint16_t)value;
		else
			*(volatile uint32_t *)p = value;
		return;
	}
	if (offset >= 256)
		return;
	was_on = plat_interrupts_disable();
	outl(CONFIG_ADDRESS, 0x80000000u | (bdf << 8) | (offset & 0xfc));
	if (size == 1)
		outb(CONFIG_DATA + (offset & 3), (uint8_t)value);
	else if (size == 2)
		outw(CONFIG_DATA + (offset & 2), (uint16_t)value);
	else
		outl(CONFIG_DATA, value);
	if (was_on)
		plat_interrupts_enable();
}

uint32_t pci_read32(uint32_t bdf, uint16_t offset)
{
	return pci_config_read(bdf, offset & ~3, 4);
}

uint16_t pci_read16(uint32_t bdf, uint16_t offset)
{
	return (uint16_t)pci_config_read(bdf, offset & ~1, 2);
}

uint8_t pci_read8(uint32_t bdf, uint16_t offset)
{
	return (uint8_t)pci_config_read(bdf, offset, 1);
}

void pci_write32(uint32_t bdf, uint16_t offset, uint32_t value)
{
	pci_config_write(bdf, offset & ~3, 4, value);
}

void pci_write16(uint32_t bdf, uint16_t offset, uint16_t value)
{
	pci_config_write(bdf, offset & ~1, 2, value);
}

void pci_write8(uint32_t bdf, uint16_t offset, uint8_t value)
{
	pci_config_write(bdf, offset, 1, value);
}

bool pci_config_extended(void)
{
	return ecam_base != 0;
}
