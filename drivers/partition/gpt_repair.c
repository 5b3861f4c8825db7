/* Restoring a damaged GPT copy from the valid one (UEFI 2.10, section 5.3.2). Nothing is
 * written unless the valid header and the copy made from it both pass the geometry rules
 * (gpt_geometry.c), the backup goes on the disk's last block, and the blocks written are
 * none of the blocks read. The entry array is copied first, its CRC32 checked as it is
 * read, and the header written last, so that a failed or interrupted repair leaves a copy
 * whose header still fails its checks rather than one that points at half an array.
 * Pure logic over the part_disk callbacks. */
#define LOG_PREFIX "gpt: "
#include <ember/core/log.h>
#include <ember/lib/crc32.h>
#include <ember/drivers/partition.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

static bool ranges_overlap(UINT64 a, UINT64 a_blocks, UINT64 b, UINT64 b_blocks)
{
	return a < b + b_blocks && b < a + a_blocks;
}

/* The header of the copy to write: the valid one moved to its alternate's place, with the
 * primary's array right after it (LBA 2) and the backup's right before it. NULL when the
 * copy may be written, else why not. */
static const char *plan_copy(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *good,
			     EFI_PARTITION_TABLE_HEADER *copy)
{
	UINT64 blocks = part_gpt_array_blocks(disk, good);
	const char *problem;

	*copy = *good;
	copy->MyLBA = good->AlternateLBA;
	copy->AlternateLBA = good->MyLBA;
	if (copy->MyLBA == PART_GPT_PRIMARY_LBA)
		copy->PartitionEntryLBA = PART_GPT_PRIMARY_LBA + 1;
	else if (copy->MyLBA == disk->last_block && copy->MyLBA > blocks)
		copy->PartitionEntryLBA = copy->MyLBA - blocks;
	else
		return "the backup's place is not the disk's last block";
	problem = part_gpt_check_geometry(disk, copy);
	if (problem)
		return problem;
	/* Both geometries hold, so this cannot happen; a copy over its source would destroy
	 * both tables, so it is checked all the same. */
	if (ranges_overlap(copy->PartitionEntryLBA, blocks, good->PartitionEntryLBA, blocks) ||
	    ranges_overlap(copy->MyLBA, 1, good->PartitionEntryLBA, blocks) ||
	    ranges_overlap(copy->PartitionEntryLBA, blocks, good->MyLBA, 1))
		return "the copy would overlap the valid table";
	return NULL;
}

/* Copies good's entry array to copy's place a scratch-full at a time; EFI_CRC_ERROR when
 * what was read is not the array whose CRC32 good holds. */
static EFI_STATUS copy_array(const struct part_disk *disk, struct part_table *table,
			     const EFI_PARTITION_TABLE_HEADER *good,
			     const EFI_PARTITION_TABLE_HEADER *copy)
{
	UINT64 total = (UINT64)good->NumberOfPartitionEntries * good->SizeOfPartitionEntry;
	UINT64 from = good->PartitionEntryLBA * disk->block_size;
	UINT64 to = copy->PartitionEntryLBA * disk->block_size;
	UINT32 crc = 0;
	EFI_STATUS status;

	for (UINT64 done = 0; done < total; done += sizeof(table->scratch)) {
		UINTN n = (UINTN)MIN((UINT64)sizeof(table->scratch), total - done);
		status = disk->read(disk->ctx, from + done, n, table->scratch);
		if (!EFI_ERROR(status))
			status = disk->write(disk->ctx, to + done, n, table->scratch);
		if (EFI_ERROR(status))
			return status;
		crc = crc32_update(crc, table->scratch, n);
	}
	return crc == good->PartitionEntryArrayCRC32 ? EFI_SUCCESS : EFI_CRC_ERROR;
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
	EFI_PARTITION_TABLE_HEADER good = table->header, copy;
	const char *problem;
	EFI_STATUS status;

	if (what)
		*what = NULL;
	if (table->scheme != PART_SCHEME_GPT || table->primary_valid == table->backup_valid)
		return EFI_SUCCESS;
	if (!disk->write)
		return EFI_UNSUPPORTED;
	/* Never repair from a header that breaks 5.3.2, however the table was filled. */
	problem = part_gpt_check_geometry(disk, &good);
	if (!problem)
		problem = plan_copy(disk, &good, &copy);
	if (problem) {
		log_debug("no repair from the header at LBA %llu: %s\n", good.MyLBA, problem);
		return EFI_UNSUPPORTED;
	}
	status = copy_array(disk, table, &good, &copy);
	if (!EFI_ERROR(status))
		status = write_header(disk, table, &copy);
	if (EFI_ERROR(status)) {
		log_debug("repair of the header at LBA %llu: %r\n", copy.MyLBA, status);
		return status;
	}
	if (what)
		*what = copy.MyLBA == PART_GPT_PRIMARY_LBA ? "primary" : "backup";
	return EFI_SUCCESS;
}
