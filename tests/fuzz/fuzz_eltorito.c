/* Fuzzes the El Torito parser (drivers/partition/eltorito.c). The input is a CD (2048-byte
 * sectors) from sector 16 on: the volume descriptors, then whatever the boot record points
 * at; sectors 0-15 read as zeros, and the disk is as long as the input plus 64 sectors.
 * Every boot image found must lie inside the disk. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/drivers/partition.h>

#define SECTOR 2048
#define SKIPPED (16 * SECTOR)

struct fuzz_cd {
	const uint8_t *data;
	size_t size;
	uint64_t end;
};

static EFI_STATUS fuzz_read(void *ctx, UINT64 offset, UINTN size, void *buffer)
{
	struct fuzz_cd *cd = ctx;
	uint8_t *out = buffer;

	if (offset > cd->end || size > cd->end - offset)
		return EFI_DEVICE_ERROR;
	memset(out, 0, size);
	for (UINTN i = 0; i < size; i++)
		if (offset + i >= SKIPPED && offset + i - SKIPPED < cd->size)
			out[i] = cd->data[offset + i - SKIPPED];
	return EFI_SUCCESS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct part_table table;
	struct fuzz_cd cd = {data, size, SKIPPED + ((size + SECTOR - 1) / SECTOR + 64) * SECTOR};
	struct part_disk disk = {
	    .block_size = SECTOR, .last_block = cd.end / SECTOR - 1, .read = fuzz_read, .ctx = &cd};

	part_parse_eltorito(&disk, &table);
	for (UINTN i = 0; i < table.count; i++) {
		const struct part_entry *e = &table.entries[i];
		if (!e->blocks || e->start > disk.last_block ||
		    e->blocks > disk.last_block - e->start + 1 ||
		    e->node.cd.PartitionStart != e->start || e->node.cd.PartitionSize != e->blocks)
			abort();
	}
	part_parse(&disk, &table);
	return 0;
}
