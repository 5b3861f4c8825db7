/* Bus-master DMA on an IDE channel (SFF-8038i: the BMIDE registers in BAR 4): a PRD table
 * of regions that never cross a 64 KiB boundary, the direction, the ATA command (or the
 * PACKET and its CDB), then the start bit; done when the bus master is no longer active and
 * the drive not busy. Interrupts stay off (nIEN), so the activity bit is what is polled. */
#define LOG_PREFIX "ide: "
#include "ide.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>

#define REGION_MAX 0x10000u

static UINT8 bm_read(struct ide_channel *ch, UINT32 reg)
{
	UINT8 v = 0xff;

	ch->pci_io->Io.Read(ch->pci_io, EfiPciIoWidthUint8, IDE_BM_BAR, 8u * ch->index + reg, 1,
			    &v);
	return v;
}

static void bm_write(struct ide_channel *ch, UINT32 reg, EFI_PCI_IO_PROTOCOL_WIDTH width,
		     UINT32 value)
{
	ch->pci_io->Io.Write(ch->pci_io, width, IDE_BM_BAR, 8u * ch->index + reg, 1, &value);
}

void ide_dma_stop(struct ide_channel *ch)
{
	bm_write(ch, IDE_BM_COMMAND, EfiPciIoWidthUint8, 0);
	/* Error and interrupt are cleared by writing ones. */
	bm_write(ch, IDE_BM_STATUS, EfiPciIoWidthUint8, IDE_BM_ERROR | IDE_BM_INTERRUPT);
}

/* Fills the PRD table for [addr, addr + bytes); false when it does not fit. */
static bool build_prdt(struct ide_channel *ch, UINT64 addr, UINT32 bytes)
{
	UINT32 n = 0;

	if (!bytes || (addr & 1) || (bytes & 1) || addr + bytes - 1 > 0xffffffffULL)
		return false;
	while (bytes) {
		UINT32 len = MIN(bytes, REGION_MAX - (UINT32)(addr & (REGION_MAX - 1)));

		if (n == IDE_PRDS)
			return false;
		ch->prd[2 * n] = (UINT32)addr;
		/* A count of 0 stands for 64 KiB. */
		ch->prd[2 * n + 1] = len & 0xffff;
		addr += len;
		bytes -= len;
		n++;
	}
	ch->prd[2 * n - 1] |= IDE_PRD_EOT;
	return true;
}

/* Polls until the bus master stopped and the drive is not busy, or the drive failed the
 * command without moving data (a CHECK CONDITION right after the packet): the bus master
 * then never finishes. */
static EFI_STATUS wait_dma(struct ide_channel *ch, UINT64 deadline, UINT8 *bms)
{
	for (;;) {
		UINT8 st = ide_read(ch, IDE_STATUS);

		*bms = bm_read(ch, IDE_BM_STATUS);
		if (st == 0xff)
			return EFI_DEVICE_ERROR;
		if ((*bms & IDE_BM_ERROR) || (!(*bms & IDE_BM_ACTIVE) && !(st & IDE_STATUS_BSY)) ||
		    ((st & IDE_STATUS_ERR) && !(st & (IDE_STATUS_BSY | IDE_STATUS_DRQ))))
			return EFI_SUCCESS;
		if (core_time_ns() > deadline)
			return EFI_TIMEOUT;
		core_stall_us(1);
	}
}

static EFI_STATUS start(struct ide_device *dev, struct ata_request *req, UINT64 deadline)
{
	struct ide_channel *ch = dev->channel;
	EFI_STATUS status;

	bm_write(ch, IDE_BM_PRDT, EfiPciIoWidthUint32, (UINT32)ch->prd_addr);
	ide_dma_stop(ch);
	bm_write(ch, IDE_BM_COMMAND, EfiPciIoWidthUint8, req->write ? 0 : IDE_BM_TO_MEMORY);
	status = ide_select(dev, req->ata->device, deadline);
	if (EFI_ERROR(status))
		return status;
	ide_write_task_file(ch, req->ata);
	ide_write(ch, IDE_COMMAND, req->ata->command);
	if (req->cdb) {
		status = ide_send_packet(ch, req->cdb, deadline);
		if (EFI_ERROR(status))
			return status;
	}
	/* The PRD table must be in memory before the bus master reads it. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	bm_write(ch, IDE_BM_COMMAND, EfiPciIoWidthUint8,
		 IDE_BM_START | (req->write ? 0 : IDE_BM_TO_MEMORY));
	return EFI_SUCCESS;
}

EFI_STATUS ide_dma_run(struct ide_device *dev, struct ata_request *req, UINT64 deadline)
{
	struct ide_channel *ch = dev->channel;
	EFI_STATUS status;
	UINT8 bms = 0, st = 0;

	if (!build_prdt(ch, req->addr, req->bytes))
		return EFI_INVALID_PARAMETER;
	status = start(dev, req, deadline);
	if (!EFI_ERROR(status))
		status = wait_dma(ch, deadline, &bms);
	ide_dma_stop(ch);
	if (EFI_ERROR(status))
		return status;
	status = ide_wait_status(ch, deadline, &st);
	if (!EFI_ERROR(status) && ((bms & IDE_BM_ERROR) || (st & (IDE_STATUS_ERR | IDE_STATUS_DF))))
		status = EFI_DEVICE_ERROR;
	req->transferred = EFI_ERROR(status) ? 0 : req->bytes;
	return status;
}

static EFI_STATUS map_chunk(struct ide_channel *ch, bool write, UINT8 *p, UINTN *bytes,
			    UINT64 *addr, void **mapping, UINT32 block)
{
	EFI_PCI_IO_PROTOCOL *pci_io = ch->pci_io;
	/* BusMasterRead: the controller reads memory (a disk write). */
	EFI_PCI_IO_PROTOCOL_OPERATION op =
	    write ? EfiPciIoOperationBusMasterRead : EfiPciIoOperationBusMasterWrite;
	EFI_STATUS status = pci_io->Map(pci_io, op, p, bytes, addr, mapping);

	if (EFI_ERROR(status))
		return status;
	*bytes = ALIGN_DOWN(*bytes, (UINTN)block);
	/* The PRDs hold 32-bit, even addresses. */
	if (!*bytes || (*addr & 1) || (*addr + *bytes - 1) >> 32) {
		pci_io->Unmap(pci_io, *mapping);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

EFI_STATUS ide_dma_transfer(struct ata_dev *ata, EFI_LBA lba, UINTN size, void *buffer, bool write,
			    ata_chunk_fn chunk)
{
	struct ide_device *dev = container_of(ata, struct ide_device, ata);
	UINT32 block = ata->blk.media.BlockSize;
	UINT64 max = ALIGN_DOWN(MIN((UINT64)ata->max_blocks * block, (UINT64)IDE_DMA_MAX_BYTES),
				(UINT64)block);
	UINT8 *p = buffer;

	while (size) {
		UINTN bytes = (UINTN)MIN((UINT64)size, max);
		UINT64 addr;
		void *mapping;
		EFI_STATUS status =
		    map_chunk(dev->channel, write, p, &bytes, &addr, &mapping, block);

		if (EFI_ERROR(status))
			return status;
		status = chunk(ata, lba, (UINT32)(bytes / block), p, addr, true, write);
		dev->channel->pci_io->Unmap(dev->channel->pci_io, mapping);
		if (EFI_ERROR(status))
			return status;
		p += bytes;
		size -= bytes;
		lba += bytes / block;
	}
	return EFI_SUCCESS;
}
