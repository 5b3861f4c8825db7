/* The ATA layer shared by the ATA host controllers (AHCI, IDE): ATA commands (ACS-3) and
 * their Register Host-to-Device FIS (SATA 3.x, 10.5.5), IDENTIFY DEVICE data, the SCSI
 * commands (SPC/MMC) ATAPI devices take in a PACKET command, and ATA devices as block
 * devices (struct ata_dev) over a transport that only moves one command and its data. */
#ifndef EMBER_DRIVERS_ATA_H
#define EMBER_DRIVERS_ATA_H

#include <stdbool.h>
#include <efi/status.h>
#include <efi/protocol/disk_info.h>
#include <ember/drivers/blkdev.h>

/* ATA command codes (ACS-3). */
#define ATA_CMD_READ_SECTORS 0x20
#define ATA_CMD_READ_SECTORS_EXT 0x24
#define ATA_CMD_WRITE_SECTORS 0x30
#define ATA_CMD_WRITE_SECTORS_EXT 0x34
#define ATA_CMD_READ_DMA 0xc8
#define ATA_CMD_READ_DMA_EXT 0x25
#define ATA_CMD_WRITE_DMA 0xca
#define ATA_CMD_WRITE_DMA_EXT 0x35
#define ATA_CMD_FLUSH_CACHE 0xe7
#define ATA_CMD_FLUSH_CACHE_EXT 0xea
#define ATA_CMD_IDENTIFY_DEVICE 0xec
#define ATA_CMD_IDENTIFY_PACKET_DEVICE 0xa1
#define ATA_CMD_PACKET 0xa0

#define ATA_DEVICE_LBA 0x40 /* device register: LBA addressing */
#define ATA_FIS_H2D 0x27
#define ATA_FIS_COMMAND 0x80 /* the C bit: the FIS carries a command */
#define ATA_FIS_BYTES 20
#define ATA_IDENTIFY_BYTES 512

/* An ATA command before encoding. */
struct ata_command {
	UINT8 command;
	UINT16 features;
	UINT64 lba;   /* 48 bits */
	UINT16 count; /* sectors; 0 means 65536 (48-bit) or 256 (28-bit) */
	UINT8 device;
};

/* Encodes a Register H2D FIS (20 bytes) for cmd into fis. */
void ata_encode_fis(UINT8 fis[ATA_FIS_BYTES], const struct ata_command *cmd);

/* What IDENTIFY DEVICE tells about a disk. */
struct ata_disk_info {
	UINT64 sectors;	    /* addressable logical sectors */
	UINT32 sector_size; /* bytes per logical sector */
	UINT32 logical_per_physical;
	UINT64 lowest_aligned; /* first LBA aligned to a physical sector */
	bool lba48;	       /* 48-bit commands supported */
	bool write_cache;      /* a volatile write cache is enabled */
	bool removable;	       /* the removable-media bit of word 0 */
	char model[41];	       /* words 27-46, spaces trimmed */
};

/* Decodes IDENTIFY DEVICE data (ACS-3, 7.12.7). EFI_UNSUPPORTED when the device does not
 * support LBA addressing; EFI_DEVICE_ERROR for data that is not a disk's identity. */
EFI_STATUS ata_parse_identify(const UINT16 id[256], struct ata_disk_info *info);

/* The read or write command for count sectors at lba (48-bit forms when lba48, else the
 * 28-bit ones); false when the request does not fit the command set. */
bool ata_rw_command(struct ata_command *cmd, bool write, bool lba48, UINT64 lba, UINT32 count);

/* The same with the PIO data-transfer commands (READ/WRITE SECTORS (EXT)). */
bool ata_pio_rw_command(struct ata_command *cmd, bool write, bool lba48, UINT64 lba, UINT32 count);

/* Largest sector count one read/write command carries. */
UINT32 ata_max_sectors(bool lba48);

/* FLUSH CACHE (EXT when lba48). */
void ata_flush_command(struct ata_command *cmd, bool lba48);

/* ---- ATAPI: SCSI commands in a PACKET ---- */

#define ATAPI_CDB_BYTES 12
#define ATAPI_BLOCK_SIZE 2048
#define SCSI_TEST_UNIT_READY 0x00
#define SCSI_REQUEST_SENSE 0x03
#define SCSI_READ_CAPACITY_10 0x25
#define SCSI_READ_10 0x28
#define SCSI_SENSE_BYTES 18
#define SCSI_CAPACITY_10_BYTES 8

#define SCSI_SENSE_NO_SENSE 0x0
#define SCSI_SENSE_NOT_READY 0x2
#define SCSI_SENSE_MEDIUM_ERROR 0x3
#define SCSI_SENSE_UNIT_ATTENTION 0x6
#define SCSI_ASC_BECOMING_READY 0x04
#define SCSI_ASC_MEDIUM_CHANGED 0x28
#define SCSI_ASC_RESET 0x29
#define SCSI_ASC_NO_MEDIUM 0x3a

/* Checks IDENTIFY PACKET DEVICE data (ATA8-ACS, 7.17): a packet device with 12-byte
 * packets of the CD-ROM command set or direct access; false for anything else. */
bool atapi_parse_identify(const UINT16 id[256]);

/* The PACKET command's FIS: DMA data transfer (features bit 0) when dma. */
void atapi_packet_command(struct ata_command *cmd, bool dma);

void scsi_test_unit_ready(UINT8 cdb[ATAPI_CDB_BYTES]);
void scsi_request_sense(UINT8 cdb[ATAPI_CDB_BYTES]);
void scsi_read_capacity_10(UINT8 cdb[ATAPI_CDB_BYTES]);
/* READ(10) of blocks (at most 65535) at lba. */
void scsi_read_10(UINT8 cdb[ATAPI_CDB_BYTES], UINT32 lba, UINT16 blocks);

/* Sense key, additional sense code and qualifier from fixed-format sense data. */
struct scsi_sense {
	UINT8 key, asc, ascq;
};
/* False when the data is not fixed-format sense (response code 0x70/0x71). */
bool scsi_parse_sense(const UINT8 data[SCSI_SENSE_BYTES], struct scsi_sense *sense);

/* The last LBA and block size from READ CAPACITY(10) data (big-endian); false for an
 * unusable answer. */
bool scsi_parse_capacity_10(const UINT8 data[SCSI_CAPACITY_10_BYTES], UINT32 *last_lba,
			    UINT32 *block_size);

/* What a sense means for a block device: EFI_NO_MEDIA, EFI_MEDIA_CHANGED (unit attention),
 * EFI_NOT_READY (becoming ready), EFI_SUCCESS (no sense) or EFI_DEVICE_ERROR. */
EFI_STATUS scsi_sense_status(const struct scsi_sense *sense);

/* ---- ATA devices as block devices, over a transport ---- */

/* One command for a transport: the ATA command, for ATAPI the packet, and its data (bytes
 * 0: none) in host memory, or for a chunk a DMA transport mapped (see transfer below) at
 * the device address addr. */
struct ata_request {
	const struct ata_command *ata;
	const UINT8 *cdb; /* ATAPI packet (12 bytes), or NULL for an ATA command */
	void *buffer;
	UINT64 addr; /* when mapped */
	bool mapped;
	UINT32 bytes;
	bool write; /* data flows to the device */
	UINT32 timeout_ms;
	UINT8 error;	    /* out: the error register when the device failed the command */
	UINT32 transferred; /* out: bytes moved (an ATAPI drive may move fewer than asked) */
};

struct ata_dev;

/* One piece of a block transfer, as the shared layer turns it into a command: blocks at lba
 * from host (or, when mapped, the device address addr). */
typedef EFI_STATUS (*ata_chunk_fn)(struct ata_dev *dev, EFI_LBA lba, UINT32 blocks, void *host,
				   UINT64 addr, bool mapped, bool write);

/* What a host controller does for the shared layer. */
struct ata_transport_ops {
	/* Runs one command: EFI_DEVICE_ERROR (req->error set) when the device failed it,
	 * EFI_TIMEOUT when it did not finish; the transport has recovered in both cases. */
	EFI_STATUS (*exec)(struct ata_dev *dev, struct ata_request *req);
	/* Resets the device (BlockIo Reset). */
	EFI_STATUS (*reset)(struct ata_dev *dev);
	/* Optional, for DMA: cuts [buffer, buffer + size) into mapped pieces of whole blocks
	 * (at most max_blocks each) and calls chunk for each; NULL: the shared layer hands
	 * pieces of host memory to exec. */
	EFI_STATUS (*transfer)(struct ata_dev *dev, EFI_LBA lba, UINTN size, void *buffer,
			       bool write, ata_chunk_fn chunk);
};

/* An ATA disk or ATAPI drive; the transport embeds it in its device structure. */
struct ata_dev {
	struct blkdev blk;
	const struct ata_transport_ops *ops;
	bool atapi;
	bool lba48;
	bool dma;	   /* the transport moves data by DMA (READ DMA), else PIO */
	UINT32 max_blocks; /* per command */
	UINT16 identify[ATA_IDENTIFY_BYTES / 2]; /* the device's IDENTIFY data */
	UINT8 sense[SCSI_SENSE_BYTES];		 /* the last sense data (ATAPI) */
	const char *name;			 /* for log lines */
	EFI_DISK_INFO_PROTOCOL disk_info;
	UINT32 channel, device; /* WhichIde's answer: IDE channel and drive, AHCI port and
				   port multiplier port */
};

/* Moves size bytes (whole blocks) at lba in pieces of at most max_blocks, each through
 * chunk: the transport's mapped pieces when it has a transfer op, else host memory. */
EFI_STATUS ata_dev_transfer(struct ata_dev *dev, EFI_LBA lba, UINTN size, UINT8 *p, bool write,
			    ata_chunk_fn chunk);

/* Identifies a disk (IDENTIFY DEVICE) and fills dev->blk for it; ops, dma and name set. */
EFI_STATUS ata_disk_probe(struct ata_dev *dev);

/* Identifies an ATAPI drive (IDENTIFY PACKET DEVICE) and looks for its medium. */
EFI_STATUS ata_atapi_probe(struct ata_dev *dev);

/* Sets up the device's EFI_DISK_INFO_PROTOCOL (interface: the IDE or AHCI GUID) and
 * installs it with BlockIo, BlockIo2 and path on a new handle (dev->blk.handle). */
EFI_STATUS ata_dev_install(struct ata_dev *dev, const EFI_GUID *interface,
			   EFI_DEVICE_PATH_PROTOCOL *path);

/* Removes what ata_dev_install installed; EFI_ACCESS_DENIED (all left) while in use. */
EFI_STATUS ata_dev_uninstall(struct ata_dev *dev, EFI_DEVICE_PATH_PROTOCOL *path);

#endif
