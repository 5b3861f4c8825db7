/* Fuzzes the GPT and MBR parsers (drivers/partition/gpt.c, mbr.c) and part_parse() on any
 * disk bytes, and the GPT repair (gpt_repair.c) on a writable copy of disks up to 1 MiB.
 * Input: byte 0 picks the block size (512 << (b & 3)), byte 1 makes the disk larger than
 * the input (b * 64 more blocks, reading as zeros), the rest is the disk. Every partition
 * found must lie inside the disk and not overlap another; a repair must either write
 * nothing or leave both GPT copies valid with the same partitions. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/drivers/partition.h>

struct fuzz_disk {
	const uint8_t *data;
	size_t size;  /* bytes backed by the input */
	uint64_t end; /* bytes the disk claims */
};

static EFI_STATUS fuzz_read(void *ctx, UINT64 offset, UINTN size, void *buffer)
{
	struct fuzz_disk *d = ctx;

	if (offset > d->end || size > d->end - offset)
		return EFI_DEVICE_ERROR;
	memset(buffer, 0, size);
	if (offset < d->size)
		memcpy(buffer, d->data + offset, size < d->size - offset ? size : d->size - offset);
	return EFI_SUCCESS;
}

/* The copy the repair may write to. */
struct fuzz_rw_disk {
	uint8_t *data;
	uint64_t size;
	size_t writes;
};

#define REPAIR_MAX_BYTES (1u << 20)

static EFI_STATUS rw_read(void *ctx, UINT64 offset, UINTN size, void *buffer)
{
	struct fuzz_rw_disk *d = ctx;

	if (offset > d->size || size > d->size - offset)
		return EFI_DEVICE_ERROR;
	memcpy(buffer, d->data + offset, size);
	return EFI_SUCCESS;
}

static EFI_STATUS rw_write(void *ctx, UINT64 offset, UINTN size, const void *buffer)
{
	struct fuzz_rw_disk *d = ctx;

	d->writes++;
	if (offset > d->size || size > d->size - offset)
		return EFI_DEVICE_ERROR;
	memcpy(d->data + offset, buffer, size);
	return EFI_SUCCESS;
}

static void check_table(const struct part_disk *disk, const struct part_table *t)
{
	if (t->count > PART_MAX)
		abort();
	for (UINTN i = 0; i < t->count; i++) {
		const struct part_entry *e = &t->entries[i];
		if (!e->blocks || e->start > disk->last_block ||
		    e->blocks > disk->last_block - e->start + 1)
			abort();
		for (UINTN j = 0; j < i; j++)
			if (e->start < t->entries[j].start + t->entries[j].blocks &&
			    t->entries[j].start < e->start + e->blocks)
				abort();
	}
}

static bool same_partitions(const struct part_table *a, const struct part_table *b)
{
	if (a->count != b->count)
		return false;
	for (UINTN i = 0; i < a->count; i++)
		if (a->entries[i].start != b->entries[i].start ||
		    a->entries[i].blocks != b->entries[i].blocks)
			return false;
	return true;
}

/* Repairs a writable copy of the disk: the writes cannot fail here, so a repair that did
 * not finish must not have written anything, and one that did must leave both copies
 * valid, describing the partitions found before. */
static void check_repair(const struct fuzz_disk *src, const struct part_disk *view)
{
	static struct part_table before, after;
	struct fuzz_rw_disk d = {NULL, src->end, 0};
	struct part_disk disk = *view;
	const char *what;
	EFI_STATUS status;

	if (src->end > REPAIR_MAX_BYTES || !(d.data = calloc(1, src->end)))
		return;
	memcpy(d.data, src->data, src->size < src->end ? src->size : src->end);
	disk.read = rw_read;
	disk.write = rw_write;
	disk.ctx = &d;
	part_parse_gpt(&disk, &before);
	status = part_gpt_repair(&disk, &before, &what);
	if (EFI_ERROR(status) || !what) {
		if (d.writes)
			abort();
	} else if (EFI_ERROR(part_parse_gpt(&disk, &after)) || !after.primary_valid ||
		   !after.backup_valid || !same_partitions(&before, &after)) {
		abort();
	}
	free(d.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct part_table table;
	struct fuzz_disk d;
	struct part_disk disk;
	UINT32 block_size;

	if (size < 2)
		return 0;
	block_size = 512u << (data[0] & 3);
	d = (struct fuzz_disk){data + 2, size - 2, 0};
	d.end = ((d.size / block_size) + (UINT64)data[1] * 64) * block_size;
	if (!d.end)
		return 0;
	disk = (struct part_disk){.block_size = block_size,
				  .last_block = d.end / block_size - 1,
				  .read = fuzz_read,
				  .ctx = &d};
	part_parse_gpt(&disk, &table);
	check_table(&disk, &table);
	part_parse_mbr(&disk, &table);
	check_table(&disk, &table);
	part_parse(&disk, &table);
	check_table(&disk, &table);
	check_repair(&d, &disk);
	return 0;
}
