/* The AHCI HBA: register access through PciIo, reset and AHCI enable (AHCI 1.3.1, 10.4.3),
 * and quiescing it at ExitBootServices. */
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>

#define POLL_US 10
#define HBA_RESET_TIMEOUT_US 1000000

UINT32 ahci_read(struct ahci_hba *hba, UINT32 offset)
{
	UINT32 value = 0xffffffff;

	hba->pci_io->Mem.Read(hba->pci_io, EfiPciIoWidthUint32, AHCI_ABAR, offset, 1, &value);
	return value;
}

void ahci_write(struct ahci_hba *hba, UINT32 offset, UINT32 value)
{
	hba->pci_io->Mem.Write(hba->pci_io, EfiPciIoWidthUint32, AHCI_ABAR, offset, 1, &value);
}

static UINT32 port_offset(struct ahci_port *port, UINT32 reg)
{
	return AHCI_PORT_BASE + AHCI_PORT_STRIDE * port->index + reg;
}

UINT32 ahci_port_read(struct ahci_port *port, UINT32 reg)
{
	return ahci_read(port->hba, port_offset(port, reg));
}

void ahci_port_write(struct ahci_port *port, UINT32 reg, UINT32 value)
{
	ahci_write(port->hba, port_offset(port, reg), value);
}

bool ahci_port_wait(struct ahci_port *port, UINT32 reg, UINT32 mask, UINT32 value,
		    UINT32 timeout_us)
{
	for (UINT32 waited = 0;; waited += POLL_US) {
		if ((ahci_port_read(port, reg) & mask) == value)
			return true;
		if (waited >= timeout_us)
			return false;
		core_stall_us(POLL_US);
	}
}

static bool hba_wait_reset(struct ahci_hba *hba)
{
	for (UINT32 waited = 0; waited < HBA_RESET_TIMEOUT_US; waited += POLL_US) {
		if (!(ahci_read(hba, AHCI_GHC) & AHCI_GHC_HR))
			return true;
		core_stall_us(POLL_US);
	}
	return false;
}

EFI_STATUS ahci_hba_init(struct ahci_hba *hba)
{
	/* AE first: on HBAs that also do legacy IDE, HR is only defined in AHCI mode. */
	ahci_write(hba, AHCI_GHC, AHCI_GHC_AE);
	ahci_write(hba, AHCI_GHC, AHCI_GHC_AE | AHCI_GHC_HR);
	if (!hba_wait_reset(hba)) {
		log_warn("ahci: the HBA did not finish its reset\n");
		return EFI_DEVICE_ERROR;
	}
	/* Interrupts stay off: the driver polls. */
	ahci_write(hba, AHCI_GHC, AHCI_GHC_AE);
	hba->cap = ahci_read(hba, AHCI_CAP);
	hba->ports_implemented = ahci_read(hba, AHCI_PI);
	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++) {
		hba->ports[i].hba = hba;
		hba->ports[i].index = i;
	}
	log_debug("ahci: version %#x, CAP %#x, ports %#x\n", ahci_read(hba, AHCI_VS), hba->cap,
		  hba->ports_implemented);
	return EFI_SUCCESS;
}

void ahci_hba_quiesce(struct ahci_hba *hba)
{
	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *port = &hba->ports[i];

		if (port->mem)
			ahci_port_stop_engines(port);
	}
	ahci_write(hba, AHCI_GHC, ahci_read(hba, AHCI_GHC) & ~AHCI_GHC_IE);
}
