/* A partition's EFI_BLOCK_IO_PROTOCOL and EFI_BLOCK_IO2_PROTOCOL (UEFI 2.10, sections 13.9
 * and 13.10): the parent's, limited to the partition's blocks and shifted by its start.
 * Partitions always use the parent's block size, so every request maps to one parent call. */
#include "partition.h"
#include <ember/core/core.h>
#include <ember/drivers/blkdev.h>

/* The checks of ReadBlocks/WriteBlocks (13.9, blkdev_check_request) against the partition's
 * own media, once the parent's medium is known to be the one the partition was found on. */
static EFI_STATUS check_request(struct part_child *c, UINT32 media_id, EFI_LBA lba, UINTN size,
				const void *buffer, bool write)
{
	const EFI_BLOCK_IO_MEDIA *parent = c->parent->Media;

	if (!parent->MediaPresent)
		return EFI_NO_MEDIA;
	/* Another medium: its blocks are not this partition's (the driver rebinds to it). */
	if (parent->MediaId != c->media.MediaId)
		return EFI_MEDIA_CHANGED;
	return blkdev_check_request(&c->media, media_id, lba, size, buffer, write);
}

static EFI_STATUS EFIAPI part_reset(EFI_BLOCK_IO_PROTOCOL *this, BOOLEAN extended)
{
	struct part_child *c = container_of(this, struct part_child, block_io);

	return c->parent->Reset(c->parent, extended);
}

static EFI_STATUS EFIAPI part_read(EFI_BLOCK_IO_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				   UINTN size, VOID *buffer)
{
	struct part_child *c = container_of(this, struct part_child, block_io);
	EFI_STATUS status = check_request(c, media_id, lba, size, buffer, false);

	if (EFI_ERROR(status) || !size)
		return status;
	return c->parent->ReadBlocks(c->parent, media_id, lba + c->start, size, buffer);
}

static EFI_STATUS EFIAPI part_write(EFI_BLOCK_IO_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				    UINTN size, VOID *buffer)
{
	struct part_child *c = container_of(this, struct part_child, block_io);
	EFI_STATUS status = check_request(c, media_id, lba, size, buffer, true);

	if (EFI_ERROR(status) || !size)
		return status;
	return c->parent->WriteBlocks(c->parent, media_id, lba + c->start, size, buffer);
}

static EFI_STATUS EFIAPI part_flush(EFI_BLOCK_IO_PROTOCOL *this)
{
	struct part_child *c = container_of(this, struct part_child, block_io);

	return c->parent->FlushBlocks(c->parent);
}

static EFI_STATUS EFIAPI part_reset_ex(EFI_BLOCK_IO2_PROTOCOL *this, BOOLEAN extended)
{
	struct part_child *c = container_of(this, struct part_child, block_io2);

	return c->parent2->Reset(c->parent2, extended);
}

/* A zero-length request completes at once; the token is still signalled. */
static EFI_STATUS complete_empty(EFI_BLOCK_IO2_TOKEN *token)
{
	if (token && token->Event) {
		if (!event_is_valid(token->Event))
			return EFI_INVALID_PARAMETER;
		token->TransactionStatus = EFI_SUCCESS;
		event_signal(token->Event);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI part_read_ex(EFI_BLOCK_IO2_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				      EFI_BLOCK_IO2_TOKEN *token, UINTN size, VOID *buffer)
{
	struct part_child *c = container_of(this, struct part_child, block_io2);
	EFI_STATUS status = check_request(c, media_id, lba, size, buffer, false);

	if (EFI_ERROR(status))
		return status;
	if (!size)
		return complete_empty(token);
	return c->parent2->ReadBlocksEx(c->parent2, media_id, lba + c->start, token, size, buffer);
}

static EFI_STATUS EFIAPI part_write_ex(EFI_BLOCK_IO2_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				       EFI_BLOCK_IO2_TOKEN *token, UINTN size, VOID *buffer)
{
	struct part_child *c = container_of(this, struct part_child, block_io2);
	EFI_STATUS status = check_request(c, media_id, lba, size, buffer, true);

	if (EFI_ERROR(status))
		return status;
	if (!size)
		return complete_empty(token);
	return c->parent2->WriteBlocksEx(c->parent2, media_id, lba + c->start, token, size, buffer);
}

static EFI_STATUS EFIAPI part_flush_ex(EFI_BLOCK_IO2_PROTOCOL *this, EFI_BLOCK_IO2_TOKEN *token)
{
	struct part_child *c = container_of(this, struct part_child, block_io2);

	return c->parent2->FlushBlocksEx(c->parent2, token);
}

void part_child_init_block_io(struct part_child *c)
{
	c->block_io = (EFI_BLOCK_IO_PROTOCOL){c->parent->Revision, &c->media,  part_reset,
					      part_read,	   part_write, part_flush};
	c->block_io2 = (EFI_BLOCK_IO2_PROTOCOL){&c->media, part_reset_ex, part_read_ex,
						part_write_ex, part_flush_ex};
}
