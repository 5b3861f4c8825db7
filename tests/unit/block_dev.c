/* A block device in memory for the storage driver tests (see block_dev.h). */
#include <stdlib.h>
#include <string.h>

#include "block_dev.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/init.h>
#include <ember/lib/util.h>

#define TEST_BLOCK_DEV_GUID                                                                        \
	EFI_GUID_INIT(0x5e5e1d0e, 0x7a57, 0x4b10, 0x8c, 0x1a, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55)

static EFI_STATUS check(struct test_block_dev *d, UINT32 media_id, EFI_LBA lba, UINTN size,
			const void *buffer)
{
	if (!d->media.MediaPresent)
		return EFI_NO_MEDIA;
	if (media_id != d->media.MediaId)
		return EFI_MEDIA_CHANGED;
	if (size % d->media.BlockSize)
		return EFI_BAD_BUFFER_SIZE;
	if (!buffer || (d->media.IoAlign > 1 && (uintptr_t)buffer % d->media.IoAlign))
		return EFI_INVALID_PARAMETER;
	if (lba > d->media.LastBlock || size / d->media.BlockSize > d->media.LastBlock - lba + 1)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI dev_reset(EFI_BLOCK_IO_PROTOCOL *this, BOOLEAN extended)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI dev_read(EFI_BLOCK_IO_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				  UINTN size, VOID *buffer)
{
	struct test_block_dev *d = container_of(this, struct test_block_dev, block_io);
	EFI_STATUS status = check(d, media_id, lba, size, buffer);

	if (EFI_ERROR(status))
		return status;
	d->reads++;
	memcpy(buffer, d->data + lba * d->media.BlockSize, size);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI dev_write(EFI_BLOCK_IO_PROTOCOL *this, UINT32 media_id, EFI_LBA lba,
				   UINTN size, VOID *buffer)
{
	struct test_block_dev *d = container_of(this, struct test_block_dev, block_io);
	EFI_STATUS status = check(d, media_id, lba, size, buffer);

	if (!EFI_ERROR(status) && d->media.ReadOnly)
		status = EFI_WRITE_PROTECTED;
	if (EFI_ERROR(status))
		return status;
	d->writes++;
	memcpy(d->data + lba * d->media.BlockSize, buffer, size);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI dev_flush(EFI_BLOCK_IO_PROTOCOL *this)
{
	container_of(this, struct test_block_dev, block_io)->flushes++;
	return EFI_SUCCESS;
}

struct test_block_dev *test_block_dev_create(UINT8 *data, UINT64 size, UINT32 block_size,
					     UINT32 io_align)
{
	static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	static const EFI_GUID vendor = TEST_BLOCK_DEV_GUID;
	static UINT32 index;
	struct test_block_dev *d = calloc(1, sizeof(*d));

	d->data = data;
	d->media = (EFI_BLOCK_IO_MEDIA){.MediaId = 7,
					.MediaPresent = TRUE,
					.BlockSize = block_size,
					.IoAlign = io_align,
					.LastBlock = size / block_size - 1,
					.LogicalBlocksPerPhysicalBlock = 1};
	d->block_io = (EFI_BLOCK_IO_PROTOCOL){
	    EFI_BLOCK_IO_PROTOCOL_REVISION3, &d->media, dev_reset, dev_read, dev_write, dev_flush};
	d->path.vendor.Header = (EFI_DEVICE_PATH_PROTOCOL){
	    HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(d->path.vendor) + 4, 0}};
	d->path.vendor.Guid = vendor;
	d->path.index = index++;
	d->path.end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	if (EFI_ERROR(protocol_install_multiple(&d->handle, &dp_guid, &d->path, &bio_guid,
						&d->block_io, NULL))) {
		free(d);
		return NULL;
	}
	return d;
}

void test_block_dev_destroy(struct test_block_dev *d)
{
	static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

	if (!d)
		return;
	driver_disconnect(d->handle, NULL, NULL);
	protocol_uninstall_multiple(d->handle, &dp_guid, &d->path, &bio_guid, &d->block_io, NULL);
	free(d);
}

void test_install_builtin_drivers(void)
{
	static bool installed;

	if (!installed) {
		init_run_all(); /* the protocols drivers look up, such as Unicode collation */
		driver_install_builtin();
	}
	installed = true;
}
