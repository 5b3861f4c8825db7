/* A PCI IDE controller (class 01/01) in memory behind a fake PCI function (fake_pci_io.h),
 * for the tests of the IDE driver: two channels of task-file registers at the legacy ports
 * (compatibility mode, reached through EFI_PCI_IO_PASS_THROUGH_BAR) or in BARs 0-3 (native
 * mode), with up to two drives each: ATA disks over a byte array (IDENTIFY DEVICE, READ and
 * WRITE SECTORS and their EXT forms, FLUSH CACHE (EXT)) and ATAPI CD-ROM drives (IDENTIFY
 * PACKET DEVICE, PACKET with TEST UNIT READY, REQUEST SENSE, READ CAPACITY(10), READ(10)).
 * As on real drives, each drive keeps its own task file, writes reach both, reads come from
 * the selected one, and a channel reset (SRST) leaves the signatures. Commands complete at
 * once, or never (a hang). With fake_ide_enable_dma the function gets the bus-master
 * registers (SFF-8038i) in BAR 4: READ/WRITE DMA (EXT) and DMA packets move their data
 * through the PRD table by fake_pci_io_dma, so only mapped memory is reachable; a bus
 * master started for a command that failed stays active, as QEMU's does. What the protocol
 * forbids (a command written while the drive is
 * busy, data moved without DRQ, a packet that is not 12 bytes ...) is an error of the PCI
 * function (fake_pci_io_error). Written from ATA8-ACS/ATA8-APT and MMC, not from the
 * driver. */
#ifndef EMBER_TEST_FAKE_IDE_H
#define EMBER_TEST_FAKE_IDE_H

#include <stdbool.h>
#include "fake_pci_io.h"

enum fake_ide_kind {
	FAKE_IDE_NONE,
	FAKE_IDE_DISK,
	FAKE_IDE_CD,
};

struct fake_ide_drive {
	enum fake_ide_kind kind;
	UINT8 *data;	      /* disk: sectors * 512 bytes; CD: blocks * 2048 bytes (the test's) */
	UINT64 sectors;	      /* disk sectors or CD blocks */
	bool lba28;	      /* no 48-bit feature set */
	bool present;	      /* CD: a medium is in the drive */
	bool attention;	      /* CD: a unit attention (medium changed) to report */
	UINT8 fail_command;   /* an ATA command code the drive aborts (0: none) */
	UINT8 fail_cdb;	      /* a SCSI opcode answered with MEDIUM ERROR (0: none) */
	bool hang;	      /* the next command leaves the drive busy for ever */
	UINT32 extra_bytes;   /* CD: each data block announces (and sends) this many more bytes */
	bool zero_blocks;     /* CD: data blocks announce 0 bytes (and stay pending) */
	UINT16 identify[256]; /* built when attached; the test may edit it */
	UINT32 commands;      /* commands the drive took */
	UINT8 last_command;
	/* Internal state. */
	UINT8 tf[2][6]; /* [current, previous] features, count, lba low/mid/high, device */
	UINT8 status, error;
	UINT8 key, asc; /* sense of the last CHECK CONDITION */
};

struct fake_ide;

struct fake_ide_channel {
	struct fake_ide *ide;
	UINT8 index;
	struct fake_ide_drive drives[2];
	UINT8 selected;
	UINT8 control;
	UINT32 resets;
	/* The data phase of the selected drive's command. */
	UINT8 *buf;
	UINT32 len, pos;
	UINT32 block, block_pos; /* the current DRQ block (ATAPI byte count) */
	bool out;		 /* host to drive */
	int phase;		 /* see fake_ide.c */
	UINT64 write_lba;
	bool packet_dma; /* the PACKET command asked for DMA */
	/* Bus-master registers. */
	UINT8 bm_command, bm_status;
	UINT32 bm_prdt;
	UINT32 dma_commands; /* commands whose data went by DMA */
};

struct fake_ide {
	struct fake_pci_io *pci;
	bool native;
	struct fake_ide_channel channels[2];
};

/* A controller at Pci(pci_dev,0x1) in compatibility mode (programming interface 0x80) or
 * native mode (0x8f), with no drives. */
struct fake_ide *fake_ide_create(UINT8 pci_dev, bool native);
void fake_ide_destroy(struct fake_ide *ide);

/* Gives the function its bus-master registers (BAR 4), before the driver starts. */
void fake_ide_enable_dma(struct fake_ide *ide);

/* Attaches a disk of sectors (512 bytes each, data the test's) or a CD-ROM drive (data
 * NULL: no medium) at channel/drive, and builds its IDENTIFY data. */
struct fake_ide_drive *fake_ide_attach_disk(struct fake_ide *ide, UINT8 channel, UINT8 drive,
					    UINT8 *data, UINT64 sectors);
struct fake_ide_drive *fake_ide_attach_cd(struct fake_ide *ide, UINT8 channel, UINT8 drive,
					  UINT8 *data, UINT32 blocks);

/* Puts a medium into (data) or takes it out of (NULL) a CD-ROM drive: a unit attention. */
void fake_ide_change_cd(struct fake_ide_drive *d, UINT8 *data, UINT32 blocks);

#endif
