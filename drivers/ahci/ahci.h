/* The AHCI host controller driver's state: the HBA, its ports with their command list and
 * FIS areas, and the ATA/ATAPI devices behind them, each a child handle with BlockIo. The
 * HBA plumbing (ahci_hba.c, ahci_port.c, ahci_exec.c) knows nothing of ATA beyond the FIS;
 * the devices are the shared ATA layer's (ember/drivers/ata.h), over the transport in
 * ahci_device.c. */
#ifndef DRIVERS_AHCI_H
#define DRIVERS_AHCI_H

#include <efi/protocol/pci_io.h>
#include <ember/drivers/blkdev.h>
#include "ahci_regs.h"
#include <ember/drivers/ata.h>

/* Layout of the page each port owns: the command list (1 KiB aligned), the received-FIS
 * area (256-byte aligned), the command table of slot 0 (128-byte aligned) and a scratch
 * buffer for small transfers (IDENTIFY data, sense, capacity). */
#define AHCI_PORT_CMD_LIST 0x000
#define AHCI_PORT_FIS 0x400
#define AHCI_PORT_TABLE 0x500
#define AHCI_PORT_SCRATCH 0xe00
#define AHCI_SCRATCH_BYTES 0x200
#define AHCI_MAX_PRDT ((AHCI_PORT_SCRATCH - AHCI_PORT_TABLE - 0x80) / 16)
/* PRDT entries one command uses at most: 8 x 4 MiB covers the largest ATA transfer. */
#define AHCI_PRDT_PER_COMMAND 8

/* Sata() nodes name a device directly on an HBA port with this port multiplier port. */
#define AHCI_NO_PORT_MULTIPLIER 0xffff

struct ahci_hba;
struct ahci_device;

/* What the last try of a port without a child found (the driver decides by it whether
 * another ConnectController tries the port again). */
enum ahci_probe {
	AHCI_PROBE_UNTRIED, /* not tried since Start, or its child was stopped */
	AHCI_PROBE_EMPTY,   /* no device answered on the link */
	AHCI_PROBE_FAILED,  /* a device that did not become a child */
};

struct ahci_port {
	struct ahci_hba *hba;
	UINT8 index;
	UINT32 signature; /* PxSIG once a device answered */
	UINT8 *mem;	  /* the port's page (see the layout above), while it has a child */
	UINT64 mem_addr;  /* its device address */
	void *mem_mapping;
	struct ahci_device *device; /* the child on this port, or NULL */
	enum ahci_probe probe;	    /* when device is NULL */
};

struct ahci_hba {
	UINT32 signature;
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_HANDLE controller;
	EFI_HANDLE driver;
	EFI_DEVICE_PATH_PROTOCOL *path; /* the controller's device path */
	UINT32 cap;
	UINT32 ports_implemented;
	EFI_EVENT exit_event;
	struct ahci_port ports[AHCI_MAX_PORTS];
};

/* One command for ahci_exec. */
struct ahci_request {
	const struct ata_command *ata;
	const UINT8 *cdb; /* ATAPI packet (12 bytes), or NULL for an ATA command */
	UINT64 data;	  /* device address of the data, when bytes is not 0 */
	UINT32 bytes;
	bool write; /* data flows to the device */
	UINT32 timeout_ms;
	UINT8 error; /* out: the ATA error register when the command failed */
};

/* ---- HBA (ahci_hba.c) ---- */

/* Reads and writes a 32-bit HBA register through PciIo (BAR 5). */
UINT32 ahci_read(struct ahci_hba *hba, UINT32 offset);
void ahci_write(struct ahci_hba *hba, UINT32 offset, UINT32 value);
UINT32 ahci_port_read(struct ahci_port *port, UINT32 reg);
void ahci_port_write(struct ahci_port *port, UINT32 reg, UINT32 value);
/* Polls until (register & mask) == value, for up to timeout_us. */
bool ahci_port_wait(struct ahci_port *port, UINT32 reg, UINT32 mask, UINT32 value,
		    UINT32 timeout_us);

/* Resets the HBA and enables AHCI mode; reads CAP and PI. */
EFI_STATUS ahci_hba_init(struct ahci_hba *hba);

/* Stops every port's DMA (ST and FRE off) without releasing anything (ExitBootServices). */
void ahci_hba_quiesce(struct ahci_hba *hba);

/* ---- Ports (ahci_port.c) ---- */

/* Gives the port its memory, starts it, and reports whether a device is attached
 * (EFI_NOT_FOUND when none); port->signature tells ATA from ATAPI. */
EFI_STATUS ahci_port_start(struct ahci_hba *hba, UINT8 index);

/* Stops the port's engines and releases its memory. */
void ahci_port_release(struct ahci_port *port);

/* Whether the port's link shows a device (PxSSTS.DET 1 or 3); reads only. */
bool ahci_port_link_seen(struct ahci_port *port);

/* Brings a port back after a failed command (AHCI 1.3.1, 6.2.2), with a COMRESET when the
 * device stays busy; EFI_DEVICE_ERROR when the port could not be started again. */
EFI_STATUS ahci_port_recover(struct ahci_port *port);

/* Stops command processing and FIS reception on a port; false on a timeout. */
bool ahci_port_stop_engines(struct ahci_port *port);

/* ---- Commands (ahci_exec.c) ---- */

/* Runs one command in slot 0 and waits for it. EFI_DEVICE_ERROR with req->error set when the
 * device reported an error, EFI_TIMEOUT when it did not finish (the port is recovered in
 * both cases). */
EFI_STATUS ahci_exec(struct ahci_port *port, struct ahci_request *req);

/* The scratch buffer of a port and its device address. */
void *ahci_scratch(struct ahci_port *port);
UINT64 ahci_scratch_addr(struct ahci_port *port);

/* Maps a caller's buffer for a transfer; *bytes may come back smaller. */
EFI_STATUS ahci_map(struct ahci_hba *hba, bool device_reads, void *host, UINTN *bytes,
		    UINT64 *dev_addr, void **mapping);
void ahci_unmap(struct ahci_hba *hba, void *mapping);

/* ---- Devices (ahci_device.c) ---- */

struct ahci_device {
	struct ata_dev ata;
	struct ahci_port *port;
	EFI_DEVICE_PATH_PROTOCOL *path; /* controller path + Sata(port, 0xFFFF, 0) */
	char name[16];
};

/* Creates the child handle for the device on port (BlockIo, BlockIo2, device path) and
 * opens the controller's PciIo BY_CHILD_CONTROLLER. */
EFI_STATUS ahci_device_create(struct ahci_hba *hba, struct ahci_port *port);

/* Removes a child created by ahci_device_create and releases its port; EFI_ACCESS_DENIED
 * if it is in use. */
EFI_STATUS ahci_device_destroy(struct ahci_hba *hba, struct ahci_device *dev);

/* The device behind a child handle of this HBA, or NULL. */
struct ahci_device *ahci_device_on(struct ahci_hba *hba, EFI_HANDLE child);

#endif
