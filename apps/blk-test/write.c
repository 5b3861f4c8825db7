/* blk-test write: a multi-megabyte write of a known pattern, flushed, read back. */
#include "blk_test.h"

#define WRITE_OFFSET (1u << 20)
#define WRITE_BYTES (2u << 20)

static void write_disk(struct blk_disk *d)
{
	EFI_BLOCK_IO_PROTOCOL *bio = d->bio;
	const EFI_BLOCK_IO_MEDIA *m = bio->Media;
	UINT64 disk_bytes = (m->LastBlock + 1) * m->BlockSize;
	EFI_LBA lba = WRITE_OFFSET / m->BlockSize;
	UINTN size = (UINTN)MIN((UINT64)WRITE_BYTES, disk_bytes / 2);
	void *free_out, *free_in;
	UINT8 *out, *in;

	size = ALIGN_DOWN(size, (UINTN)m->BlockSize);
	if (!m->MediaPresent || m->ReadOnly || disk_bytes < 2 * WRITE_OFFSET || !size)
		return;
	out = blk_alloc_aligned(size, m->IoAlign, &free_out);
	in = blk_alloc_aligned(size, m->IoAlign, &free_in);
	if (CHECK(out && in)) {
		for (UINTN i = 0; i < size; i++)
			out[i] = blk_test_pattern((UINT64)lba * m->BlockSize + i);
		mem_set(in, 0, size);
		CHECK_STATUS(bio->WriteBlocks(bio, m->MediaId, lba, size, out), EFI_SUCCESS);
		CHECK_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
		CHECK_STATUS(bio->ReadBlocks(bio, m->MediaId, lba, size, in), EFI_SUCCESS);
		CHECK(!mem_cmp(in, out, size));
		app_print("disk %u: wrote lba=%llu bytes=%u\n", (UINT32)d->number,
			  (unsigned long long)lba, (UINT32)size);
	}
	app_free(free_out);
	app_free(free_in);
}

void blk_write(struct blk_disk *disks, UINTN count)
{
	for (UINTN i = 0; i < count; i++)
		write_disk(&disks[i]);
}
