/* The Disk I/O driver (UEFI driver model): binds to every handle with a BlockIo and installs
 * EFI_DISK_IO_PROTOCOL and EFI_DISK_IO2_PROTOCOL beside it. */
#define LOG_PREFIX "disk-io: "
#include "disk_io.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

static EFI_STATUS EFIAPI disk_io_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_block_io_protocol_guid,
			       NULL);
}

static EFI_STATUS EFIAPI disk_io_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct disk_io *d = pool_alloc(sizeof(*d));
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_STATUS status;

	if (!d) {
		log_debug("no memory for the device\n");
		return EFI_OUT_OF_RESOURCES;
	}
	status = protocol_open(controller, &efi_block_io_protocol_guid, (void **)&bio,
			       this->DriverBindingHandle, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening BlockIo: %r\n", status);
		goto err_free;
	}
	disk_io_init(d, bio);
	status = protocol_install_multiple(&controller, &efi_disk_io_protocol_guid, &d->disk_io,
					   &efi_disk_io2_protocol_guid, &d->disk_io2, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing DiskIo and DiskIo2: %r\n", status);
		goto err_close;
	}
	return EFI_SUCCESS;

err_close:
	protocol_close(controller, &efi_block_io_protocol_guid, this->DriverBindingHandle,
		       controller);
err_free:
	pool_free(d);
	return status;
}

static EFI_STATUS EFIAPI disk_io_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      UINTN child_count, EFI_HANDLE *children)
{
	EFI_DISK_IO_PROTOCOL *dio;
	struct disk_io *d;
	EFI_STATUS status =
	    protocol_open(controller, &efi_disk_io_protocol_guid, (void **)&dio,
			  this->DriverBindingHandle, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);

	if (EFI_ERROR(status))
		return EFI_UNSUPPORTED;
	d = container_of(dio, struct disk_io, disk_io);
	if (d->signature != DISK_IO_SIGNATURE)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall_multiple(controller, &efi_disk_io_protocol_guid, &d->disk_io,
					     &efi_disk_io2_protocol_guid, &d->disk_io2, NULL);
	if (EFI_ERROR(status))
		return status;
	protocol_close(controller, &efi_block_io_protocol_guid, this->DriverBindingHandle,
		       controller);
	d->signature = 0;
	pool_free(d);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL disk_io_binding = {
    .Supported = disk_io_supported,
    .Start = disk_io_start,
    .Stop = disk_io_stop,
    .Version = 0x10,
};

static const struct ember_driver disk_io_driver = {
    .name = u"Disk I/O Driver",
    .binding = &disk_io_binding,
};
EMBER_DRIVER(INIT_NORMAL, disk_io_driver);
