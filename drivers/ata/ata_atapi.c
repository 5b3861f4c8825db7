/* ATAPI drives (CD/DVD) as block devices over any transport: read-only, removable media of
 * 2048-byte blocks. TEST UNIT READY and READ CAPACITY(10) find the medium; READ(10) reads
 * it; a CHECK CONDITION is explained by REQUEST SENSE, and a medium that came, went or
 * changed gives the media a new MediaId and reinstalls BlockIo (blkdev_media_changed). */
#define LOG_PREFIX "atapi: "
#include <ember/drivers/ata.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>

#define COMMAND_TIMEOUT_MS 3000
#define READ_TIMEOUT_MS 10000
#define READY_TRIES 5
#define BECOMING_READY_WAIT_US 10000
#define IO_ALIGN 2
#define MAX_READ_BLOCKS 0xffff /* READ(10)'s transfer length */
#define SENSE_MIN_BYTES 14     /* up to the additional sense code qualifier */

static struct ata_dev *to_dev(struct blkdev *blk)
{
	return container_of(blk, struct ata_dev, blk);
}

/* Runs a packet command that must move at least min_bytes of its bytes. */
static EFI_STATUS run(struct ata_dev *dev, struct ata_request *req, UINT32 min_bytes)
{
	EFI_STATUS status = dev->ops->exec(dev, req);

	if (!EFI_ERROR(status) && req->transferred < min_bytes) {
		log_debug("%s: command %#x moved %u of %u bytes\n", dev->name, req->cdb[0],
			  req->transferred, req->bytes);
		status = EFI_DEVICE_ERROR;
	}
	return status;
}

/* What the sense data of a failed command says: EFI_NO_MEDIA, EFI_MEDIA_CHANGED,
 * EFI_NOT_READY or EFI_DEVICE_ERROR. */
static EFI_STATUS sense_status(struct ata_dev *dev)
{
	UINT8 cdb[ATAPI_CDB_BYTES];
	struct ata_command cmd;
	struct ata_request req = {
	    .ata = &cmd,
	    .cdb = cdb,
	    .buffer = dev->sense,
	    .bytes = SCSI_SENSE_BYTES,
	    .timeout_ms = COMMAND_TIMEOUT_MS,
	};
	struct scsi_sense sense;
	EFI_STATUS status;

	scsi_request_sense(cdb);
	atapi_packet_command(&cmd, dev->dma);
	mem_set(dev->sense, 0, sizeof(dev->sense));
	if (EFI_ERROR(run(dev, &req, SENSE_MIN_BYTES)) || !scsi_parse_sense(dev->sense, &sense)) {
		log_debug("%s: no usable sense data\n", dev->name);
		return EFI_DEVICE_ERROR;
	}
	status = scsi_sense_status(&sense);
	return status == EFI_SUCCESS ? EFI_DEVICE_ERROR : status;
}

/* A packet command whose failure is translated through its sense data. */
static EFI_STATUS checked(struct ata_dev *dev, struct ata_request *req)
{
	EFI_STATUS status = run(dev, req, req->bytes);

	return status == EFI_DEVICE_ERROR ? sense_status(dev) : status;
}

static EFI_STATUS packet_checked(struct ata_dev *dev, const UINT8 *cdb, void *buffer, UINT32 bytes,
				 UINT32 timeout_ms)
{
	struct ata_command cmd;
	struct ata_request req = {
	    .ata = &cmd, .cdb = cdb, .buffer = buffer, .bytes = bytes, .timeout_ms = timeout_ms};

	atapi_packet_command(&cmd, dev->dma);
	return checked(dev, &req);
}

/* TEST UNIT READY until the drive settles: unit attentions (reset, medium changed) are
 * consumed, a drive becoming ready is given a moment, and a first "no medium" is asked
 * again, as a drive that was just loaded reports the empty tray of its load cycle once
 * before the medium change (QEMU's ATAPI model does exactly that). */
static EFI_STATUS test_ready(struct ata_dev *dev)
{
	UINT8 cdb[ATAPI_CDB_BYTES];
	EFI_STATUS status = EFI_DEVICE_ERROR;

	scsi_test_unit_ready(cdb);
	for (UINT32 i = 0; i < READY_TRIES; i++) {
		status = packet_checked(dev, cdb, NULL, 0, COMMAND_TIMEOUT_MS);
		if (status == EFI_NOT_READY)
			core_stall_us(BECOMING_READY_WAIT_US);
		else if (status != EFI_MEDIA_CHANGED && (status != EFI_NO_MEDIA || i > 0))
			break;
	}
	return status;
}

/* Looks at the drive and describes its medium in the media; true when the description
 * changed (a medium came, went or was swapped). */
static bool refresh_media(struct ata_dev *dev)
{
	EFI_BLOCK_IO_MEDIA *m = &dev->blk.media;
	UINT8 cdb[ATAPI_CDB_BYTES];
	UINT8 data[SCSI_CAPACITY_10_BYTES];
	UINT32 last = 0, block = 0;
	bool was_present = m->MediaPresent;
	EFI_LBA old_last = m->LastBlock;

	m->MediaPresent = FALSE;
	if (test_ready(dev) == EFI_SUCCESS) {
		scsi_read_capacity_10(cdb);
		if (!EFI_ERROR(packet_checked(dev, cdb, data, sizeof(data), COMMAND_TIMEOUT_MS)) &&
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
	struct ata_dev *dev = to_dev(blk);

	if (!blk->media.MediaPresent && refresh_media(dev))
		blkdev_media_changed(blk);
}

static EFI_STATUS read_chunk(struct ata_dev *dev, EFI_LBA lba, UINT32 blocks, void *host,
			     UINT64 addr, bool mapped, bool write)
{
	UINT8 cdb[ATAPI_CDB_BYTES];
	struct ata_command cmd;
	struct ata_request req = {
	    .ata = &cmd,
	    .cdb = cdb,
	    .buffer = host,
	    .addr = addr,
	    .mapped = mapped,
	    .bytes = blocks * dev->blk.media.BlockSize,
	    .timeout_ms = READ_TIMEOUT_MS,
	};

	if (lba > 0xffffffffULL || blocks > MAX_READ_BLOCKS)
		return EFI_INVALID_PARAMETER;
	scsi_read_10(cdb, (UINT32)lba, (UINT16)blocks);
	atapi_packet_command(&cmd, dev->dma);
	return checked(dev, &req);
}

static EFI_STATUS atapi_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	struct ata_dev *dev = to_dev(blk);
	EFI_STATUS status = ata_dev_transfer(dev, lba, size, buffer, false, read_chunk);

	/* The medium changed or vanished under the request: describe the new state. */
	if (status == EFI_MEDIA_CHANGED || status == EFI_NO_MEDIA) {
		refresh_media(dev);
		blkdev_media_changed(blk);
		return blk->media.MediaPresent ? EFI_MEDIA_CHANGED : EFI_NO_MEDIA;
	}
	/* A buffer the transport could not map is the caller's problem, not the drive's. */
	return EFI_ERROR(status) && status != EFI_OUT_OF_RESOURCES ? EFI_DEVICE_ERROR : status;
}

static EFI_STATUS atapi_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	return EFI_WRITE_PROTECTED;
}

static EFI_STATUS atapi_reset(struct blkdev *blk, bool extended)
{
	struct ata_dev *dev = to_dev(blk);
	EFI_STATUS status = dev->ops->reset(dev);

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

static EFI_STATUS identify_packet(struct ata_dev *dev)
{
	struct ata_command cmd = {.command = ATA_CMD_IDENTIFY_PACKET_DEVICE};
	struct ata_request req = {
	    .ata = &cmd,
	    .buffer = dev->identify,
	    .bytes = ATA_IDENTIFY_BYTES,
	    .timeout_ms = COMMAND_TIMEOUT_MS,
	};
	EFI_STATUS status = dev->ops->exec(dev, &req);

	if (EFI_ERROR(status))
		return status;
	return atapi_parse_identify(dev->identify) ? EFI_SUCCESS : EFI_UNSUPPORTED;
}

EFI_STATUS ata_atapi_probe(struct ata_dev *dev)
{
	EFI_BLOCK_IO_MEDIA *m = &dev->blk.media;
	EFI_STATUS status = identify_packet(dev);

	if (EFI_ERROR(status)) {
		log_debug("%s: IDENTIFY PACKET DEVICE: %r\n", dev->name, status);
		return status;
	}
	blkdev_init(&dev->blk, &atapi_ops);
	dev->atapi = true;
	dev->max_blocks = MAX_READ_BLOCKS;
	m->RemovableMedia = TRUE;
	m->ReadOnly = TRUE;
	m->IoAlign = IO_ALIGN;
	m->LogicalBlocksPerPhysicalBlock = 1;
	refresh_media(dev);
	log_debug("%s: ATAPI drive, %s\n", dev->name,
		  m->MediaPresent ? "medium present" : "no medium");
	return EFI_SUCCESS;
}
