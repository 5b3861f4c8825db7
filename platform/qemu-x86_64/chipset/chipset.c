/* The two machines' chipsets: Q35 (MCH + ICH9) and i440FX (+ PIIX3/4). Before anything
 * reads QEMU's ACPI tables, the ACPI PM block and (on Q35) the ECAM window must be set up,
 * since QEMU builds the tables from what the firmware programmed. */
#include "cpu/io.h"
#include "chipset/pci_config.h"
#include "qemu.h"

#define HOST_BRIDGE PCI_BDF(0, 0, 0)
#define Q35_MCH_DEVICE 0x29c0
#define I440FX_DEVICE 0x1237

/* Q35: MCH PCIEXBAR (0x60), ICH9 LPC (00:1f.0) PMBASE (0x40) and ACPI_CNTL (0x44). */
#define Q35_PCIEXBAR 0x60
#define Q35_ECAM_BASE 0xb0000000ULL
#define Q35_ECAM_SIZE 0x10000000ULL /* 256 buses */
#define ICH9_LPC PCI_BDF(0, 0x1f, 0)
#define ICH9_PMBASE 0x40
#define ICH9_ACPI_CNTL 0x44
#define ICH9_ACPI_EN 0x80
#define Q35_PM_BASE 0x600

/* i440FX: the PIIX4 power-management function (00:01.3): PMBASE 0x40, PMREGMISC 0x80. */
#define PIIX4_PM PCI_BDF(0, 1, 3)
#define PIIX4_PMBASE 0x40
#define PIIX4_PMREGMISC 0x80
#define PIIX4_PM_BASE 0xb000

#define PM1_CNT 4
#define PM1_SLP_EN (1u << 13)
#define SLP_TYP_S5 0 /* QEMU's _S5 package */

extern uint64_t ecam_base;

enum machine chipset_machine;
static uint16_t pm_base;

static void q35_init(void)
{
	pci_write32(HOST_BRIDGE, Q35_PCIEXBAR + 4, (uint32_t)(Q35_ECAM_BASE >> 32));
	pci_write32(HOST_BRIDGE, Q35_PCIEXBAR, (uint32_t)Q35_ECAM_BASE | 1); /* 256 MiB, on */
	ecam_base = Q35_ECAM_BASE;
	pci_write32(ICH9_LPC, ICH9_PMBASE, Q35_PM_BASE | 1);
	pci_write8(ICH9_LPC, ICH9_ACPI_CNTL, pci_read8(ICH9_LPC, ICH9_ACPI_CNTL) | ICH9_ACPI_EN);
	pm_base = Q35_PM_BASE;
}

static void i440fx_init(void)
{
	pci_write32(PIIX4_PM, PIIX4_PMBASE, PIIX4_PM_BASE | 1);
	pci_write8(PIIX4_PM, PIIX4_PMREGMISC, pci_read8(PIIX4_PM, PIIX4_PMREGMISC) | 1);
	pm_base = PIIX4_PM_BASE;
}

void chipset_init(void)
{
	uint16_t device = pci_read16(HOST_BRIDGE, 2);

	if (device == Q35_MCH_DEVICE) {
		chipset_machine = MACHINE_Q35;
		q35_init();
	} else {
		chipset_machine = device == I440FX_DEVICE ? MACHINE_I440FX : MACHINE_UNKNOWN;
		i440fx_init();
	}
	s3_save_forget();
}

bool chipset_ecam(uint64_t *base, uint64_t *size)
{
	*base = ecam_base;
	*size = ecam_base ? Q35_ECAM_SIZE : 0;
	return ecam_base != 0;
}

uint16_t chipset_pm_base(void)
{
	return pm_base;
}

void chipset_power_off(void)
{
	if (pm_base)
		outw(pm_base + PM1_CNT, (SLP_TYP_S5 << 10) | PM1_SLP_EN);
}
