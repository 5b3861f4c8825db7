/* EFI_BLOCK_IO_PROTOCOL and EFI_BLOCK_IO2_PROTOCOL entry points over a driver's blkdev_ops.
 * Requests run at TPL_CALLBACK so that a token's notification, or another request from an
 * event, cannot interleave with the device access. */
#include <ember/drivers/blkdev.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

/* *accepted tells whether the request passed the checks (and so was attempted). */
static EFI_STATUS transfer(struct blkdev *dev, UINT32 media_id, EFI_LBA lba, UINTN size,
			   void *buffer, bool write, bool *accepted)
{
	EFI_TPL old = tpl_raise(TPL_CALLBACK);
	EFI_STATUS status;

	if (dev->ops->check_media)
		dev->ops->check_media(dev);
	status = blkdev_check_request(&dev->media, media_id, lba, size, buffer, write);
	*accepted = !EFI_ERROR(status);
	if (*accepted && size)
		status = write ? dev->ops->write(dev, lba, size, buffer)
			       : dev->ops->read(dev, lba, size, buffer);
	tpl_restore(old);
	return status;
}

static EFI_STATUS flush(struct blkdev *dev)
{
	EFI_TPL old = tpl_raise(TPL_CALLBACK);
	EFI_STATUS status = EFI_SUCCESS;

	if (dev->ops->check_media)
		dev->ops->check_media(dev);
	if (!dev->media.MediaPresent)
		status = EFI_NO_MEDIA;
	else if (dev->ops->flush && !dev->media.ReadOnly)
		status = dev->ops->flush(dev);
	tpl_restore(old);
	return status;
}

static EFI_STATUS reset(struct blkdev *dev, BOOLEAN extended)
{
	EFI_TPL old = tpl_raise(TPL_CALLBACK);
	EFI_STATUS status = dev->ops->reset ? dev->ops->reset(dev, extended) : EFI_SUCCESS;

	tpl_restore(old);
	return status;
}

/* ---- EFI_BLOCK_IO_PROTOCOL ---- */

static EFI_STATUS EFIAPI block_reset(EFI_BLOCK_IO_PROTOCOL *this, BOOLEAN extended)
{
	return reset(container_of(this, struct blkdev, block_io), extended);
}

static EFI_STATUS EFIAPI block_read(EFI_BLOCK_IO_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				    UINTN size, VOID *buffer)
{
	bool accepted;

	return transfer(container_of(this, struct blkdev, block_io), media_id, lba, size, buffer,
			false, &accepted);
}

static EFI_STATUS EFIAPI block_write(EFI_BLOCK_IO_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				     UINTN size, VOID *buffer)
{
	bool accepted;

	return transfer(container_of(this, struct blkdev, block_io), media_id, lba, size, buffer,
			true, &accepted);
}

static EFI_STATUS EFIAPI block_flush(EFI_BLOCK_IO_PROTOCOL *this)
{
	return flush(container_of(this, struct blkdev, block_io));
}

/* ---- EFI_BLOCK_IO2_PROTOCOL: done at once, then the token's event is signalled ---- */

static bool token_is_async(EFI_BLOCK_IO2_TOKEN *token)
{
	return token && token->Event;
}

/* A request that was accepted reports its outcome through the token; a rejected one
 * (bad arguments, no media) returns its status and leaves the token alone. */
static EFI_STATUS complete(EFI_BLOCK_IO2_TOKEN *token, EFI_STATUS status, bool accepted)
{
	if (!token_is_async(token) || !accepted)
		return status;
	token->TransactionStatus = status;
	event_signal(token->Event);
	return EFI_SUCCESS;
}

static EFI_STATUS transfer_ex(EFI_BLOCK_IO2_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
			      EFI_BLOCK_IO2_TOKEN *token, UINTN size, void *buffer, bool write)
{
	struct blkdev *dev = container_of(this, struct blkdev, block_io2);
	bool accepted;
	EFI_STATUS status;

	if (token_is_async(token) && !event_is_valid(token->Event))
		return EFI_INVALID_PARAMETER;
	status = transfer(dev, media_id, lba, size, buffer, write, &accepted);
	return complete(token, status, accepted);
}

static EFI_STATUS EFIAPI block_reset_ex(EFI_BLOCK_IO2_PROTOCOL *this, BOOLEAN extended)
{
	return reset(container_of(this, struct blkdev, block_io2), extended);
}

static EFI_STATUS EFIAPI block_read_ex(EFI_BLOCK_IO2_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				       EFI_BLOCK_IO2_TOKEN *token, UINTN size, VOID *buffer)
{
	return transfer_ex(this, media_id, lba, token, size, buffer, false);
}

static EFI_STATUS EFIAPI block_write_ex(EFI_BLOCK_IO2_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
					EFI_BLOCK_IO2_TOKEN *token, UINTN size, VOID *buffer)
{
	return transfer_ex(this, media_id, lba, token, size, buffer, true);
}

static EFI_STATUS EFIAPI block_flush_ex(EFI_BLOCK_IO2_PROTOCOL *this, EFI_BLOCK_IO2_TOKEN *token)
{
	struct blkdev *dev = container_of(this, struct blkdev, block_io2);
	EFI_STATUS status;

	if (token_is_async(token) && !event_is_valid(token->Event))
		return EFI_INVALID_PARAMETER;
	status = flush(dev);
	return complete(token, status, status != EFI_NO_MEDIA);
}

/* ---- Set-up ---- */

void blkdev_init(struct blkdev *dev, const struct blkdev_ops *ops)
{
	mem_set(&dev->media, 0, sizeof(dev->media));
	dev->signature = BLKDEV_SIGNATURE;
	dev->ops = ops;
	dev->block_io = (EFI_BLOCK_IO_PROTOCOL){
	    .Revision = EFI_BLOCK_IO_PROTOCOL_REVISION3,
	    .Media = &dev->media,
	    .Reset = block_reset,
	    .ReadBlocks = block_read,
	    .WriteBlocks = block_write,
	    .FlushBlocks = block_flush,
	};
	dev->block_io2 = (EFI_BLOCK_IO2_PROTOCOL){
	    .Media = &dev->media,
	    .Reset = block_reset_ex,
	    .ReadBlocksEx = block_read_ex,
	    .WriteBlocksEx = block_write_ex,
	    .FlushBlocksEx = block_flush_ex,
	};
}

EFI_STATUS blkdev_install(struct blkdev *dev, EFI_HANDLE *handle, EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_STATUS status;

	if (path)
		status = protocol_install_multiple(
		    handle, &efi_device_path_protocol_guid, path, &efi_block_io_protocol_guid,
		    &dev->block_io, &efi_block_io2_protocol_guid, &dev->block_io2, NULL);
	else
		status =
		    protocol_install_multiple(handle, &efi_block_io_protocol_guid, &dev->block_io,
					      &efi_block_io2_protocol_guid, &dev->block_io2, NULL);
	if (!EFI_ERROR(status))
		dev->handle = *handle;
	return status;
}

EFI_STATUS blkdev_uninstall(struct blkdev *dev, EFI_DEVICE_PATH_PROTOCOL *path)
{
	if (path)
		return protocol_uninstall_multiple(
		    dev->handle, &efi_device_path_protocol_guid, path, &efi_block_io_protocol_guid,
		    &dev->block_io, &efi_block_io2_protocol_guid, &dev->block_io2, NULL);
	return protocol_uninstall_multiple(dev->handle, &efi_block_io_protocol_guid, &dev->block_io,
					   &efi_block_io2_protocol_guid, &dev->block_io2, NULL);
}

void blkdev_media_changed(struct blkdev *dev)
{
	dev->media.MediaId++;
	if (!dev->handle)
		return;
	protocol_reinstall(dev->handle, &efi_block_io_protocol_guid, &dev->block_io,
			   &dev->block_io);
	protocol_reinstall(dev->handle, &efi_block_io2_protocol_guid, &dev->block_io2,
			   &dev->block_io2);
}

struct blkdev *blkdev_from_block_io(EFI_BLOCK_IO_PROTOCOL *block_io)
{
	struct blkdev *dev = container_of(block_io, struct blkdev, block_io);

	return dev->signature == BLKDEV_SIGNATURE ? dev : NULL;
}
