/* ATA disks on AHCI ports: IDENTIFY DEVICE for the geometry, READ/WRITE DMA (EXT) for data,
 * FLUSH CACHE (EXT) for FlushBlocks. */
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/log.h>

#define IDENTIFY_TIMEOUT_MS 3000
#define IO_TIMEOUT_MS 10000
#define FLUSH_TIMEOUT_MS 30000
#define DMA_ALIGN 2 /* the PRDT's data addresses must be even */

static struct ahci_device *to_dev(struct blkdev *blk)
{
	return container_of(blk, struct ahci_device, blk);
}

static EFI_STATUS rw_chunk(struct ahci_device *dev, EFI_LBA lba, UINT32 blocks, UINT64 data,
			   bool write)
{
	struct ata_command cmd;
	struct ahci_request req = {
	    .ata = &cmd,
	    .data = data,
	    .bytes = blocks * dev->blk.media.BlockSize,
	    .write = write,
	    .timeout_ms = IO_TIMEOUT_MS,
	};

	if (!ata_rw_command(&cmd, write, dev->lba48, lba, blocks))
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(ahci_exec(dev->port, &req))) {
		log_warn("ahci: port %u: %s of %u blocks at %llu failed (error %#x)\n",
			 dev->port->index, write ? "write" : "read", blocks,
			 (unsigned long long)lba, req.error);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS disk_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	return ahci_device_transfer(to_dev(blk), lba, size, buffer, false, rw_chunk);
}

static EFI_STATUS disk_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	return ahci_device_transfer(to_dev(blk), lba, size, (void *)buffer, true, rw_chunk);
}

static EFI_STATUS disk_flush(struct blkdev *blk)
{
	struct ahci_device *dev = to_dev(blk);
	struct ata_command cmd;
	struct ahci_request req = {.ata = &cmd, .timeout_ms = FLUSH_TIMEOUT_MS};

	ata_flush_command(&cmd, dev->lba48);
	return EFI_ERROR(ahci_exec(dev->port, &req)) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS disk_reset(struct blkdev *blk, bool extended)
{
	return ahci_port_recover(to_dev(blk)->port);
}

static const struct blkdev_ops disk_ops = {
    .read = disk_read,
    .write = disk_write,
    .flush = disk_flush,
    .reset = disk_reset,
};

static EFI_STATUS identify(struct ahci_device *dev, struct ata_disk_info *info)
{
	struct ata_command cmd = {.command = ATA_CMD_IDENTIFY_DEVICE};
	struct ahci_request req = {
	    .ata = &cmd,
	    .data = ahci_scratch_addr(dev->port),
	    .bytes = ATA_IDENTIFY_BYTES,
	    .timeout_ms = IDENTIFY_TIMEOUT_MS,
	};
	EFI_STATUS status = ahci_exec(dev->port, &req);

	if (EFI_ERROR(status))
		return status;
	return ata_parse_identify(ahci_scratch(dev->port), info);
}

EFI_STATUS ahci_disk_probe(struct ahci_device *dev)
{
	EFI_BLOCK_IO_MEDIA *m = &dev->blk.media;
	struct ata_disk_info info;
	EFI_STATUS status = identify(dev, &info);

	if (EFI_ERROR(status)) {
		log_warn("ahci: port %u: IDENTIFY DEVICE failed: %r\n", dev->port->index, status);
		return status;
	}
	blkdev_init(&dev->blk, &disk_ops);
	dev->lba48 = info.lba48;
	dev->max_blocks = ata_max_sectors(info.lba48);
	m->MediaPresent = TRUE;
	m->RemovableMedia = FALSE;
	m->BlockSize = info.sector_size;
	m->LastBlock = info.sectors - 1;
	m->IoAlign = DMA_ALIGN;
	m->WriteCaching = info.write_cache;
	m->LowestAlignedLba = info.lowest_aligned;
	m->LogicalBlocksPerPhysicalBlock = info.logical_per_physical;
	log_debug("ahci: port %u: disk \"%s\", %llu sectors of %u bytes%s\n", dev->port->index,
		  info.model, (unsigned long long)info.sectors, info.sector_size,
		  info.lba48 ? ", LBA48" : "");
	return EFI_SUCCESS;
}
