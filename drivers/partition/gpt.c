/* GUID Partition Table parser (UEFI 2.10, section 5.3.2): the protective MBR, the primary
 * header and its entry array checked by CRC32 and for sane geometry, the backup header at
 * the disk's last block used when the primary is damaged, and entries kept only when they
 * lie in the usable area without overlapping. Pure logic. */
#define LOG_PREFIX "gpt: "
#include <ember/core/log.h>
#include <ember/lib/crc32.h>
#include <ember/drivers/partition.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <ember/lib/guids.h>

static EFI_STATUS read_at_block(const struct part_disk *disk, EFI_LBA lba, UINT64 skip, UINTN size,
				void *buffer)
{
	UINT64 offset;

	if (mul_overflows(lba, (UINT64)disk->block_size, &offset) ||
	    add_overflows(offset, skip, &offset))
		return EFI_INVALID_PARAMETER;
	return disk->read(disk->ctx, offset, size, buffer);
}

/* A GPT disk starts with an MBR holding a record of type 0xEE (5.2.3); hybrid MBRs that
 * also describe other partitions count too. */
static bool has_protective_mbr(const struct part_disk *disk, struct part_table *table)
{
	MASTER_BOOT_RECORD *mbr = (MASTER_BOOT_RECORD *)table->scratch;

	EFI_STATUS status = disk->read(disk->ctx, 0, sizeof(*mbr), mbr);

	if (EFI_ERROR(status)) {
		log_debug("cannot read the protective MBR: %r\n", status);
		return false;
	}
	for (UINTN i = 0; mbr->Signature == MBR_SIGNATURE && i < MAX_MBR_PARTITIONS; i++)
		if (mbr->Partition[i].OSIndicator == PMBR_GPT_PARTITION)
			return true;
	log_debug("no protective MBR\n");
	return false;
}

static UINT64 array_bytes(const EFI_PARTITION_TABLE_HEADER *h)
{
	return (UINT64)h->NumberOfPartitionEntries * h->SizeOfPartitionEntry;
}

/* Reads and checks the header at lba into *h (signature, size, CRC32, geometry). */
static const char *load_header(const struct part_disk *disk, struct part_table *table, EFI_LBA lba,
			       EFI_PARTITION_TABLE_HEADER *h)
{
	UINTN size = MIN((UINTN)disk->block_size, sizeof(table->scratch));
	EFI_PARTITION_TABLE_HEADER *raw = (EFI_PARTITION_TABLE_HEADER *)table->scratch;
	UINT32 crc;

	if (lba > disk->last_block || EFI_ERROR(read_at_block(disk, lba, 0, size, raw)))
		return "cannot read the header";
	if (raw->Header.Signature != EFI_PTAB_HEADER_ID)
		return "no \"EFI PART\" signature";
	if (raw->Header.HeaderSize < EFI_GPT_HEADER_MIN_SIZE || raw->Header.HeaderSize > size)
		return "HeaderSize is out of range";
	crc = raw->Header.CRC32;
	raw->Header.CRC32 = 0;
	if (crc32(raw, raw->Header.HeaderSize) != crc)
		return "header CRC32 mismatch";
	raw->Header.CRC32 = crc;
	*h = *raw;
	if (h->MyLBA != lba)
		return "MyLBA is not where the header is";
	return part_gpt_check_geometry(disk, h);
}

/* Checks the entry array's CRC32, reading it in chunks of whole entries. */
static const char *check_array(const struct part_disk *disk, struct part_table *table,
			       const EFI_PARTITION_TABLE_HEADER *h)
{
	UINT64 total = array_bytes(h), done = 0;
	UINTN chunk = sizeof(table->scratch);
	UINT32 crc = 0;

	while (done < total) {
		UINTN n = (UINTN)MIN((UINT64)chunk, total - done);
		if (EFI_ERROR(read_at_block(disk, h->PartitionEntryLBA, done, n, table->scratch)))
			return "cannot read the partition entry array";
		crc = crc32_update(crc, table->scratch, n);
		done += n;
	}
	return crc == h->PartitionEntryArrayCRC32 ? NULL : "partition entry array CRC32 mismatch";
}

static const char *load_table(const struct part_disk *disk, struct part_table *table, EFI_LBA lba,
			      EFI_PARTITION_TABLE_HEADER *h)
{
	const char *problem = load_header(disk, table, lba, h);

	if (!problem)
		problem = check_array(disk, table, h);
	if (problem)
		log_debug("header at LBA %llu: %s\n", lba, problem);
	return problem;
}

static void fill_entry(struct part_entry *out, const EFI_PARTITION_ENTRY *e, UINT32 number)
{
	HARDDRIVE_DEVICE_PATH *hd = &out->node.hd;

	mem_set(out, 0, sizeof(*out));
	out->start = e->StartingLBA;
	out->blocks = e->EndingLBA - e->StartingLBA + 1;
	out->system =
	    !mem_cmp(&e->PartitionTypeGUID, &efi_part_type_efi_system_part_guid, sizeof(EFI_GUID));
	part_node_header(&hd->Header, MEDIA_HARDDRIVE_DP, sizeof(*hd));
	hd->PartitionNumber = number;
	hd->PartitionStart = out->start;
	hd->PartitionSize = out->blocks;
	mem_copy(hd->Signature, &e->UniquePartitionGUID, sizeof(EFI_GUID));
	hd->MBRType = MBR_TYPE_EFI_PARTITION_TABLE_HEADER;
	hd->SignatureType = SIGNATURE_TYPE_GUID;
	out->info.Revision = EFI_PARTITION_INFO_PROTOCOL_REVISION;
	out->info.Type = PARTITION_TYPE_GPT;
	out->info.System = out->system;
	out->info.Info.Gpt = *e;
}

/* Adds one used entry if it lies in the usable area and overlaps no earlier one. */
static void add_entry(struct part_table *table, const EFI_PARTITION_TABLE_HEADER *h,
		      const EFI_PARTITION_ENTRY *e, UINT32 number)
{
	struct part_entry entry;

	if (e->StartingLBA > e->EndingLBA || e->StartingLBA < h->FirstUsableLBA ||
	    e->EndingLBA > h->LastUsableLBA) {
		log_debug("entry %u (LBA %llu-%llu) lies outside the usable area\n", number,
			  e->StartingLBA, e->EndingLBA);
		table->problem = "a partition lies outside the usable area";
		table->skipped++;
		return;
	}
	if (part_table_overlaps(table, e->StartingLBA, e->EndingLBA - e->StartingLBA + 1)) {
		log_debug("entry %u (LBA %llu-%llu) overlaps another\n", number, e->StartingLBA,
			  e->EndingLBA);
		table->problem = "a partition overlaps another";
		table->skipped++;
		return;
	}
	/* Table 5.8: such partitions must not be given a BlockIo of their own. */
	if (e->Attributes & EFI_PARTITION_ATTRIBUTE_NO_BLOCK_IO)
		return;
	fill_entry(&entry, e, number);
	part_table_add(table, &entry);
}

static EFI_STATUS collect_entries(const struct part_disk *disk, struct part_table *table,
				  const EFI_PARTITION_TABLE_HEADER *h)
{
	UINTN esize = h->SizeOfPartitionEntry, per_chunk = sizeof(table->scratch) / esize;
	EFI_PARTITION_ENTRY entry;
	EFI_STATUS status;

	for (UINT32 first = 0; first < h->NumberOfPartitionEntries; first += per_chunk) {
		UINTN n = MIN(per_chunk, (UINTN)(h->NumberOfPartitionEntries - first));
		status = read_at_block(disk, h->PartitionEntryLBA, (UINT64)first * esize, n * esize,
				       table->scratch);
		if (EFI_ERROR(status)) {
			log_debug("cannot read entries from %u: %r\n", first + 1, status);
			return status;
		}
		for (UINTN i = 0; i < n; i++) {
			mem_copy(&entry, table->scratch + i * esize, sizeof(entry));
			if (!mem_is_zero(&entry.PartitionTypeGUID, sizeof(EFI_GUID)))
				add_entry(table, h, &entry, (UINT32)(first + i + 1));
		}
	}
	return EFI_SUCCESS;
}

EFI_STATUS part_parse_gpt(const struct part_disk *disk, struct part_table *table)
{
	EFI_PARTITION_TABLE_HEADER primary, backup;
	EFI_STATUS status;

	part_table_reset(table);
	if (!has_protective_mbr(disk, table))
		return EFI_NOT_FOUND;
	table->primary_problem = load_table(disk, table, PART_GPT_PRIMARY_LBA, &primary);
	table->primary_valid = !table->primary_problem;
	/* The backup sits where the primary says, or else on the last block (5.3.2). */
	table->backup_problem = load_table(
	    disk, table, table->primary_valid ? primary.AlternateLBA : disk->last_block, &backup);
	table->backup_valid = !table->backup_problem;
	if (!table->primary_valid && !table->backup_valid) {
		table->problem = "neither the primary nor the backup GPT is valid";
		return EFI_NOT_FOUND;
	}
	table->header = table->primary_valid ? primary : backup;
	table->scheme = PART_SCHEME_GPT;
	status = collect_entries(disk, table, &table->header);
	if (EFI_ERROR(status)) {
		/* The array was checked whole; a part of it is not the table. */
		table->count = 0;
		table->problem = "cannot read the partition entries";
	}
	return status;
}
