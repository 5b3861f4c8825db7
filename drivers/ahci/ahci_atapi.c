/* ATAPI devices (CD/DVD drives) on AHCI ports: read-only, removable media of 2048-byte
 * blocks. TEST UNIT READY and READ CAPACITY(10) find the medium; READ(10) reads it; a
 * CHECK CONDITION is explained by REQUEST SENSE, and a medium that came, went or changed
 * gives the media a new MediaId and reinstalls BlockIo (blkdev_media_changed). */
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>

#define COMMAND_TIMEOUT_MS 3000
#define READ_TIMEOUT_MS 10000
#define READY_TRIES 5
#define BECOMING_READY_WAIT_US 10000
#define SENSE_OFFSET 256 /* in the port's scratch buffer */
#define DMA_ALIGN 2

static struct ahci_device *to_dev(struct blkdev *blk)
{
	return container_of(blk, struct ahci_device, blk);
}

static EFI_STATUS packet(struct ahci_device *dev, const UINT8 *cdb, UINT64 data, UINT32 bytes,
			 UINT32 timeout_ms)
{
	struct ata_command cmd;
	struct ahci_request req = {
	    .ata = &cmd, .cdb = cdb, .data = data, .bytes = bytes, .timeout_ms = timeout_ms};

	atapi_packet_command(&cmd, true);
	return ahci_exec(dev->port, &req);
}

/* A packet command whose failure is translated through its sense data. */
static EFI_STATUS packet_checked(struct ahci_device *dev, const UINT8 *cdb, UINT64 data,
				 UINT32 bytes, UINT32 timeout_ms)
{
	UINT8 sense_cdb[ATAPI_CDB_BYTES];
	UINT8 *sense_data = (UINT8 *)ahci_scratch(dev->port) + SENSE_OFFSET;
	struct scsi_sense sense;
	EFI_STATUS status = packet(dev, cdb, data, bytes, timeout_ms);

	if (status != EFI_DEVICE_ERROR)
		return status;
	scsi_request_sense(sense_cdb);
	if (EFI_ERROR(packet(dev, sense_cdb, ahci_scratch_addr(dev->port) + SENSE_OFFSET,
			     SCSI_SENSE_BYTES, COMMAND_TIMEOUT_MS)) ||
	    !scsi_parse_sense(sense_data, &sense))
		return EFI_DEVICE_ERROR;
	status = scsi_sense_status(&sense);
	return status == EFI_SUCCESS ? EFI_DEVICE_ERROR : status;
}

/* TEST UNIT READY until the drive settles: unit attentions (reset, medium changed) are
 * consumed, a drive becoming ready is given a moment, and a first "no medium" is asked
 * again, as a drive that was just loaded reports the empty tray of its load cycle once
 * before the medium change (QEMU's ATAPI model does exactly that). */
static EFI_STATUS test_ready(struct ahci_device *dev)
{
	UINT8 cdb[ATAPI_CDB_BYTES];
	EFI_STATUS status = EFI_DEVICE_ERROR;

	scsi_test_unit_ready(cdb);
	for (UINT32 i = 0; i < READY_TRIES; i++) {
		status = packet_checked(dev, cdb, 0, 0, COMMAND_TIMEOUT_MS);
		if (status == EFI_NOT_READY)
			core_stall_us(BECOMING_READY_WAIT_US);
		else if (status != EFI_MEDIA_CHANGED && (status != EFI_NO_MEDIA || i > 0))
			break;
	}
	return status;
}

/* Looks at the drive and describes its medium in the media; true when the description
 * changed (a medium came, went or was swapped). */
static bool refresh_media(struct ahci_device *dev)
{
	EFI_BLOCK_IO_MEDIA *m = &dev->blk.media;
	UINT8 cdb[ATAPI_CDB_BYTES];
	UINT8 *data = ahci_scratch(dev->port);
	UINT32 last = 0, block = 0;
	bool was_present = m->MediaPresent;
	EFI_LBA old_last = m->LastBlock;

	m->MediaPresent = FALSE;
	if (test_ready(dev) == EFI_SUCCESS) {
		scsi_read_capacity_10(cdb);
		if (!EFI_ERROR(packet_checked(dev, cdb, ahci_scratch_addr(dev->port),
					      SCSI_CAPACITY_10_BYTES, COMMAND_TIMEOUT_MS)) &&
		    scsi_parse_capacity_10(data, &last, &block)) {
			m->MediaPresent = TRUE;
			m->LastBlock = last;
			m->BlockSize = block;
		}
	}
	if (!m->MediaPresent) {
		m->LastBlock = 0;
		m->BlockSize = ATAPI_BLOCK_SIZE;
	}
	return m->MediaPresent != was_present || m->LastBlock != old_last;
}

/* Before each request: a drive without a medium is asked again whether one arrived. */
static void atapi_check_media(struct blkdev *blk)
{
	struct ahci_device *dev = to_dev(blk);

	if (!blk->media.MediaPresent && refresh_media(dev))
		blkdev_media_changed(blk);
}

static EFI_STATUS read_chunk(struct ahci_device *dev, EFI_LBA lba, UINT32 blocks, UINT64 data,
			     bool write)
{
	UINT8 cdb[ATAPI_CDB_BYTES];

	if (lba > 0xffffffffULL || blocks > 0xffff)
		return EFI_INVALID_PARAMETER;
	scsi_read_10(cdb, (UINT32)lba, (UINT16)blocks);
	return packet_checked(dev, cdb, data, blocks * dev->blk.media.BlockSize, READ_TIMEOUT_MS);
}

static EFI_STATUS atapi_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	struct ahci_device *dev = to_dev(blk);
	EFI_STATUS status = ahci_device_transfer(dev, lba, size, buffer, false, read_chunk);

	/* The medium changed or vanished under the request: describe the new state. */
	if (status == EFI_MEDIA_CHANGED || status == EFI_NO_MEDIA) {
		refresh_media(dev);
		blkdev_media_changed(blk);
		return blk->media.MediaPresent ? EFI_MEDIA_CHANGED : EFI_NO_MEDIA;
	}
	return EFI_ERROR(status) && status != EFI_OUT_OF_RESOURCES ? EFI_DEVICE_ERROR : status;
}

static EFI_STATUS atapi_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	return EFI_WRITE_PROTECTED;
}

static EFI_STATUS atapi_reset(struct blkdev *blk, bool extended)
{
	struct ahci_device *dev = to_dev(blk);
	EFI_STATUS status = ahci_port_recover(dev->port);

	if (EFI_ERROR(status))
		return status;
	if (refresh_media(dev))
		blkdev_media_changed(blk);
	return EFI_SUCCESS;
}

static const struct blkdev_ops atapi_ops = {
    .read = atapi_read,
    .write = atapi_write,
    .reset = atapi_reset,
    .check_media = atapi_check_media,
};

EFI_STATUS ahci_atapi_probe(struct ahci_device *dev)
{
	EFI_BLOCK_IO_MEDIA *m = &dev->blk.media;

	blkdev_init(&dev->blk, &atapi_ops);
	dev->atapi = true;
	dev->max_blocks = 0xffff;
	m->RemovableMedia = TRUE;
	m->ReadOnly = TRUE;
	m->IoAlign = DMA_ALIGN;
	m->LogicalBlocksPerPhysicalBlock = 1;
	refresh_media(dev);
	log_debug("ahci: port %u: ATAPI drive, %s\n", dev->port->index,
		  m->MediaPresent ? "medium present" : "no medium");
	return EFI_SUCCESS;
}
