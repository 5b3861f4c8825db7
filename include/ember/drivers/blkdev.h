/* A block-device front end for disk drivers (virtio-blk, AHCI ...): one struct that carries
 * EFI_BLOCK_IO_PROTOCOL (revision 3) and EFI_BLOCK_IO2_PROTOCOL with their media, validates
 * every request as UEFI 2.10 sections 13.9 and 13.10 require, and hands only valid,
 * non-empty requests to the driver's operations. BlockIo2 requests complete before the call
 * returns; a token's event is then signalled. */
#ifndef EMBER_BLKDEV_H
#define EMBER_BLKDEV_H

#include <stdbool.h>
#include <efi/protocol/block_io2.h>
#include <efi/protocol/device_path.h>

#define BLKDEV_SIGNATURE 0x7665646b6c62ULL /* "blkdev" */

struct blkdev;

/* What a driver implements. Requests reach read/write already checked: the media is present
 * and current, size is a non-zero multiple of BlockSize, the range lies on the media and the
 * buffer honours IoAlign. */
struct blkdev_ops {
	EFI_STATUS (*read)(struct blkdev *dev, EFI_LBA lba, UINTN size, void *buffer);
	EFI_STATUS (*write)(struct blkdev *dev, EFI_LBA lba, UINTN size, const void *buffer);
	/* Optional (NULL: nothing to flush). */
	EFI_STATUS (*flush)(struct blkdev *dev);
	/* Optional (NULL: EFI_SUCCESS). */
	EFI_STATUS (*reset)(struct blkdev *dev, bool extended);
	/* Optional, for removable media: looks at the device before each request and updates
	 * dev->media (through blkdev_media_changed) when the medium came or went. */
	void (*check_media)(struct blkdev *dev);
};

struct blkdev {
	UINT64 signature;
	EFI_HANDLE handle; /* where the protocols are installed */
	EFI_BLOCK_IO_PROTOCOL block_io;
	EFI_BLOCK_IO2_PROTOCOL block_io2;
	EFI_BLOCK_IO_MEDIA media; /* the driver fills it before blkdev_install */
	const struct blkdev_ops *ops;
};

/* Sets up the protocol tables over ops; the media is zeroed (the caller fills it). */
void blkdev_init(struct blkdev *dev, const struct blkdev_ops *ops);

/* Installs BlockIo and BlockIo2 on *handle (a new handle when *handle is NULL), with the
 * device path when path is not NULL; records the handle in dev->handle. */
EFI_STATUS blkdev_install(struct blkdev *dev, EFI_HANDLE *handle, EFI_DEVICE_PATH_PROTOCOL *path);

/* Removes what blkdev_install installed (path: the same device path, or NULL). */
EFI_STATUS blkdev_uninstall(struct blkdev *dev, EFI_DEVICE_PATH_PROTOCOL *path);

/* After a removable medium came, went or was swapped (the driver has updated media): gives the
 * media a new MediaId and reinstalls both protocols so that drivers above rebind. */
void blkdev_media_changed(struct blkdev *dev);

/* The device behind a BlockIo that blkdev_init set up, or NULL for a foreign one. */
struct blkdev *blkdev_from_block_io(EFI_BLOCK_IO_PROTOCOL *block_io);

/* The checks of ReadBlocks/WriteBlocks (13.9) in the order the spec lists the statuses:
 * EFI_SUCCESS means "do the transfer"; size 0 is a valid request that transfers nothing. */
EFI_STATUS blkdev_check_request(const EFI_BLOCK_IO_MEDIA *media, UINT32 media_id, EFI_LBA lba,
				UINTN size, const void *buffer, bool write);

#endif
