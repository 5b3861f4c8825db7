/* Restoring a damaged GPT copy from the valid one (UEFI 2.10, section 5.3.2): the entry
 * array is copied first and the header written last, so that an interrupted repair leaves
 * a copy whose header still fails its checks rather than one that points at half an array.
 * Pure logic over the part_disk callbacks. */
#include <ember/lib/crc32.h>
#include <ember/drivers/partition.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

static UINT64 array_blocks(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *h)
{
	UINT64 bytes = (UINT64)h->NumberOfPartitionEntries * h->SizeOfPartitionEntry;

	return (bytes + disk->block_size - 1) / disk->block_size;
}

/* Copies the entry array from block from to block to, a scratch-full at a time. */
static EFI_STATUS copy_array(const struct part_disk *disk, struct part_table *table,
			     const EFI_PARTITION_TABLE_HEADER *h, EFI_LBA from, EFI_LBA to)
{
	UINT64 total = (UINT64)h->NumberOfPartitionEntries * h->SizeOfPartitionEntry;
	UINT64 bs = disk->block_size;
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT64 done = 0; done < total && !EFI_ERROR(status);) {
		UINTN n = (UINTN)MIN((UINT64)sizeof(table->scratch), total - done);
		status = disk->read(disk->ctx, from * bs + done, n, table->scratch);
		if (!EFI_ERROR(status))
			status = disk->write(disk->ctx, to * bs + done, n, table->scratch);
		done += n;
	}
	return status;
}

/* Writes header h (CRC recomputed) at its MyLBA, zero-padded to a block. */
static EFI_STATUS write_header(const struct part_disk *disk, struct part_table *table,
			       EFI_PARTITION_TABLE_HEADER *h)
{
	UINTN size = MIN((UINTN)disk->block_size, sizeof(table->scratch));

	h->Header.HeaderSize = sizeof(*h);
	h->Header.CRC32 = 0;
	h->Header.CRC32 = crc32(h, sizeof(*h));
	mem_set(table->scratch, 0, size);
	mem_copy(table->scratch, h, sizeof(*h));
	return disk->write(disk->ctx, h->MyLBA * disk->block_size, size, table->scratch);
}

EFI_STATUS part_gpt_repair(const struct part_disk *disk, struct part_table *table,
			   const char **what)
{
	EFI_PARTITION_TABLE_HEADER copy = table->header;
	const EFI_PARTITION_TABLE_HEADER *good = &table->header;
	UINT64 blocks = array_blocks(disk, good);
	EFI_STATUS status;

	if (what)
		*what = NULL;
	if (table->scheme != PART_SCHEME_GPT || table->primary_valid == table->backup_valid)
		return EFI_SUCCESS;
	if (!disk->write)
		return EFI_UNSUPPORTED;
	copy.MyLBA = good->AlternateLBA;
	copy.AlternateLBA = good->MyLBA;
	if (table->backup_valid) {
		/* The primary: header at 1, array from 2, before the usable area. */
		copy.PartitionEntryLBA = 2;
		if (good->MyLBA != disk->last_block || 2 + blocks > good->FirstUsableLBA)
			return EFI_UNSUPPORTED;
	} else {
		/* The backup: header where the primary says, its array just before it. */
		if (copy.MyLBA > disk->last_block || copy.MyLBA <= good->LastUsableLBA + blocks)
			return EFI_UNSUPPORTED;
		copy.PartitionEntryLBA = copy.MyLBA - blocks;
	}
	status = copy_array(disk, table, good, good->PartitionEntryLBA, copy.PartitionEntryLBA);
	if (!EFI_ERROR(status))
		status = write_header(disk, table, &copy);
	if (!EFI_ERROR(status) && what)
		*what = table->backup_valid ? "primary" : "backup";
	return status;
}
