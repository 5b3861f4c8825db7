/* The argument checks every BlockIo read and write goes through (UEFI 2.10, 13.9). */
#include <ember/drivers/blkdev.h>
#include <ember/lib/util.h>

EFI_STATUS blkdev_check_request(const EFI_BLOCK_IO_MEDIA *media, UINT32 media_id, EFI_LBA lba,
				UINTN size, const void *buffer, bool write)
{
	UINT64 blocks;

	if (!media->MediaPresent)
		return EFI_NO_MEDIA;
	if (media_id != media->MediaId)
		return EFI_MEDIA_CHANGED;
	if (write && media->ReadOnly)
		return EFI_WRITE_PROTECTED;
	if (!media->BlockSize || size % media->BlockSize)
		return EFI_BAD_BUFFER_SIZE;
	if (!buffer)
		return EFI_INVALID_PARAMETER;
	if (media->IoAlign > 1 && !IS_ALIGNED((uintptr_t)buffer, (uintptr_t)media->IoAlign))
		return EFI_INVALID_PARAMETER;
	if (lba > media->LastBlock)
		return EFI_INVALID_PARAMETER;
	blocks = size / media->BlockSize;
	if (blocks > media->LastBlock - lba + 1)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}
