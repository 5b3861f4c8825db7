/* Where a GPT header may point (UEFI 2.10, section 5.3.2): the rules that make a header
 * safe to read partitions from and to repair the other copy from. The primary header sits
 * at LBA 1 with its entry array between itself and the usable area; the backup sits past
 * the usable area with its array between the usable area and itself, and names LBA 1 as
 * its alternate. Each header must also leave room for the other copy's array where that
 * one goes, so that no partition can lie over it. Pure logic: no reads. */
#include <ember/drivers/partition.h>

UINT64 part_gpt_array_blocks(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *h)
{
	UINT64 bytes = (UINT64)h->NumberOfPartitionEntries * h->SizeOfPartitionEntry;

	return (bytes + disk->block_size - 1) / disk->block_size;
}

/* Table 5-5: entries of 128 * 2^n bytes (Ember reads up to 4096), an array of bounded size. */
static const char *check_entries(const EFI_PARTITION_TABLE_HEADER *h)
{
	UINT32 esize = h->SizeOfPartitionEntry;

	if (esize < sizeof(EFI_PARTITION_ENTRY) || esize > PART_GPT_MAX_ENTRY_SIZE ||
	    (esize & (esize - 1)))
		return "SizeOfPartitionEntry is not 128 times a power of two (up to 4096)";
	if (!h->NumberOfPartitionEntries)
		return "NumberOfPartitionEntries is zero";
	if ((UINT64)h->NumberOfPartitionEntries * esize > PART_GPT_MAX_ARRAY)
		return "partition entry array is too large";
	return NULL;
}

/* The usable area lies inside the disk, after the protective MBR and the primary header. */
static const char *check_usable(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *h)
{
	if (h->MyLBA < PART_GPT_PRIMARY_LBA || h->MyLBA > disk->last_block)
		return "MyLBA is not inside the disk past the protective MBR";
	if (h->FirstUsableLBA <= PART_GPT_PRIMARY_LBA || h->FirstUsableLBA > h->LastUsableLBA ||
	    h->LastUsableLBA > disk->last_block)
		return "usable LBA range is not inside the disk";
	return NULL;
}

/* The primary: its array in [MyLBA + 1, FirstUsableLBA), its alternate past the usable
 * area with room for the backup's array before it. */
static const char *check_primary(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *h,
				 UINT64 blocks)
{
	if (h->PartitionEntryLBA <= h->MyLBA || h->PartitionEntryLBA > h->FirstUsableLBA ||
	    blocks > h->FirstUsableLBA - h->PartitionEntryLBA)
		return "partition entry array is not between the header and the usable area";
	if (h->AlternateLBA <= h->LastUsableLBA || h->AlternateLBA > disk->last_block ||
	    blocks >= h->AlternateLBA - h->LastUsableLBA)
		return "AlternateLBA is not past the usable area and the backup's array";
	return NULL;
}

/* The backup: past the usable area, its array in (LastUsableLBA, MyLBA), LBA 1 its
 * alternate with room for the primary's array before the usable area. */
static const char *check_backup(const EFI_PARTITION_TABLE_HEADER *h, UINT64 blocks)
{
	if (h->MyLBA <= h->LastUsableLBA)
		return "MyLBA is neither LBA 1 nor past the usable area";
	if (h->PartitionEntryLBA <= h->LastUsableLBA || h->PartitionEntryLBA > h->MyLBA ||
	    blocks > h->MyLBA - h->PartitionEntryLBA)
		return "partition entry array is not between the usable area and the header";
	if (h->AlternateLBA != PART_GPT_PRIMARY_LBA)
		return "AlternateLBA of a backup header is not LBA 1";
	if (blocks > h->FirstUsableLBA - (PART_GPT_PRIMARY_LBA + 1))
		return "FirstUsableLBA leaves no room for the primary's array";
	return NULL;
}

const char *part_gpt_check_geometry(const struct part_disk *disk,
				    const EFI_PARTITION_TABLE_HEADER *h)
{
	const char *problem = check_entries(h);

	if (!problem)
		problem = check_usable(disk, h);
	if (problem)
		return problem;
	if (h->MyLBA == PART_GPT_PRIMARY_LBA)
		return check_primary(disk, h, part_gpt_array_blocks(disk, h));
	return check_backup(h, part_gpt_array_blocks(disk, h));
}
