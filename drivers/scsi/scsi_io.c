/* EFI_SCSI_IO_PROTOCOL (UEFI 2.10, 15.4) of one SCSI device: its location and type, and its
 * commands sent through the channel's pass-thru. */
#include "scsi_bus.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

struct scsi_device *scsi_device_from_io(EFI_SCSI_IO_PROTOCOL *io)
{
	struct scsi_device *dev;

	if (!io)
		return NULL;
	dev = container_of(io, struct scsi_device, scsi_io);
	return dev->signature == SCSI_DEVICE_SIGNATURE ? dev : NULL;
}

static EFI_STATUS EFIAPI io_get_device_type(EFI_SCSI_IO_PROTOCOL *this, UINT8 *type)
{
	struct scsi_device *dev = scsi_device_from_io(this);

	if (!dev || !type)
		return EFI_INVALID_PARAMETER;
	*type = dev->type;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI io_get_device_location(EFI_SCSI_IO_PROTOCOL *this, UINT8 **target,
						UINT64 *lun)
{
	struct scsi_device *dev = scsi_device_from_io(this);

	if (!dev || !target || !*target || !lun)
		return EFI_INVALID_PARAMETER;
	mem_copy(*target, dev->target, TARGET_MAX_BYTES);
	*lun = dev->lun;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI io_reset_bus(EFI_SCSI_IO_PROTOCOL *this)
{
	struct scsi_device *dev = scsi_device_from_io(this);

	if (!dev)
		return EFI_INVALID_PARAMETER;
	return dev->pass_thru->ResetChannel(dev->pass_thru);
}

static EFI_STATUS EFIAPI io_reset_device(EFI_SCSI_IO_PROTOCOL *this)
{
	struct scsi_device *dev = scsi_device_from_io(this);

	if (!dev)
		return EFI_INVALID_PARAMETER;
	return dev->pass_thru->ResetTargetLun(dev->pass_thru, dev->target, dev->lun);
}

/* The packets of both protocols have one layout and one set of statuses, so the request
 * goes through as it is. It runs blocking; an event the caller gave is signalled when it
 * is done, so that a caller waiting on it is not left waiting. */
static EFI_STATUS EFIAPI io_execute(EFI_SCSI_IO_PROTOCOL *this,
				    EFI_SCSI_IO_SCSI_REQUEST_PACKET *packet, EFI_EVENT event)
{
	struct scsi_device *dev = scsi_device_from_io(this);
	EFI_STATUS status;

	if (!dev || !packet)
		return EFI_INVALID_PARAMETER;
	status =
	    dev->pass_thru->PassThru(dev->pass_thru, dev->target, dev->lun,
				     (EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *)packet, NULL);
	if (event && status != EFI_INVALID_PARAMETER)
		event_signal(event);
	return status;
}

void scsi_device_init(struct scsi_device *dev, EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pass_thru,
		      const UINT8 *target, UINT64 lun, UINT8 type)
{
	dev->signature = SCSI_DEVICE_SIGNATURE;
	dev->pass_thru = pass_thru;
	mem_copy(dev->target, target, TARGET_MAX_BYTES);
	dev->lun = lun;
	dev->type = type;
	dev->scsi_io = (EFI_SCSI_IO_PROTOCOL){
	    .GetDeviceType = io_get_device_type,
	    .GetDeviceLocation = io_get_device_location,
	    .ResetBus = io_reset_bus,
	    .ResetDevice = io_reset_device,
	    .ExecuteScsiCommand = io_execute,
	    .IoAlign = pass_thru->Mode ? pass_thru->Mode->IoAlign : 0,
	};
}

void *scsi_buffer_alloc(UINT32 align, UINTN size, void **raw)
{
	UINTN slack = align > 1 ? align - 1 : 0;

	*raw = pool_alloc(size + slack);
	if (!*raw)
		return NULL;
	return (void *)(((UINTN)*raw + slack) & ~slack);
}
