/* The SCSI disk driver's devices: a disk or CD/DVD drive behind EFI_SCSI_IO_PROTOCOL as a
 * block device (the shared front end, blkdev.h) with EFI_DISK_INFO_PROTOCOL. Commands go
 * through ScsiIo only, so every transport (virtio-scsi, USB mass storage ...) shares it. */
#ifndef DRIVERS_SCSI_DISK_H
#define DRIVERS_SCSI_DISK_H

#include <ember/drivers/blkdev.h>
#include <efi/protocol/disk_info.h>
#include <efi/protocol/scsi_io.h>
#include "scsi_buffer.h"
#include "scsi_data.h"

/* Scratch bytes for small answers, then the sense area. */
#define SCSI_DISK_DATA_BYTES 256
#define SCSI_DISK_SENSE_AT SCSI_DISK_DATA_BYTES
#define SCSI_DISK_SCRATCH_BYTES (SCSI_DISK_DATA_BYTES + SCSI_SENSE_MAX)

struct scsi_disk {
	struct blkdev blk;
	EFI_DISK_INFO_PROTOCOL disk_info;
	EFI_HANDLE driver;
	EFI_SCSI_IO_PROTOCOL *io;
	UINT8 type;	/* EFI_SCSI_IO_TYPE_DISK or _CDROM */
	bool removable; /* RMB, or a CD/DVD drive */
	UINT8 inquiry[SCSI_INQUIRY_BYTES];
	UINT32 inquiry_bytes;
	UINT8 *scratch; /* SCSI_DISK_SCRATCH_BYTES, aligned for the device */
	void *scratch_raw;
	UINT32 max_blocks; /* per READ/WRITE, lowered when the channel says less */
};

/* One command to the device. */
struct scsi_disk_cmd {
	UINT8 cdb[16];
	UINT8 cdb_len;
	void *data;
	UINT32 bytes; /* asked; on return, transferred */
	bool write;
	UINT64 timeout; /* 100 ns units */
};

/* Sends c, explaining a CHECK CONDITION by its sense data: unit attentions and aborted or
 * busy commands are tried again, a unit becoming ready is given time. Returns EFI_SUCCESS,
 * EFI_NO_MEDIA, EFI_MEDIA_CHANGED (a removable medium changed), EFI_WRITE_PROTECTED,
 * EFI_UNSUPPORTED (ILLEGAL REQUEST), EFI_BAD_BUFFER_SIZE (c->bytes says what fits) or
 * EFI_DEVICE_ERROR. */
EFI_STATUS scsi_disk_command(struct scsi_disk *d, struct scsi_disk_cmd *c);

/* Reads the medium's description into the media (TEST UNIT READY, READ CAPACITY (10),
 * then (16) for large disks, MODE SENSE for write protection); true when it changed. */
bool scsi_disk_refresh(struct scsi_disk *d);

/* The block operations (scsi_disk_io.c). */
extern const struct blkdev_ops scsi_disk_ops;

#endif
