/* The SCSI disk driver (UEFI driver model): binds to EFI_SCSI_IO_PROTOCOL devices of type
 * disk or CD/DVD, and installs BlockIo and BlockIo2 (the shared front end) and
 * EFI_DISK_INFO_PROTOCOL (SCSI interface: the INQUIRY data) on the device's handle.
 * A removable drive without a medium is installed too, and notices when one arrives. */
#define LOG_PREFIX "scsi-disk: "
#include "scsi_disk.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define INQUIRY_TIMEOUT 30000000ULL
/* Blocks per READ/WRITE (10) at most; the channel may lower it. */
#define MAX_BLOCKS 0xffff

static bool is_disk(void *interface)
{
	EFI_SCSI_IO_PROTOCOL *io = interface;
	UINT8 type = EFI_SCSI_IO_TYPE_UNKNOWN;

	if (EFI_ERROR(io->GetDeviceType(io, &type)))
		return false;
	return type == EFI_SCSI_IO_TYPE_DISK || type == EFI_SCSI_IO_TYPE_CDROM;
}

static EFI_STATUS EFIAPI disk_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_scsi_io_protocol_guid,
			       is_disk);
}

/* ---- EFI_DISK_INFO_PROTOCOL ---- */

static struct scsi_disk *from_info(EFI_DISK_INFO_PROTOCOL *this)
{
	struct scsi_disk *d = this ? container_of(this, struct scsi_disk, disk_info) : NULL;

	return d && d->blk.signature == BLKDEV_SIGNATURE ? d : NULL;
}

static EFI_STATUS EFIAPI info_inquiry(EFI_DISK_INFO_PROTOCOL *this, VOID *data, UINT32 *size)
{
	struct scsi_disk *d = from_info(this);

	if (!d || !size)
		return EFI_INVALID_PARAMETER;
	if (*size < d->inquiry_bytes) {
		*size = d->inquiry_bytes;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (!data)
		return EFI_INVALID_PARAMETER;
	mem_copy(data, d->inquiry, d->inquiry_bytes);
	*size = d->inquiry_bytes;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI info_identify(EFI_DISK_INFO_PROTOCOL *this, VOID *data, UINT32 *size)
{
	return EFI_NOT_FOUND; /* ATA's data: a SCSI device has none */
}

static EFI_STATUS EFIAPI info_sense_data(EFI_DISK_INFO_PROTOCOL *this, VOID *data, UINT32 *size,
					 UINT8 *number)
{
	return EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI info_which_ide(EFI_DISK_INFO_PROTOCOL *this, UINT32 *channel,
					UINT32 *device)
{
	return EFI_UNSUPPORTED; /* not an IDE device */
}

/* ---- Start and Stop ---- */

static EFI_STATUS inquiry(struct scsi_disk *d)
{
	struct scsi_disk_cmd c = {.cdb = {SCSI_OP_INQUIRY, 0, 0, 0, SCSI_INQUIRY_BYTES},
				  .cdb_len = 6,
				  .data = d->scratch,
				  .bytes = SCSI_INQUIRY_BYTES,
				  .timeout = INQUIRY_TIMEOUT};
	struct scsi_inquiry inq;
	EFI_STATUS status = scsi_disk_command(d, &c);

	if (EFI_ERROR(status))
		return status;
	d->inquiry_bytes = MIN(c.bytes, (UINT32)SCSI_INQUIRY_BYTES);
	mem_copy(d->inquiry, d->scratch, d->inquiry_bytes);
	if (!scsi_data_inquiry(d->inquiry, d->inquiry_bytes, &inq))
		return EFI_DEVICE_ERROR;
	d->removable = inq.removable || d->type == EFI_SCSI_IO_TYPE_CDROM;
	log_debug("\"%s %s %s\"%s\n", inq.vendor, inq.product, inq.revision,
		  d->removable ? ", removable" : "");
	return EFI_SUCCESS;
}

static void fill_media(struct scsi_disk *d)
{
	EFI_BLOCK_IO_MEDIA *m = &d->blk.media;

	m->RemovableMedia = d->removable;
	m->IoAlign = d->io->IoAlign;
	m->LogicalBlocksPerPhysicalBlock = 1;
	scsi_disk_refresh(d);
}

static EFI_STATUS start_disk(struct scsi_disk *d, EFI_HANDLE controller)
{
	EFI_STATUS status;

	d->scratch = scsi_buffer_alloc(d->io->IoAlign, SCSI_DISK_SCRATCH_BYTES, &d->scratch_raw);
	if (!d->scratch)
		return EFI_OUT_OF_RESOURCES;
	d->io->GetDeviceType(d->io, &d->type);
	status = inquiry(d);
	if (EFI_ERROR(status)) {
		log_debug("INQUIRY: %r\n", status);
		return status;
	}
	blkdev_init(&d->blk, &scsi_disk_ops);
	fill_media(d);
	if (!d->blk.media.MediaPresent && !d->removable) {
		log_debug("a fixed disk without a usable medium\n");
		return EFI_DEVICE_ERROR;
	}
	status = blkdev_install(&d->blk, &controller, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing BlockIo: %r\n", status);
		return status;
	}
	status = protocol_install(&controller, &efi_disk_info_protocol_guid, &d->disk_info);
	if (EFI_ERROR(status)) {
		log_debug("installing DiskInfo: %r\n", status);
		blkdev_uninstall(&d->blk, NULL);
	}
	return status;
}

static EFI_STATUS EFIAPI disk_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct scsi_disk *d = pool_alloc(sizeof(*d));
	EFI_STATUS status;

	if (!d)
		return EFI_OUT_OF_RESOURCES;
	d->driver = this->DriverBindingHandle;
	d->max_blocks = MAX_BLOCKS;
	d->disk_info = (EFI_DISK_INFO_PROTOCOL){EFI_DISK_INFO_SCSI_INTERFACE_GUID, info_inquiry,
						info_identify, info_sense_data, info_which_ide};
	status = protocol_open(controller, &efi_scsi_io_protocol_guid, (void **)&d->io, d->driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening ScsiIo: %r\n", status);
		goto err_free;
	}
	status = start_disk(d, controller);
	if (EFI_ERROR(status))
		goto err_close;
	return EFI_SUCCESS;

err_close:
	protocol_close(controller, &efi_scsi_io_protocol_guid, d->driver, controller);
err_free:
	d->blk.signature = 0;
	pool_free(d->scratch_raw);
	pool_free(d);
	return status;
}

/* The disk this driver made on controller, found through its BlockIo. */
static struct scsi_disk *disk_on(EFI_HANDLE driver, EFI_HANDLE controller)
{
	EFI_BLOCK_IO_PROTOCOL *bio;
	struct blkdev *blk;
	struct scsi_disk *d;

	if (EFI_ERROR(protocol_get(controller, &efi_block_io_protocol_guid, (void **)&bio)))
		return NULL;
	blk = blkdev_from_block_io(bio);
	if (!blk || blk->ops != &scsi_disk_ops)
		return NULL;
	d = container_of(blk, struct scsi_disk, blk);
	return d->driver == driver ? d : NULL;
}

static EFI_STATUS EFIAPI disk_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct scsi_disk *d = disk_on(this->DriverBindingHandle, controller);
	EFI_STATUS status;

	if (!d)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall(controller, &efi_disk_info_protocol_guid, &d->disk_info);
	if (EFI_ERROR(status))
		return status;
	status = blkdev_uninstall(&d->blk, NULL);
	if (EFI_ERROR(status)) {
		protocol_install(&controller, &efi_disk_info_protocol_guid, &d->disk_info);
		return status;
	}
	protocol_close(controller, &efi_scsi_io_protocol_guid, d->driver, controller);
	d->blk.signature = 0;
	pool_free(d->scratch_raw);
	pool_free(d);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL disk_binding;

static EFI_STATUS EFIAPI disk_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct scsi_disk *d = disk_on(disk_binding.DriverBindingHandle, controller);

	if (!d || child)
		return EFI_UNSUPPORTED;
	*name = d->type == EFI_SCSI_IO_TYPE_CDROM ? (CHAR16 *)u"SCSI CD/DVD Drive"
						  : (CHAR16 *)u"SCSI Disk";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL disk_binding = {
    .Supported = disk_supported,
    .Start = disk_start,
    .Stop = disk_stop,
    .Version = 0x10,
};

static const struct ember_driver disk_driver = {
    .name = u"SCSI Disk Driver",
    .binding = &disk_binding,
    .controller_name = disk_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, disk_driver);
