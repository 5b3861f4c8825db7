/* The IDE controller driver's state (PCI class 01/01: PIIX3/PIIX4 and the like): two
 * channels of task-file registers (ATA8-ATA/ATAPI Interface, AT Attachment 8 - Parallel
 * Transport), in compatibility mode at the legacy ports 0x1F0/0x3F6 and 0x170/0x376, in
 * native mode at BARs 0-3; up to two devices on each, master and slave, each a child handle
 * with BlockIo over the shared ATA layer (ember/drivers/ata.h). Data moves by bus-master
 * DMA (the BMIDE registers in BAR 4, SFF-8038i) where the function has them, else by PIO. */
#ifndef DRIVERS_IDE_H
#define DRIVERS_IDE_H

#include <efi/protocol/pci_io.h>
#include <ember/drivers/ata.h>

/* Task-file registers: offsets in the command block ... */
#define IDE_DATA 0
#define IDE_ERROR 1    /* read */
#define IDE_FEATURES 1 /* write */
#define IDE_COUNT 2
#define IDE_LBA_LOW 3
#define IDE_LBA_MID 4
#define IDE_LBA_HIGH 5
#define IDE_DEVICE 6
#define IDE_STATUS 7  /* read */
#define IDE_COMMAND 7 /* write */
/* ... and the one register of the control block (alternate status / device control). */
#define IDE_CONTROL 0

#define IDE_STATUS_ERR 0x01
#define IDE_STATUS_DRQ 0x08
#define IDE_STATUS_DF 0x20
#define IDE_STATUS_DRDY 0x40
#define IDE_STATUS_BSY 0x80
#define IDE_CONTROL_NIEN 0x02 /* no interrupts: the driver polls */
#define IDE_CONTROL_SRST 0x04
#define IDE_CONTROL_HOB 0x80
#define IDE_DEVICE_OBS 0xa0 /* bits that were set in old devices' register */
#define IDE_DEVICE_SLAVE 0x10

#define IDE_CHANNELS 2
#define IDE_DRIVES 2

/* Bus-master IDE registers (SFF-8038i), at 8 * channel in BAR 4. */
#define IDE_BM_BAR 4
#define IDE_BM_COMMAND 0
#define IDE_BM_STATUS 2
#define IDE_BM_PRDT 4
#define IDE_BM_START 0x01
#define IDE_BM_TO_MEMORY 0x08 /* the device's data goes to memory (a read) */
#define IDE_BM_ACTIVE 0x01
#define IDE_BM_ERROR 0x02
#define IDE_BM_INTERRUPT 0x04
/* Physical region descriptors: 8 bytes each, half a page per channel. */
#define IDE_PRD_BYTES 8
#define IDE_PRDS (2048 / IDE_PRD_BYTES)
#define IDE_PRD_EOT 0x80000000u
#define IDE_DMA_MAX_BYTES (8u << 20) /* one command: 128 regions of 64 KiB and the ends */

/* The PCI programming interface: bit 0 (primary) and bit 2 (secondary) set for a channel in
 * native mode. */
#define IDE_PROG_IF_NATIVE(channel) (1u << (2 * (channel)))

struct ide_device;

struct ide_channel {
	EFI_PCI_IO_PROTOCOL *pci_io;
	UINT8 index;	 /* 0 primary, 1 secondary */
	UINT8 cmd_bar;	 /* EFI_PCI_IO_PASS_THROUGH_BAR in compatibility mode */
	UINT64 cmd_base; /* offset of the command block in cmd_bar */
	UINT8 ctl_bar;
	UINT64 ctl_base;
	UINT8 selected; /* the drive the device register last named, 0xff: unknown */
	bool dma;	/* bus mastering works: the PRD table below is mapped */
	UINT32 *prd;	/* the channel's PRD table (host) and its device address */
	UINT64 prd_addr;
	struct ide_device *devices[IDE_DRIVES];
	bool probed[IDE_DRIVES]; /* tried since Start (or since its child was stopped) */
};

struct ide_device {
	struct ata_dev ata;
	struct ide_channel *channel;
	UINT8 drive; /* 0 master, 1 slave */
	EFI_DEVICE_PATH_PROTOCOL *path;
	char name[16];
};

/* ---- Registers and commands (ide_io.c) ---- */

UINT8 ide_read(struct ide_channel *ch, UINT32 reg);
void ide_write(struct ide_channel *ch, UINT32 reg, UINT8 value);
/* Sets the device control register. */
void ide_control(struct ide_channel *ch, UINT8 value);

/* Resets both drives of the channel (SRST) and waits for them; EFI_TIMEOUT if one stays
 * busy, EFI_NOT_FOUND when the channel floats (no drive at all). */
EFI_STATUS ide_channel_reset(struct ide_channel *ch);

/* Selects drive and reads its signature after a reset: EFI_SUCCESS with *atapi set for a
 * drive that answers, EFI_NOT_FOUND for none. */
EFI_STATUS ide_signature(struct ide_channel *ch, UINT8 drive, bool *atapi);

/* ---- Commands (ide_pio.c) ---- */

/* Waits until BSY clears and gives the status (0xff: EFI_DEVICE_ERROR); EFI_TIMEOUT after
 * deadline (core_time_ns). */
EFI_STATUS ide_wait_status(struct ide_channel *ch, UINT64 deadline, UINT8 *st);
/* Selects the device's drive (device_bits: LBA and LBA 27:24) once the channel is free. */
EFI_STATUS ide_select(struct ide_device *dev, UINT8 device_bits, UINT64 deadline);
/* Writes the task file of cmd (the 48-bit registers' high bytes first). */
void ide_write_task_file(struct ide_channel *ch, const struct ata_command *cmd);
/* Sends an ATAPI packet once the drive asks for it. */
EFI_STATUS ide_send_packet(struct ide_channel *ch, const UINT8 *cdb, UINT64 deadline);

/* The shared ATA layer's transports (struct ata_transport_ops) for IDE devices: PIO only,
 * and bus-master DMA for block data (small transfers by PIO). */
extern const struct ata_transport_ops ide_transport;
extern const struct ata_transport_ops ide_dma_transport;

/* ---- Bus-master DMA (ide_dma.c) ---- */

/* Runs a command whose data (req->mapped) the channel moves by DMA. */
EFI_STATUS ide_dma_run(struct ide_device *dev, struct ata_request *req, UINT64 deadline);

/* Stops the channel's bus master (at ExitBootServices and after a failure). */
void ide_dma_stop(struct ide_channel *ch);

/* Cuts a block transfer into mapped pieces one PRD table covers (the transports'
 * transfer op). */
EFI_STATUS ide_dma_transfer(struct ata_dev *ata, EFI_LBA lba, UINTN size, void *buffer, bool write,
			    ata_chunk_fn chunk);

/* ---- Devices (ide_device.c) ---- */

/* Identifies the drive of ch whose signature said ATA or ATAPI and gives it a child handle
 * under controller. */
EFI_STATUS ide_device_create(struct ide_channel *ch, UINT8 drive, bool atapi, EFI_HANDLE controller,
			     EFI_HANDLE driver, EFI_DEVICE_PATH_PROTOCOL *parent);

/* Removes a child; EFI_ACCESS_DENIED (and it stays) when it is in use. */
EFI_STATUS ide_device_destroy(struct ide_device *dev, EFI_HANDLE controller, EFI_HANDLE driver);

#endif
