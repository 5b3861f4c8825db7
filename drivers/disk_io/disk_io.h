/* The Disk I/O driver's private state: one per BlockIo controller it manages. */
#ifndef DRIVERS_DISK_IO_H
#define DRIVERS_DISK_IO_H

#include <efi/protocol/block_io.h>
#include <efi/protocol/disk_io.h>
#include <efi/protocol/disk_io2.h>
#include <ember/lib/util.h>

#define DISK_IO_SIGNATURE SIGNATURE_32('d', 'k', 'i', 'o')

struct disk_io {
	UINT32 signature;
	EFI_DISK_IO_PROTOCOL disk_io;
	EFI_DISK_IO2_PROTOCOL disk_io2;
	EFI_BLOCK_IO_PROTOCOL *block_io; /* opened BY_DRIVER on the controller */
};

/* Fills the protocol tables of a new instance over block_io. */
void disk_io_init(struct disk_io *d, EFI_BLOCK_IO_PROTOCOL *block_io);

/* Reads (write false) or writes size bytes at a byte offset of the medium, splitting the
 * request into a partial first block, one BlockIo call for the whole blocks between, and
 * a partial last block (read-modify-write when writing). */
EFI_STATUS disk_io_transfer(struct disk_io *d, UINT32 media_id, UINT64 offset, UINTN size,
			    void *buffer, bool write);

#endif
