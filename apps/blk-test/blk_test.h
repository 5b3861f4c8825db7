/* blk-test: what an EFI program sees of the firmware's disk controllers, through BlockIo and
 * BlockIo2 only. The command line names the steps to run, in order:
 *   list      every whole-disk BlockIo (LogicalPartition FALSE), numbered, with its device
 *             path as text and its media, one "disk N: ..." line each
 *   crc       CRC-32s of block 0, the last block and up to 40 MiB from block 1 (read in one
 *             call, and again in 64 KiB pieces that must agree), for the caller to compare
 *             with the image file
 *   checks    the error statuses of 13.9/13.10 (MediaId, sizes, LBAs, alignment, write
 *             protection, no media) and a BlockIo2 read completed through a token's event
 *   write     on writable disks, 2 MiB (at most half the disk) from the first 1 MiB written
 *             with blk_test_pattern, flushed, read back and compared
 *   reconnect disconnects each disk's PCI controller (its BlockIo must go) and connects it
 *             again (it must come back at the same device path)
 *   media     waits for a key while the test swaps, ejects or inserts removable media, then
 *             reads each removable disk with its old MediaId (EFI_MEDIA_CHANGED or
 *             EFI_NO_MEDIA) and lists the disks again
 *   exit      ExitBootServices, then halt (the test inspects the devices from outside)
 *   shutdown  ResetSystem(EfiResetShutdown) at the end, so that QEMU exits
 * It ends with "blk-test: N passed, M failed". */
#ifndef BLK_TEST_H
#define BLK_TEST_H

#include "../lib/app.h"
#include "../lib/check.h"
#include <efi/protocol/block_io2.h>
#include <efi/protocol/device_path_to_text.h>

#define BLK_TEST_MAX_DISKS 32

struct blk_disk {
	UINTN number;
	EFI_HANDLE handle;
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_BLOCK_IO2_PROTOCOL *bio2; /* NULL when the handle has none */
};

/* The whole-disk BlockIo devices, in LocateHandleBuffer order; returns how many. */
UINTN blk_disks(struct blk_disk *disks, UINTN max);

/* The byte the write step puts at a byte offset of a disk (also computed by the tests). */
static inline UINT8 blk_test_pattern(UINT64 offset)
{
	return (UINT8)((offset >> 9) * 7 + offset * 13 + 0x5a);
}

/* A buffer aligned for the device's IoAlign (free with blk_free_aligned). */
void *blk_alloc_aligned(UINTN size, UINT32 io_align, void **to_free);

void blk_list(struct blk_disk *disks, UINTN count);
void blk_crc(struct blk_disk *disks, UINTN count);
void blk_checks(struct blk_disk *disks, UINTN count);
void blk_write(struct blk_disk *disks, UINTN count);
void blk_reconnect(struct blk_disk *disks, UINTN count);
void blk_media(struct blk_disk *disks, UINTN count);
void blk_exit(void);

#endif
