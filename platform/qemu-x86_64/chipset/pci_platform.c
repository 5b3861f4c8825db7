/* The order QEMU needs: its ACPI tables are generated when the firmware first reads them,
 * from the BARs, windows and chipset registers programmed at that moment. So the root
 * bridge is connected first (the PCI bus driver assigns and enables every resource), then
 * interrupt lines are set, and only then are the ACPI and SMBIOS tables fetched. */
#include <ember/core/core.h>
#include <ember/core/log.h>
#include "../../common/smbios.h"
#include "chipset/pci_host.h"
#include "qemu.h"

/* SMBIOS below 4 GiB even for a 3.0 anchor, as before (UEFI 2.10 section 4.6 asks that
 * of the 2.x table only); the structures into PCR 1. */
static const struct qemu_smbios_platform smbios_below_4gib = {0xffffffffULL, qemu_measure_smbios};

void pci_platform_init(void)
{
	EFI_HANDLE root;
	EFI_STATUS status = qemu_pci_root_bridge_install(&root);

	if (EFI_ERROR(status)) {
		log_error("pci: cannot install the root bridge: %r\n", status);
	} else {
		status = driver_connect(root, NULL, NULL, false);
		if (EFI_ERROR(status))
			log_error("pci: no driver for the root bridge: %r\n", status);
		pci_irq_route();
	}
	status = acpi_install();
	if (EFI_ERROR(status))
		log_error("acpi: no ACPI tables: %r\n", status);
	status = qemu_smbios_install(&smbios_below_4gib);
	if (EFI_ERROR(status))
		log_warn("smbios: no SMBIOS tables: %r\n", status);
}
