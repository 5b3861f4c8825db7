/* One command on an IDE drive by PIO, the shared ATA layer's transport: the task file
 * (with the 48-bit registers written first, as the HOB half of the FIFO pair), the command,
 * for ATAPI the 12-byte packet, then DRQ data blocks of one sector (ATA) or of the byte
 * count the drive gives (ATAPI) until BSY and DRQ drop (ATA8-APT, 11: the PIO data-in,
 * data-out and PACKET protocols). Data beyond what the caller asked for is drained or padded,
 * never stored: the drive is outside data. */
#define LOG_PREFIX "ide: "
#include "ide.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define ATA_DRQ_BLOCK 512
#define STATUS_FAILED (IDE_STATUS_ERR | IDE_STATUS_DF)

static struct ide_device *to_ide(struct ata_dev *ata)
{
	return container_of(ata, struct ide_device, ata);
}

EFI_STATUS ide_wait_status(struct ide_channel *ch, UINT64 deadline, UINT8 *st)
{
	for (;;) {
		*st = ide_read(ch, IDE_STATUS);
		if (!(*st & IDE_STATUS_BSY))
			return *st == 0xff ? EFI_DEVICE_ERROR : EFI_SUCCESS;
		if (core_time_ns() > deadline)
			return EFI_TIMEOUT;
		core_stall_us(1);
	}
}

static void pio_words(struct ide_channel *ch, bool write, void *buffer, UINTN words)
{
	EFI_PCI_IO_PROTOCOL_ACCESS *io = &ch->pci_io->Io;

	(write ? io->Write : io->Read)(ch->pci_io, EfiPciIoWidthFifoUint16, ch->cmd_bar,
				       ch->cmd_base + IDE_DATA, words, buffer);
}

/* Moves one DRQ block of bytes: into or out of the caller's buffer while it lasts, the rest
 * thrown away (in) or zeros (out). */
static void move_block(struct ide_channel *ch, struct ata_request *req, UINT32 *done, UINT32 bytes)
{
	UINT32 take = MIN(bytes, req->bytes - *done) & ~1u;
	UINT16 spare = 0;

	if (take)
		pio_words(ch, req->write, (UINT8 *)req->buffer + *done, take / 2);
	*done += take;
	for (UINT32 i = take; i < bytes; i += 2)
		pio_words(ch, req->write, &spare, 1);
}

void ide_write_task_file(struct ide_channel *ch, const struct ata_command *cmd)
{
	/* The 48-bit registers hold two bytes each, the previous write being the high one;
	 * 28-bit commands use only the last. */
	ide_write(ch, IDE_FEATURES, (UINT8)(cmd->features >> 8));
	ide_write(ch, IDE_COUNT, (UINT8)(cmd->count >> 8));
	ide_write(ch, IDE_LBA_LOW, (UINT8)(cmd->lba >> 24));
	ide_write(ch, IDE_LBA_MID, (UINT8)(cmd->lba >> 32));
	ide_write(ch, IDE_LBA_HIGH, (UINT8)(cmd->lba >> 40));
	ide_write(ch, IDE_FEATURES, (UINT8)cmd->features);
	ide_write(ch, IDE_COUNT, (UINT8)cmd->count);
	ide_write(ch, IDE_LBA_LOW, (UINT8)cmd->lba);
	ide_write(ch, IDE_LBA_MID, (UINT8)(cmd->lba >> 8));
	ide_write(ch, IDE_LBA_HIGH, (UINT8)(cmd->lba >> 16));
}

EFI_STATUS ide_select(struct ide_device *dev, UINT8 device_bits, UINT64 deadline)
{
	struct ide_channel *ch = dev->channel;
	UINT8 st;
	EFI_STATUS status = ide_wait_status(ch, deadline, &st);

	if (EFI_ERROR(status))
		return status;
	ide_write(ch, IDE_DEVICE,
		  (UINT8)(IDE_DEVICE_OBS | device_bits | (dev->drive ? IDE_DEVICE_SLAVE : 0)));
	ch->selected = dev->drive;
	core_stall_us(1); /* the 400 ns a drive needs to answer a selection */
	status = ide_wait_status(ch, deadline, &st);
	if (!EFI_ERROR(status) && (st & IDE_STATUS_DRQ))
		status = EFI_DEVICE_ERROR; /* a command of the other drive left data behind */
	return status;
}

/* The data phase: DRQ blocks until the drive is done; ATAPI drives say how many bytes
 * each block has (LBA mid/high). */
static EFI_STATUS data_phase(struct ide_device *dev, struct ata_request *req, UINT64 deadline)
{
	struct ide_channel *ch = dev->channel;
	UINT32 done = 0;
	UINT8 st;

	for (;;) {
		EFI_STATUS status = ide_wait_status(ch, deadline, &st);
		UINT32 bytes = ATA_DRQ_BLOCK;

		if (EFI_ERROR(status))
			return status;
		if (st & STATUS_FAILED)
			return EFI_DEVICE_ERROR;
		if (!(st & IDE_STATUS_DRQ))
			break;
		if (req->cdb)
			bytes =
			    (UINT32)(ide_read(ch, IDE_LBA_MID) | ide_read(ch, IDE_LBA_HIGH) << 8);
		else if (dev->ata.blk.media.BlockSize > ATA_DRQ_BLOCK)
			bytes = dev->ata.blk.media.BlockSize;
		if (!bytes)
			return EFI_DEVICE_ERROR;
		move_block(ch, req, &done, (bytes + 1) & ~1u);
	}
	/* An ATA command moves exactly what it asked for; an ATAPI drive may answer less. */
	if (done != req->bytes && !req->cdb)
		return EFI_DEVICE_ERROR;
	req->transferred = done;
	return EFI_SUCCESS;
}

EFI_STATUS ide_send_packet(struct ide_channel *ch, const UINT8 *cdb, UINT64 deadline)
{
	UINT16 words[ATAPI_CDB_BYTES / 2];
	UINT8 st;
	EFI_STATUS status = ide_wait_status(ch, deadline, &st);

	if (EFI_ERROR(status))
		return status;
	if ((st & STATUS_FAILED) || !(st & IDE_STATUS_DRQ))
		return EFI_DEVICE_ERROR;
	mem_copy(words, cdb, sizeof(words));
	pio_words(ch, true, words, ATAPI_CDB_BYTES / 2);
	return EFI_SUCCESS;
}

static EFI_STATUS run(struct ide_device *dev, struct ata_request *req,
		      const struct ata_command *cmd, UINT64 deadline)
{
	struct ide_channel *ch = dev->channel;
	EFI_STATUS status = ide_select(dev, cmd->device, deadline);

	if (EFI_ERROR(status))
		return status;
	ide_write_task_file(ch, cmd);
	ide_write(ch, IDE_COMMAND, cmd->command);
	if (req->cdb) {
		status = ide_send_packet(ch, req->cdb, deadline);
		if (EFI_ERROR(status))
			return status;
	}
	return data_phase(dev, req, deadline);
}

static EFI_STATUS ide_exec(struct ata_dev *ata, struct ata_request *req)
{
	struct ide_device *dev = to_ide(ata);
	UINT64 deadline = core_time_ns() + (UINT64)req->timeout_ms * 1000000;
	struct ata_command pio = *req->ata;
	EFI_STATUS status;

	if (req->mapped) {
		status = ide_dma_run(dev, req, deadline);
	} else {
		/* The shared layer asks a DMA device's packets for DMA; small transfers in
		 * host memory go by PIO. */
		if (req->cdb)
			pio.features &= (UINT16)~1u;
		status = run(dev, req, &pio, deadline);
	}

	req->error = 0;
	if (status == EFI_DEVICE_ERROR)
		req->error = ide_read(dev->channel, IDE_ERROR);
	else if (status == EFI_TIMEOUT)
		log_warn("%s: command %#x timed out\n", dev->name, req->ata->command);
	/* A drive still busy or offering data would refuse the next command. */
	if (EFI_ERROR(status) &&
	    (ide_read(dev->channel, IDE_STATUS) & (IDE_STATUS_BSY | IDE_STATUS_DRQ)))
		ide_channel_reset(dev->channel);
	return status;
}

static EFI_STATUS ide_reset(struct ata_dev *ata)
{
	EFI_STATUS status = ide_channel_reset(to_ide(ata)->channel);

	return EFI_ERROR(status) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

const struct ata_transport_ops ide_transport = {
    .exec = ide_exec,
    .reset = ide_reset,
};

const struct ata_transport_ops ide_dma_transport = {
    .exec = ide_exec,
    .reset = ide_reset,
    .transfer = ide_dma_transfer,
};
