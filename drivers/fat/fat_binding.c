/* The FAT driver (UEFI driver model): binds to a handle with EFI_DISK_IO_PROTOCOL and
 * EFI_BLOCK_IO_PROTOCOL that holds a FAT12/16/32 file system and installs
 * EFI_SIMPLE_FILE_SYSTEM_PROTOCOL on it. Case-insensitive names go through the
 * EFI_UNICODE_COLLATION_PROTOCOL2 Ember publishes. */
#define LOG_PREFIX "fat: "
#include "fat_efi.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/disk_io.h>
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

/* A DiskIo device as the engine's disk. */
struct fat_device {
	struct fat_disk disk;
	EFI_DISK_IO_PROTOCOL *disk_io;
	EFI_BLOCK_IO_PROTOCOL *block_io;
	UINT32 media_id;
	struct fat_sfs *sfs;
};

static struct fat_device *device_of(struct fat_disk *disk)
{
	return container_of(disk, struct fat_device, disk);
}

static EFI_STATUS device_read(struct fat_disk *disk, UINT64 offset, UINTN size, void *buffer)
{
	struct fat_device *d = device_of(disk);

	return d->disk_io->ReadDisk(d->disk_io, d->media_id, offset, size, buffer);
}

static EFI_STATUS device_write(struct fat_disk *disk, UINT64 offset, UINTN size, const void *buffer)
{
	struct fat_device *d = device_of(disk);

	return d->disk_io->WriteDisk(d->disk_io, d->media_id, offset, size, (VOID *)buffer);
}

static EFI_STATUS device_flush(struct fat_disk *disk)
{
	struct fat_device *d = device_of(disk);

	return d->block_io->FlushBlocks(d->block_io);
}

/* Takes the medium's identity, size and write protection from BlockIo. */
static void take_media(struct fat_device *d)
{
	EFI_BLOCK_IO_MEDIA *m = d->block_io->Media;

	d->media_id = m->MediaId;
	d->disk.size = m->MediaPresent ? (m->LastBlock + 1) * m->BlockSize : 0;
	d->disk.read_only = m->ReadOnly;
}

static EFI_STATUS device_check(struct fat_disk *disk)
{
	struct fat_device *d = device_of(disk);
	EFI_BLOCK_IO_MEDIA *m = d->block_io->Media;

	if (!m->MediaPresent)
		return EFI_NO_MEDIA;
	if (m->MediaId == d->media_id)
		return EFI_SUCCESS;
	take_media(d);
	return EFI_MEDIA_CHANGED;
}

/* Published at INIT_EARLY, before any driver is installed (core/init.h). */
static EFI_UNICODE_COLLATION_PROTOCOL *collation(void)
{
	void *uc;

	if (EFI_ERROR(protocol_locate(&efi_unicode_collation_protocol2_guid, &uc)))
		return NULL;
	return uc;
}

static EFI_STATUS EFIAPI fat_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	void *interface;

	if (EFI_ERROR(protocol_get(controller, &efi_block_io_protocol_guid, &interface)))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller, &efi_disk_io_protocol_guid,
			       NULL);
}

static EFI_STATUS EFIAPI fat_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	struct fat_device *d = pool_alloc(sizeof(*d));
	EFI_UNICODE_COLLATION_PROTOCOL *collation_protocol;
	EFI_STATUS status;

	if (!d) {
		log_debug("start: no memory\n");
		return EFI_OUT_OF_RESOURCES;
	}
	status = protocol_open(controller, &efi_disk_io_protocol_guid, (void **)&d->disk_io, driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("start: DiskIo: %r\n", status);
		goto err_free;
	}
	status = protocol_open(controller, &efi_block_io_protocol_guid, (void **)&d->block_io,
			       driver, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status)) {
		log_debug("start: BlockIo: %r\n", status);
		goto err_close;
	}
	d->disk = (struct fat_disk){device_read, device_write, device_flush, device_check};
	take_media(d);
	collation_protocol = collation();
	if (!collation_protocol) {
		log_warn("no Unicode collation protocol\n");
		status = EFI_NOT_READY;
		goto err_close;
	}
	status =
	    d->disk.size ? fat_sfs_create(&d->disk, collation_protocol, &d->sfs) : EFI_NO_MEDIA;
	if (EFI_ERROR(status)) {
		log_debug("start: mount: %r\n", status);
		goto err_close;
	}
	status = protocol_install(&controller, &efi_simple_file_system_protocol_guid, &d->sfs->sfs);
	if (EFI_ERROR(status)) {
		log_debug("start: installing SimpleFileSystem: %r\n", status);
		goto err_destroy;
	}
	return EFI_SUCCESS;

err_destroy:
	fat_sfs_destroy(d->sfs);
err_close:
	protocol_close(controller, &efi_disk_io_protocol_guid, driver, controller);
err_free:
	pool_free(d);
	if (status == EFI_VOLUME_CORRUPTED)
		log_info("a damaged FAT boot sector: not mounted\n");
	return status == EFI_VOLUME_CORRUPTED ? EFI_UNSUPPORTED : status;
}

static EFI_STATUS EFIAPI fat_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  UINTN child_count, EFI_HANDLE *children)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *protocol;
	struct fat_sfs *sfs;
	struct fat_device *d;
	EFI_STATUS status =
	    protocol_open(controller, &efi_simple_file_system_protocol_guid, (void **)&protocol,
			  this->DriverBindingHandle, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);

	if (EFI_ERROR(status))
		return EFI_UNSUPPORTED;
	sfs = container_of(protocol, struct fat_sfs, sfs);
	d = device_of(sfs->disk);
	status = protocol_uninstall(controller, &efi_simple_file_system_protocol_guid, protocol);
	if (EFI_ERROR(status))
		return status;
	fat_sfs_destroy(sfs);
	protocol_close(controller, &efi_disk_io_protocol_guid, this->DriverBindingHandle,
		       controller);
	pool_free(d);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL fat_binding = {
    .Supported = fat_supported,
    .Start = fat_start,
    .Stop = fat_stop,
    /* Below the partition driver, which takes a partitioned disk first. */
    .Version = 0x10,
};

static const struct ember_driver fat_driver = {
    .name = u"FAT File System Driver",
    .binding = &fat_binding,
};
EMBER_DRIVER(INIT_NORMAL, fat_driver);
