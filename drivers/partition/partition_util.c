/* Table bookkeeping shared by the partition parsers (pure logic). */
#include <ember/drivers/partition.h>
#include <ember/lib/str.h>

void part_table_reset(struct part_table *table)
{
	table->scheme = PART_SCHEME_NONE;
	table->count = 0;
	table->problem = NULL;
	table->primary_problem = NULL;
	table->backup_problem = NULL;
	table->skipped = 0;
	table->primary_valid = false;
	table->backup_valid = false;
	mem_set(&table->header, 0, sizeof(table->header));
}

bool part_table_add(struct part_table *table, const struct part_entry *entry)
{
	if (table->count >= PART_MAX) {
		table->problem = "more partitions than Ember keeps; the rest are ignored";
		table->skipped++;
		return false;
	}
	table->entries[table->count++] = *entry;
	return true;
}

bool part_table_overlaps(const struct part_table *table, UINT64 start, UINT64 blocks)
{
	for (UINTN i = 0; i < table->count; i++) {
		const struct part_entry *e = &table->entries[i];
		if (start < e->start + e->blocks && e->start < start + blocks)
			return true;
	}
	return false;
}

void part_node_header(EFI_DEVICE_PATH_PROTOCOL *node, UINT8 subtype, UINT16 length)
{
	node->Type = MEDIA_DEVICE_PATH;
	node->SubType = subtype;
	node->Length[0] = (UINT8)length;
	node->Length[1] = (UINT8)(length >> 8);
}

EFI_STATUS part_parse(const struct part_disk *disk, struct part_table *table)
{
	const char *primary, *backup, *problem;
	EFI_STATUS status = part_parse_gpt(disk, table);

	if (status != EFI_NOT_FOUND)
		return status;
	/* Keep the reasons a GPT was refused: they matter more than "no MBR either". */
	primary = table->primary_problem;
	backup = table->backup_problem;
	problem = table->problem;
	status = part_parse_eltorito(disk, table);
	if (status == EFI_NOT_FOUND)
		status = part_parse_mbr(disk, table);
	if (status == EFI_NOT_FOUND && problem) {
		table->problem = problem;
		table->primary_problem = primary;
		table->backup_problem = backup;
	}
	return status;
}
