/* Legacy MBR parser (UEFI 2.10, section 5.2.1): the four primary records, and the chain of
 * extended boot records inside an extended partition, whose logical partitions are numbered
 * from 5. A record is used only when it lies inside the disk (logical ones inside their
 * extended partition) and overlaps nothing found before it; the chain is followed for at
 * most PART_MAX links and never revisits a block. Pure logic. */
#define LOG_PREFIX "mbr: "
#include <ember/core/log.h>
#include <ember/drivers/partition.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define FIRST_LOGICAL_NUMBER 5

struct mbr_walk {
	const struct part_disk *disk;
	struct part_table *table;
	UINT8 disk_signature[4];
	UINT64 disk_blocks;
};

static UINT32 le32(const UINT8 *b)
{
	return (UINT32)b[0] | (UINT32)b[1] << 8 | (UINT32)b[2] << 16 | (UINT32)b[3] << 24;
}

static void set_le32(UINT8 *b, UINT32 v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (UINT8)(v >> (8 * i));
}

static bool is_extended(UINT8 type)
{
	return type == EXTENDED_DOS_PARTITION || type == EXTENDED_WINDOWS_PARTITION ||
	       type == EXTENDED_LINUX_PARTITION;
}

static bool is_empty(const MBR_PARTITION_RECORD *r)
{
	return r->OSIndicator == 0 || le32(r->SizeInLBA) == 0;
}

static EFI_STATUS read_mbr(const struct part_disk *disk, UINT64 lba, MASTER_BOOT_RECORD *mbr)
{
	UINT64 offset;

	if (lba > disk->last_block || mul_overflows(lba, (UINT64)disk->block_size, &offset))
		return EFI_INVALID_PARAMETER;
	return disk->read(disk->ctx, offset, sizeof(*mbr), mbr);
}

/* Adds the partition a record describes, starting at block start (absolute). */
static void add_record(struct mbr_walk *w, const MBR_PARTITION_RECORD *r, UINT64 start,
		       UINT32 number)
{
	struct part_entry e;
	HARDDRIVE_DEVICE_PATH *hd = &e.node.hd;

	mem_set(&e, 0, sizeof(e));
	e.start = start;
	e.blocks = le32(r->SizeInLBA);
	e.system = r->OSIndicator == EFI_PARTITION;
	part_node_header(&hd->Header, MEDIA_HARDDRIVE_DP, sizeof(*hd));
	hd->PartitionNumber = number;
	hd->PartitionStart = e.start;
	hd->PartitionSize = e.blocks;
	mem_copy(hd->Signature, w->disk_signature, sizeof(w->disk_signature));
	hd->MBRType = MBR_TYPE_PCAT;
	hd->SignatureType = SIGNATURE_TYPE_MBR;
	e.info.Revision = EFI_PARTITION_INFO_PROTOCOL_REVISION;
	e.info.Type = PARTITION_TYPE_MBR;
	e.info.System = e.system;
	e.info.Info.Mbr = *r;
	/* Logical records hold a start relative to their EBR; the copy says where it is. */
	set_le32(e.info.Info.Mbr.StartingLBA, (UINT32)MIN(start, (UINT64)UINT32_MAX));
	part_table_add(w->table, &e);
}

/* Whether the primary records make a valid MBR: boot indicators 0x00/0x80, partitions in
 * the disk past block 0, no two overlapping, and no protective (GPT) record. */
static const char *check_primaries(const struct mbr_walk *w, const MASTER_BOOT_RECORD *mbr)
{
	const MBR_PARTITION_RECORD *p = mbr->Partition;
	UINTN used = 0;

	for (UINTN i = 0; i < MAX_MBR_PARTITIONS; i++) {
		UINT64 start = le32(p[i].StartingLBA), size = le32(p[i].SizeInLBA);
		if (is_empty(&p[i]))
			continue;
		if (p[i].OSIndicator == PMBR_GPT_PARTITION)
			return "a protective MBR (the disk is GPT)";
		if (p[i].BootIndicator != 0x00 && p[i].BootIndicator != 0x80)
			return "a record has an invalid boot indicator";
		if (start == 0 || start + size > w->disk_blocks)
			return "a record lies outside the disk";
		for (UINTN j = 0; j < i; j++) {
			UINT64 s2 = le32(p[j].StartingLBA), n2 = le32(p[j].SizeInLBA);
			if (!is_empty(&p[j]) && start < s2 + n2 && s2 < start + size)
				return "two records overlap";
		}
		used++;
	}
	return used ? NULL : "no partitions in the MBR";
}

static bool visited_before(const UINT64 *visited, UINTN count, UINT64 lba)
{
	for (UINTN i = 0; i < count; i++)
		if (visited[i] == lba)
			return true;
	return false;
}

/* Adds the logical partition of the EBR at block ebr, if it lies after the EBR inside the
 * extended partition (which ends before ext_end) and over no other partition. */
static void add_logical(struct mbr_walk *w, const MBR_PARTITION_RECORD *logical, UINT64 ebr,
			UINT64 ext_end, UINT32 *number)
{
	UINT64 start = ebr + le32(logical->StartingLBA), size = le32(logical->SizeInLBA);

	if (start > ebr && start + size <= ext_end && !part_table_overlaps(w->table, start, size)) {
		add_record(w, logical, start, (*number)++);
		return;
	}
	log_debug("logical partition %u (LBA %llu, %llu blocks) lies outside its extended "
		  "partition or over another\n",
		  *number, start, size);
	w->table->skipped++;
	w->table->problem = "a logical partition is invalid";
}

/* Follows the EBR chain of the extended partition [ext_start, ext_start + ext_size). */
static EFI_STATUS walk_extended(struct mbr_walk *w, UINT64 ext_start, UINT64 ext_size,
				UINT32 *number)
{
	UINT64 visited[PART_MAX], ebr = ext_start, ext_end = ext_start + ext_size;
	MASTER_BOOT_RECORD *mbr = (MASTER_BOOT_RECORD *)w->table->scratch;
	const MBR_PARTITION_RECORD *next = &mbr->Partition[1];
	UINTN hops = 0;

	for (;;) {
		EFI_STATUS status;
		if (hops == PART_MAX || visited_before(visited, hops, ebr)) {
			log_debug("the EBR chain loops or runs too long at LBA %llu\n", ebr);
			return EFI_SUCCESS;
		}
		status = read_mbr(w->disk, ebr, mbr);
		if (EFI_ERROR(status)) {
			log_debug("cannot read the EBR at LBA %llu: %r\n", ebr, status);
			return status;
		}
		visited[hops++] = ebr;
		if (mbr->Signature != MBR_SIGNATURE) {
			log_debug("no signature in the EBR at LBA %llu\n", ebr);
			return EFI_SUCCESS;
		}
		if (!is_empty(&mbr->Partition[0]))
			add_logical(w, &mbr->Partition[0], ebr, ext_end, number);
		if (is_empty(next) || !is_extended(next->OSIndicator))
			return EFI_SUCCESS;
		ebr = ext_start + le32(next->StartingLBA);
		if (ebr <= ext_start || ebr >= ext_end) {
			log_debug("the next EBR (LBA %llu) lies outside the extended partition\n",
				  ebr);
			return EFI_SUCCESS;
		}
	}
}

EFI_STATUS part_parse_mbr(const struct part_disk *disk, struct part_table *table)
{
	struct mbr_walk w = {disk, table, {0}, disk->last_block + 1};
	MASTER_BOOT_RECORD mbr;
	UINT32 logical_number = FIRST_LOGICAL_NUMBER;
	EFI_STATUS status;

	part_table_reset(table);
	status = read_mbr(disk, 0, &mbr);
	if (EFI_ERROR(status)) {
		log_debug("cannot read the MBR: %r\n", status);
		return status;
	}
	if (mbr.Signature != MBR_SIGNATURE) {
		log_debug("no 55 AA signature\n");
		return EFI_NOT_FOUND;
	}
	table->problem = check_primaries(&w, &mbr);
	if (table->problem) {
		log_debug("%s\n", table->problem);
		return EFI_NOT_FOUND;
	}
	mem_copy(w.disk_signature, mbr.UniqueMbrSignature, sizeof(w.disk_signature));
	table->scheme = PART_SCHEME_MBR;
	for (UINTN i = 0; i < MAX_MBR_PARTITIONS; i++) {
		const MBR_PARTITION_RECORD *r = &mbr.Partition[i];
		if (is_empty(r))
			continue;
		if (!is_extended(r->OSIndicator))
			add_record(&w, r, le32(r->StartingLBA), (UINT32)(i + 1));
	}
	for (UINTN i = 0; i < MAX_MBR_PARTITIONS; i++) {
		const MBR_PARTITION_RECORD *r = &mbr.Partition[i];
		if (!is_empty(r) && is_extended(r->OSIndicator)) {
			status = walk_extended(&w, le32(r->StartingLBA), le32(r->SizeInLBA),
					       &logical_number);
			if (EFI_ERROR(status))
				return status; /* walk_extended said which read */
		}
	}
	return EFI_SUCCESS;
}
