/* ATA disks as block devices over any transport: IDENTIFY DEVICE for the geometry,
 * READ/WRITE SECTORS (EXT) or READ/WRITE DMA (EXT) for data, FLUSH CACHE (EXT) for
 * FlushBlocks. */
#define LOG_PREFIX "ata: "
#include <ember/drivers/ata.h>
#include <ember/lib/util.h>
#include <ember/core/log.h>

#define IDENTIFY_TIMEOUT_MS 3000
#define IO_TIMEOUT_MS 10000
#define FLUSH_TIMEOUT_MS 30000
#define IO_ALIGN 2		      /* data moves in 16-bit words */
#define MAX_COMMAND_BYTES (32u << 20) /* so that a command's bytes fit in 32 bits */

static struct ata_dev *to_dev(struct blkdev *blk)
{
	return container_of(blk, struct ata_dev, blk);
}

static EFI_STATUS rw_once(struct ata_dev *dev, EFI_LBA lba, UINT32 blocks, void *host, UINT64 addr,
			  bool mapped, bool write)
{
	struct ata_command cmd;
	struct ata_request req = {
	    .ata = &cmd,
	    .buffer = host,
	    .addr = addr,
	    .mapped = mapped,
	    .bytes = blocks * dev->blk.media.BlockSize,
	    .write = write,
	    .timeout_ms = IO_TIMEOUT_MS,
	};
	bool ok = dev->dma ? ata_rw_command(&cmd, write, dev->lba48, lba, blocks)
			   : ata_pio_rw_command(&cmd, write, dev->lba48, lba, blocks);

	if (!ok)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(dev->ops->exec(dev, &req))) {
		log_warn("%s: %s of %u blocks at %llu failed (error %#x)\n", dev->name,
			 write ? "write" : "read", blocks, (unsigned long long)lba, req.error);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

EFI_STATUS ata_dev_transfer(struct ata_dev *dev, EFI_LBA lba, UINTN size, UINT8 *p, bool write,
			    ata_chunk_fn chunk)
{
	UINT32 block = dev->blk.media.BlockSize;

	if (dev->ops->transfer)
		return dev->ops->transfer(dev, lba, size, p, write, chunk);
	while (size) {
		UINT32 blocks = (UINT32)MIN((UINT64)size / block, (UINT64)dev->max_blocks);
		EFI_STATUS status = chunk(dev, lba, blocks, p, 0, false, write);

		if (EFI_ERROR(status))
			return status;
		p += (UINTN)blocks * block;
		size -= (UINTN)blocks * block;
		lba += blocks;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS disk_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	return ata_dev_transfer(to_dev(blk), lba, size, buffer, false, rw_once);
}

static EFI_STATUS disk_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	return ata_dev_transfer(to_dev(blk), lba, size, (void *)buffer, true, rw_once);
}

static EFI_STATUS disk_flush(struct blkdev *blk)
{
	struct ata_dev *dev = to_dev(blk);
	struct ata_command cmd;
	struct ata_request req = {.ata = &cmd, .timeout_ms = FLUSH_TIMEOUT_MS};

	ata_flush_command(&cmd, dev->lba48);
	return EFI_ERROR(dev->ops->exec(dev, &req)) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS disk_reset(struct blkdev *blk, bool extended)
{
	struct ata_dev *dev = to_dev(blk);

	return dev->ops->reset(dev);
}

static const struct blkdev_ops disk_ops = {
    .read = disk_read,
    .write = disk_write,
    .flush = disk_flush,
    .reset = disk_reset,
};

static EFI_STATUS identify(struct ata_dev *dev, struct ata_disk_info *info)
{
	struct ata_command cmd = {.command = ATA_CMD_IDENTIFY_DEVICE};
	struct ata_request req = {
	    .ata = &cmd,
	    .buffer = dev->identify,
	    .bytes = ATA_IDENTIFY_BYTES,
	    .timeout_ms = IDENTIFY_TIMEOUT_MS,
	};
	EFI_STATUS status = dev->ops->exec(dev, &req);

	if (EFI_ERROR(status))
		return status;
	return ata_parse_identify(dev->identify, info);
}

EFI_STATUS ata_disk_probe(struct ata_dev *dev)
{
	EFI_BLOCK_IO_MEDIA *m = &dev->blk.media;
	struct ata_disk_info info;
	EFI_STATUS status = identify(dev, &info);

	if (EFI_ERROR(status)) {
		log_debug("%s: IDENTIFY DEVICE: %r\n", dev->name, status);
		return status;
	}
	blkdev_init(&dev->blk, &disk_ops);
	dev->lba48 = info.lba48;
	dev->max_blocks = MIN(ata_max_sectors(info.lba48), MAX_COMMAND_BYTES / info.sector_size);
	m->MediaPresent = TRUE;
	m->BlockSize = info.sector_size;
	m->LastBlock = info.sectors - 1;
	m->IoAlign = IO_ALIGN;
	m->WriteCaching = info.write_cache;
	m->LowestAlignedLba = info.lowest_aligned;
	m->LogicalBlocksPerPhysicalBlock = info.logical_per_physical;
	log_debug("%s: disk \"%s\", %llu sectors of %u bytes%s\n", dev->name, info.model,
		  (unsigned long long)info.sectors, info.sector_size, info.lba48 ? ", LBA48" : "");
	return EFI_SUCCESS;
}
