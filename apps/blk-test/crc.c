/* blk-test crc: CRC-32s of known ranges, for comparison with the disk image; the big range is
 * read in one call and in 64 KiB pieces, which must agree. */
#include "blk_test.h"
#include <ember/lib/crc32.h>

#define BIG_RANGE (40u << 20) /* more than one AHCI command carries (32 MiB) */
#define PIECE (64u << 10)

/* Reads blocks at lba into a fresh buffer and prints its CRC; NULL on failure. */
static UINT8 *read_and_print(struct blk_disk *d, EFI_LBA lba, UINTN blocks, void **to_free)
{
	const EFI_BLOCK_IO_MEDIA *m = d->bio->Media;
	UINTN size = blocks * m->BlockSize;
	UINT8 *buf = blk_alloc_aligned(size, m->IoAlign, to_free);

	if (!CHECK(buf != NULL))
		return NULL;
	if (!CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId, lba, size, buf), EFI_SUCCESS)) {
		app_free(*to_free);
		return NULL;
	}
	app_print("disk %u: crc lba=%llu blocks=%llu crc=%08x\n", (UINT32)d->number,
		  (unsigned long long)lba, (unsigned long long)blocks, crc32(buf, size));
	return buf;
}

/* The same range again, piece by piece, compared with what one call returned. */
static void compare_in_pieces(struct blk_disk *d, EFI_LBA lba, UINTN blocks, const UINT8 *whole)
{
	const EFI_BLOCK_IO_MEDIA *m = d->bio->Media;
	UINTN per_piece = MAX((UINTN)1, PIECE / m->BlockSize);
	void *to_free;
	UINT8 *buf = blk_alloc_aligned(per_piece * m->BlockSize, m->IoAlign, &to_free);
	bool same = true;

	if (!CHECK(buf != NULL))
		return;
	for (UINTN done = 0; done < blocks && same; done += per_piece) {
		UINTN n = MIN(per_piece, blocks - done);

		same = CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId, lba + done,
						       n * m->BlockSize, buf),
				    EFI_SUCCESS) &&
		       CHECK(!mem_cmp(buf, whole + done * m->BlockSize, n * m->BlockSize));
	}
	app_free(to_free);
}

static void crc_disk(struct blk_disk *d)
{
	const EFI_BLOCK_IO_MEDIA *m = d->bio->Media;
	UINTN big = m->LastBlock ? MIN((UINTN)m->LastBlock, BIG_RANGE / m->BlockSize) : 0;
	void *to_free;
	UINT8 *buf;

	if (!m->MediaPresent)
		return;
	if ((buf = read_and_print(d, 0, 1, &to_free)))
		app_free(to_free);
	if ((buf = read_and_print(d, m->LastBlock, 1, &to_free)))
		app_free(to_free);
	if (big && (buf = read_and_print(d, 1, big, &to_free))) {
		compare_in_pieces(d, 1, big, buf);
		app_free(to_free);
	}
}

void blk_crc(struct blk_disk *disks, UINTN count)
{
	for (UINTN i = 0; i < count; i++)
		crc_disk(&disks[i]);
}
