/* ATA command selection and Register H2D FIS encoding (SATA 3.x, 10.5.5; ACS-3). */
#include <ember/drivers/ata.h>
#include <ember/lib/str.h>

#define LBA28_LIMIT (1ULL << 28)
#define LBA48_LIMIT (1ULL << 48)

void ata_encode_fis(UINT8 fis[ATA_FIS_BYTES], const struct ata_command *cmd)
{
	mem_set(fis, 0, ATA_FIS_BYTES);
	fis[0] = ATA_FIS_H2D;
	fis[1] = ATA_FIS_COMMAND;
	fis[2] = cmd->command;
	fis[3] = (UINT8)cmd->features;
	fis[4] = (UINT8)cmd->lba;
	fis[5] = (UINT8)(cmd->lba >> 8);
	fis[6] = (UINT8)(cmd->lba >> 16);
	fis[7] = cmd->device;
	fis[8] = (UINT8)(cmd->lba >> 24);
	fis[9] = (UINT8)(cmd->lba >> 32);
	fis[10] = (UINT8)(cmd->lba >> 40);
	fis[11] = (UINT8)(cmd->features >> 8);
	fis[12] = (UINT8)cmd->count;
	fis[13] = (UINT8)(cmd->count >> 8);
}

UINT32 ata_max_sectors(bool lba48)
{
	return lba48 ? 65536 : 256;
}

bool ata_rw_command(struct ata_command *cmd, bool write, bool lba48, UINT64 lba, UINT32 count)
{
	UINT64 limit = lba48 ? LBA48_LIMIT : LBA28_LIMIT;

	if (!count || count > ata_max_sectors(lba48) || lba >= limit || count > limit - lba)
		return false;
	mem_set(cmd, 0, sizeof(*cmd));
	cmd->lba = lba;
	/* A count of 0 in the FIS stands for the largest count (65536 or 256). */
	cmd->count = (UINT16)(count == ata_max_sectors(lba48) ? 0 : count);
	if (lba48) {
		cmd->command = write ? ATA_CMD_WRITE_DMA_EXT : ATA_CMD_READ_DMA_EXT;
		cmd->device = ATA_DEVICE_LBA;
	} else {
		cmd->command = write ? ATA_CMD_WRITE_DMA : ATA_CMD_READ_DMA;
		/* 28-bit commands carry LBA bits 27:24 in the device register. */
		cmd->device = (UINT8)(ATA_DEVICE_LBA | ((lba >> 24) & 0x0f));
		cmd->lba = lba & 0xffffff;
	}
	return true;
}

void ata_flush_command(struct ata_command *cmd, bool lba48)
{
	mem_set(cmd, 0, sizeof(*cmd));
	cmd->command = lba48 ? ATA_CMD_FLUSH_CACHE_EXT : ATA_CMD_FLUSH_CACHE;
	cmd->device = ATA_DEVICE_LBA;
}

void atapi_packet_command(struct ata_command *cmd, bool dma)
{
	mem_set(cmd, 0, sizeof(*cmd));
	cmd->command = ATA_CMD_PACKET;
	cmd->features = dma ? 1 : 0;
	/* The byte count limit (LBA 23:8) matters only for PIO transfers: one CD block. */
	cmd->lba = (UINT64)ATAPI_BLOCK_SIZE << 8;
}

bool ata_pio_rw_command(struct ata_command *cmd, bool write, bool lba48, UINT64 lba, UINT32 count)
{
	if (!ata_rw_command(cmd, write, lba48, lba, count))
		return false;
	if (lba48)
		cmd->command = write ? ATA_CMD_WRITE_SECTORS_EXT : ATA_CMD_READ_SECTORS_EXT;
	else
		cmd->command = write ? ATA_CMD_WRITE_SECTORS : ATA_CMD_READ_SECTORS;
	return true;
}
