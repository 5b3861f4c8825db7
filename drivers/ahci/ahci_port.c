/* AHCI ports: giving a port its command list and FIS area, starting it and finding out
 * what is attached (AHCI 1.3.1, 10.1.2 and 10.3), and recovering after errors (6.2.2), by a
 * COMRESET when nothing less brings the device back (10.4.2). */
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define ENGINE_TIMEOUT_US 500000	 /* CR and FR must clear within 500 ms (10.3.2) */
#define LINK_TIMEOUT_US 10000		 /* a present device establishes its link in ~10 ms */
#define READY_TIMEOUT_US 3000000	 /* BSY/DRQ clear after the device's reset */
#define COMRESET_HOLD_US 1000		 /* PxSCTL.DET stays 1 at least 1 ms (10.4.2) */
#define COMRESET_LINK_TIMEOUT_US 1000000 /* the link is back after a COMRESET */
#define PAGE_SIZE 4096

bool ahci_port_stop_engines(struct ahci_port *port)
{
	UINT32 cmd = ahci_port_read(port, AHCI_PxCMD);

	if (cmd & AHCI_PxCMD_ST)
		ahci_port_write(port, AHCI_PxCMD, cmd & ~AHCI_PxCMD_ST);
	if (!ahci_port_wait(port, AHCI_PxCMD, AHCI_PxCMD_CR, 0, ENGINE_TIMEOUT_US))
		return false;
	cmd = ahci_port_read(port, AHCI_PxCMD);
	if (cmd & AHCI_PxCMD_FRE)
		ahci_port_write(port, AHCI_PxCMD, cmd & ~AHCI_PxCMD_FRE);
	return ahci_port_wait(port, AHCI_PxCMD, AHCI_PxCMD_FR, 0, ENGINE_TIMEOUT_US);
}

static EFI_STATUS alloc_memory(struct ahci_port *port)
{
	EFI_PCI_IO_PROTOCOL *pci_io = port->hba->pci_io;
	UINTN bytes = PAGE_SIZE;
	void *host;
	EFI_STATUS status;

	status = pci_io->AllocateBuffer(pci_io, AllocateAnyPages, EfiBootServicesData, 1, &host, 0);
	if (EFI_ERROR(status))
		return status;
	status = pci_io->Map(pci_io, EfiPciIoOperationBusMasterCommonBuffer, host, &bytes,
			     &port->mem_addr, &port->mem_mapping);
	if (!EFI_ERROR(status) && bytes != PAGE_SIZE) {
		pci_io->Unmap(pci_io, port->mem_mapping);
		status = EFI_OUT_OF_RESOURCES;
	}
	/* Without 64-bit addressing the HBA sees only the low 4 GiB. */
	if (!EFI_ERROR(status) && !(port->hba->cap & AHCI_CAP_S64A) && port->mem_addr >> 32) {
		pci_io->Unmap(pci_io, port->mem_mapping);
		status = EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status)) {
		pci_io->FreeBuffer(pci_io, 1, host);
		return status;
	}
	port->mem = host;
	mem_set(port->mem, 0, PAGE_SIZE);
	return EFI_SUCCESS;
}

void ahci_port_release(struct ahci_port *port)
{
	EFI_PCI_IO_PROTOCOL *pci_io = port->hba->pci_io;

	if (!port->mem)
		return;
	ahci_port_stop_engines(port);
	ahci_port_write(port, AHCI_PxCLB, 0);
	ahci_port_write(port, AHCI_PxCLBU, 0);
	ahci_port_write(port, AHCI_PxFB, 0);
	ahci_port_write(port, AHCI_PxFBU, 0);
	pci_io->Unmap(pci_io, port->mem_mapping);
	pci_io->FreeBuffer(pci_io, 1, port->mem);
	port->mem = NULL;
}

static void set_addresses(struct ahci_port *port)
{
	UINT64 list = port->mem_addr + AHCI_PORT_CMD_LIST, fis = port->mem_addr + AHCI_PORT_FIS;

	ahci_port_write(port, AHCI_PxCLB, (UINT32)list);
	ahci_port_write(port, AHCI_PxCLBU, (UINT32)(list >> 32));
	ahci_port_write(port, AHCI_PxFB, (UINT32)fis);
	ahci_port_write(port, AHCI_PxFBU, (UINT32)(fis >> 32));
}

static void clear_errors(struct ahci_port *port)
{
	ahci_port_write(port, AHCI_PxSERR, 0xffffffff);
	ahci_port_write(port, AHCI_PxIS, 0xffffffff);
}

static UINT32 link_state(struct ahci_port *port)
{
	return ahci_port_read(port, AHCI_PxSSTS) & AHCI_PxSSTS_DET;
}

bool ahci_port_link_seen(struct ahci_port *port)
{
	UINT32 det = link_state(port);

	return det == AHCI_DET_PRESENT_NO_PHY || det == AHCI_DET_PRESENT;
}

/* Powers and spins the device up, then waits briefly for a link if a device is there
 * (DET 1: present, no communication yet). An empty port answers DET 0 at once. */
static bool link_up(struct ahci_port *port)
{
	UINT32 cmd = ahci_port_read(port, AHCI_PxCMD);

	ahci_port_write(port, AHCI_PxCMD, cmd | AHCI_PxCMD_POD | AHCI_PxCMD_SUD);
	if (link_state(port) == AHCI_DET_PRESENT_NO_PHY)
		ahci_port_wait(port, AHCI_PxSSTS, AHCI_PxSSTS_DET, AHCI_DET_PRESENT,
			       LINK_TIMEOUT_US);
	return link_state(port) == AHCI_DET_PRESENT;
}

/* Sets ST once the device's task file is idle (10.3.1). */
static EFI_STATUS start_commands(struct ahci_port *port)
{
	if (!ahci_port_wait(port, AHCI_PxTFD, AHCI_PxTFD_BSY | AHCI_PxTFD_DRQ, 0, READY_TIMEOUT_US))
		return EFI_TIMEOUT;
	ahci_port_write(port, AHCI_PxCMD, ahci_port_read(port, AHCI_PxCMD) | AHCI_PxCMD_ST);
	return EFI_SUCCESS;
}

EFI_STATUS ahci_port_start(struct ahci_hba *hba, UINT8 index)
{
	struct ahci_port *port = &hba->ports[index];
	EFI_STATUS status;

	if (!ahci_port_stop_engines(port))
		return EFI_DEVICE_ERROR;
	status = alloc_memory(port);
	if (EFI_ERROR(status))
		return status;
	set_addresses(port);
	clear_errors(port);
	/* FIS reception first: PxSIG is filled from the device's first D2H Register FIS. */
	ahci_port_write(port, AHCI_PxCMD, ahci_port_read(port, AHCI_PxCMD) | AHCI_PxCMD_FRE);
	if (!link_up(port)) {
		status = EFI_NOT_FOUND;
		goto err_release;
	}
	status = start_commands(port);
	if (EFI_ERROR(status))
		goto err_release;
	clear_errors(port);
	port->signature = ahci_port_read(port, AHCI_PxSIG);
	return EFI_SUCCESS;

err_release:
	ahci_port_release(port);
	return status;
}

static bool task_file_busy(struct ahci_port *port)
{
	return ahci_port_read(port, AHCI_PxTFD) & (AHCI_PxTFD_BSY | AHCI_PxTFD_DRQ);
}

/* Clears a stuck task file with Command List Override when the HBA has it (3.3.7); false
 * when the task file stays busy. */
static bool override_busy(struct ahci_port *port)
{
	if (!(port->hba->cap & AHCI_CAP_SCLO))
		return false;
	ahci_port_write(port, AHCI_PxCMD, ahci_port_read(port, AHCI_PxCMD) | AHCI_PxCMD_CLO);
	ahci_port_wait(port, AHCI_PxCMD, AHCI_PxCMD_CLO, 0, ENGINE_TIMEOUT_US);
	return !task_file_busy(port);
}

/* COMRESET (10.4.2), with ST clear: PxSCTL.DET 1 for at least 1 ms so that the signal goes
 * out, back to 0, then the link must come back; the device resets and will send its first
 * D2H FIS, which FRE (left on) receives. False when no link comes back. */
static bool comreset(struct ahci_port *port)
{
	UINT32 sctl = ahci_port_read(port, AHCI_PxSCTL) & ~AHCI_PxSCTL_DET;

	log_debug("ahci: port %u: COMRESET\n", port->index);
	ahci_port_write(port, AHCI_PxSCTL, sctl | AHCI_PxSCTL_DET_COMRESET);
	core_stall_us(COMRESET_HOLD_US);
	ahci_port_write(port, AHCI_PxSCTL, sctl);
	if (!ahci_port_wait(port, AHCI_PxSSTS, AHCI_PxSSTS_DET, AHCI_DET_PRESENT,
			    COMRESET_LINK_TIMEOUT_US))
		return false;
	clear_errors(port); /* the reset's own PxSERR and PxIS bits */
	return true;
}

EFI_STATUS ahci_port_recover(struct ahci_port *port)
{
	bool stopped;

	ahci_port_write(port, AHCI_PxCMD, ahci_port_read(port, AHCI_PxCMD) & ~AHCI_PxCMD_ST);
	stopped = ahci_port_wait(port, AHCI_PxCMD, AHCI_PxCMD_CR, 0, ENGINE_TIMEOUT_US);
	clear_errors(port);
	/* A command list that does not stop is hung, and a device that stays busy without a
	 * command list override can only be reached again by a COMRESET (6.2.2.2, 10.4.2). */
	if (!stopped || (task_file_busy(port) && !override_busy(port))) {
		if (!comreset(port)) {
			log_warn("ahci: port %u: no link after COMRESET\n", port->index);
			return EFI_DEVICE_ERROR;
		}
		if (ahci_port_read(port, AHCI_PxCMD) & AHCI_PxCMD_CR) {
			log_warn("ahci: port %u does not stop\n", port->index);
			return EFI_DEVICE_ERROR;
		}
	}
	if (EFI_ERROR(start_commands(port))) {
		log_warn("ahci: port %u stays busy after an error\n", port->index);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}
