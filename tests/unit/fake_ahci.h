/* An AHCI 1.3.1 host bus adapter in memory, behind a fake PCI function (fake_pci_io.h) of
 * class 01/06/01 with its registers in BAR 5 (ABAR), for the tests of the AHCI driver.
 * It models what a driver relies on: GHC.AE and GHC.HR, CAP (64-bit addressing, command list
 * override, staggered spin-up), and per port CLB/FB, IS (write 1 to clear), CMD with ST/CR
 * and FRE/FR following each other, CLO, TFD, SIG, SSTS, SCTL, SERR and CI. Setting a CI bit
 * runs the command: the HBA walks the command list, table and PRDT through
 * fake_pci_io_dma (so only mapped memory is reachable), gives the command FIS (and ATAPI
 * packet) to the device, writes the D2H Register FIS into the received-FIS area, updates
 * TFD, IS and PRDBC, and clears CI, or leaves it set with TFES on an error as hardware does.
 * Devices: an ATA disk over a byte array (fake_ahci_ata.c) and an ATAPI CD-ROM with a medium
 * that comes and goes. Time is the unit-test clock: the link, the device's first FIS, the
 * reset and each command can take a while, or forever. Anything a driver does that the
 * spec forbids (touching CLB while the engine runs, ST without FRE, a PACKET without the A
 * bit, a PRDT shorter than the transfer ...) is an error of the PCI function
 * (fake_pci_io_error). */
#ifndef EMBER_TEST_FAKE_AHCI_H
#define EMBER_TEST_FAKE_AHCI_H

#include <stdbool.h>
#include "fake_pci_io.h"

#define FAKE_AHCI_PORTS 32
#define FAKE_AHCI_NEVER UINT64_MAX /* a delay that never ends */

enum fake_ahci_device {
	FAKE_AHCI_EMPTY,
	FAKE_AHCI_DISK,
	FAKE_AHCI_CDROM,
	FAKE_AHCI_OTHER, /* a device whose signature the driver does not know */
};

enum fake_ahci_fault_kind {
	FAKE_AHCI_FAULT_NONE,
	FAKE_AHCI_FAULT_ERROR,	     /* ERR in the status (ABRT; CHECK CONDITION for a packet) */
	FAKE_AHCI_FAULT_HANG,	     /* the device stays busy: CI never clears */
	FAKE_AHCI_FAULT_HOST_BUS,    /* PxIS.HBFS: the HBA's memory access failed */
	FAKE_AHCI_FAULT_QUIET_ERROR, /* ERR in PxTFD, yet CI cleared and no TFES (a quirk) */
};

/* A fault and the commands it hits: an ATA command code, and for PACKET (0xA0) the CDB
 * opcode too when cdb is set. */
struct fake_ahci_fault {
	enum fake_ahci_fault_kind kind;
	UINT8 command;
	bool cdb;
	UINT8 cdb_op;
	UINT32 times; /* commands it hits before it goes away; 0: all of them */
};

/* An ATA disk. IDENTIFY DEVICE data is built from it when attached (and may be edited). */
struct fake_ahci_disk {
	UINT8 *data; /* sectors * sector_size bytes, the test's */
	UINT64 sectors;
	UINT32 sector_size;   /* logical sector: 512 or 4096 */
	UINT8 physical_shift; /* log2 of logical sectors per physical sector */
	UINT16 alignment;     /* IDENTIFY word 209: where LBA 0 sits in its physical sector */
	bool lba28;	      /* no 48-bit feature set: READ/WRITE DMA, FLUSH CACHE */
	bool write_cache;     /* a volatile write cache, enabled */
	bool bad_sector;      /* bad_lba cannot be read or written (UNC / ABRT) */
	UINT64 bad_lba;
};

/* An ATAPI CD-ROM drive (MMC) and its medium of 2048-byte blocks. */
struct fake_ahci_cd {
	bool present;
	UINT8 *data; /* blocks * 2048 bytes, the test's */
	UINT32 blocks;
	UINT32 reported_block_size; /* READ CAPACITY's block length (0 is taken as 2048) */
	UINT32 becoming_ready;	    /* NOT READY, "becoming ready" answers still to give */
	bool descriptor_sense;	    /* REQUEST SENSE answers in descriptor format (0x72) */
	/* Sense data of the last CHECK CONDITION and a unit attention to report. */
	UINT8 key, asc, ascq;
	bool attention;
	UINT8 attention_asc;
};

struct fake_ahci;

struct fake_ahci_port {
	struct fake_ahci *hba;
	UINT8 index;
	enum fake_ahci_device device;
	UINT32 other_signature;
	struct fake_ahci_disk disk;
	struct fake_ahci_cd cd;
	UINT16 identify[256];
	/* Delays in ns of the test clock: the link after a COMRESET, the device's first D2H
	 * FIS after the link, each command. FAKE_AHCI_NEVER for never. */
	UINT64 link_ns, ready_ns, command_ns;
	bool engine_stuck; /* CR and FR never clear */
	struct fake_ahci_fault fault;
	/* Registers (AHCI 1.3.1, 3.3). */
	UINT32 clb, clbu, fb, fbu, is, ie, cmd, tfd, sig, ssts, sctl, serr, sact, ci;
	/* Where the port is in its work. */
	bool link_training, fis_pending;
	bool running;	/* a command is in the device until done_at */
	bool abandoned; /* ... and the HBA gave up on it (ST cleared) */
	UINT64 link_at, ready_at, done_at;
	UINT64 comreset_at; /* when PxSCTL.DET became 1 */
	/* What the port saw. */
	UINTN commands, identifies, reads, writes, flushes, packets, errors, comresets;
	UINT64 sectors_read, sectors_written;
	UINT32 max_prdt;  /* most PRDT entries one command had */
	UINT32 max_bytes; /* most bytes one command moved */
	UINT8 last_command, last_cdb_op;
	UINT64 last_lba;
};

struct fake_ahci {
	struct fake_pci_io *pci;
	UINT32 cap, ghc, pi, vs;
	UINT64 reset_ns; /* how long GHC.HR stays set */
	UINT64 reset_at;
	UINTN resets;
	struct fake_ahci_port ports[FAKE_AHCI_PORTS];
};

/* An ICH9-like HBA (8086:2922) at PciRoot(0x0)/Pci(pci_dev,0x2) with ports_implemented in
 * PI, nothing attached, 64-bit addressing and command list override in CAP, memory decoding
 * and bus mastering off (the function supports them and DUAL_ADDRESS_CYCLE). NULL on
 * failure. */
struct fake_ahci *fake_ahci_create(UINT8 pci_dev, UINT32 ports_implemented);

/* Removes the HBA (fake_pci_io_destroy) and frees it. */
void fake_ahci_destroy(struct fake_ahci *a);

/* Attaches a device to a port, as if it had been there at power-on. */
void fake_ahci_attach_disk(struct fake_ahci *a, UINT8 port, const struct fake_ahci_disk *disk);
void fake_ahci_attach_cd(struct fake_ahci *a, UINT8 port, const struct fake_ahci_cd *cd);
void fake_ahci_attach_other(struct fake_ahci *a, UINT8 port, UINT32 signature);

/* The device hangs in the middle of something: busy (PxTFD.BSY) until a command list
 * override or a COMRESET. */
void fake_ahci_wedge(struct fake_ahci_port *p);

/* A medium goes into the drive (a unit attention follows), or out of it. */
void fake_ahci_cd_insert(struct fake_ahci_port *p, UINT8 *data, UINT32 blocks);
void fake_ahci_cd_eject(struct fake_ahci_port *p);

/* ---- Between the HBA (fake_ahci.c) and its devices (fake_ahci_ata.c) ---- */

/* A command's data: the PRDT of one command, walked in order. */
struct fake_ahci_xfer {
	struct fake_ahci_port *port;
	const volatile UINT8 *prdt; /* prdtl entries of 16 bytes */
	UINT32 prdtl;
	bool header_write; /* the command header's W bit: data flows to the device */
	UINT32 done;	   /* bytes moved so far (PRDBC) */
	bool bus_error;
};

/* Moves bytes between the device and the PRDT's memory; false on a bus error. */
bool fake_ahci_to_host(struct fake_ahci_xfer *x, const void *src, UINT32 bytes);
bool fake_ahci_from_host(struct fake_ahci_xfer *x, void *dst, UINT32 bytes);
/* The PRDT's total byte count. */
UINT64 fake_ahci_prdt_bytes(const struct fake_ahci_xfer *x);

/* The outcome of a command, as the device's D2H Register FIS carries it. */
struct fake_ahci_status {
	UINT8 status, error;
};
#define FAKE_ATA_DRDY 0x40
#define FAKE_ATA_DSC 0x10
#define FAKE_ATA_ERR 0x01
#define FAKE_ATA_ABRT 0x04
#define FAKE_ATA_IDNF 0x10
#define FAKE_ATA_UNC 0x40

/* Runs an ATA command (fis: the Register H2D FIS) on the port's device; cdb is the ATAPI
 * packet when the header's A bit was set, else NULL. */
struct fake_ahci_status fake_ahci_device_command(struct fake_ahci_port *p, const UINT8 *fis,
						 const UINT8 *cdb, struct fake_ahci_xfer *x);

/* Builds p->identify from p->disk. */
void fake_ahci_build_identify(struct fake_ahci_port *p);

/* The status the device reports when it is ready after a reset, and its signature. */
UINT8 fake_ahci_ready_status(const struct fake_ahci_port *p);
UINT32 fake_ahci_signature(const struct fake_ahci_port *p);

/* The device's side of a COMRESET or power-on (a CD reports a unit attention next). */
void fake_ahci_device_reset(struct fake_ahci_port *p);

#endif
