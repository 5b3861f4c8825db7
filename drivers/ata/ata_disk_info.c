/* EFI_DISK_INFO_PROTOCOL for ATA and ATAPI devices (PI 1.8, volume 5): the IDENTIFY (PACKET)
 * DEVICE data the device gave when probed, where it sits (WhichIde); no INQUIRY or sense
 * data (EFI_NOT_FOUND, as the IDE and AHCI interfaces have none to give). Installed with
 * the device's BlockIo protocols. */
#define LOG_PREFIX "ata: "
#include <ember/drivers/ata.h>
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static struct ata_dev *from_disk_info(EFI_DISK_INFO_PROTOCOL *this)
{
	return container_of(this, struct ata_dev, disk_info);
}

static EFI_STATUS EFIAPI disk_info_inquiry(EFI_DISK_INFO_PROTOCOL *This, VOID *InquiryData,
					   UINT32 *InquiryDataSize)
{
	return EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI disk_info_identify(EFI_DISK_INFO_PROTOCOL *This, VOID *IdentifyData,
					    UINT32 *IdentifyDataSize)
{
	struct ata_dev *dev;

	if (!This || !IdentifyDataSize)
		return EFI_INVALID_PARAMETER;
	dev = from_disk_info(This);
	if (*IdentifyDataSize < ATA_IDENTIFY_BYTES) {
		*IdentifyDataSize = ATA_IDENTIFY_BYTES;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (!IdentifyData)
		return EFI_INVALID_PARAMETER;
	mem_copy(IdentifyData, dev->identify, ATA_IDENTIFY_BYTES);
	*IdentifyDataSize = ATA_IDENTIFY_BYTES;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI disk_info_sense_data(EFI_DISK_INFO_PROTOCOL *This, VOID *SenseData,
					      UINT32 *SenseDataSize, UINT8 *SenseDataNumber)
{
	return EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI disk_info_which_ide(EFI_DISK_INFO_PROTOCOL *This, UINT32 *IdeChannel,
					     UINT32 *IdeDevice)
{
	struct ata_dev *dev;

	if (!This || !IdeChannel || !IdeDevice)
		return EFI_INVALID_PARAMETER;
	dev = from_disk_info(This);
	*IdeChannel = dev->channel;
	*IdeDevice = dev->device;
	return EFI_SUCCESS;
}

EFI_STATUS ata_dev_install(struct ata_dev *dev, const EFI_GUID *interface,
			   EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;

	dev->disk_info = (EFI_DISK_INFO_PROTOCOL){
	    .Interface = *interface,
	    .Inquiry = disk_info_inquiry,
	    .Identify = disk_info_identify,
	    .SenseData = disk_info_sense_data,
	    .WhichIde = disk_info_which_ide,
	};
	status = blkdev_install(&dev->blk, &handle, path);
	if (EFI_ERROR(status)) {
		log_debug("%s: BlockIo: %r\n", dev->name, status);
		return status;
	}
	status = protocol_install(&handle, &efi_disk_info_protocol_guid, &dev->disk_info);
	if (EFI_ERROR(status)) {
		log_debug("%s: DiskInfo: %r\n", dev->name, status);
		blkdev_uninstall(&dev->blk, path);
	}
	return status;
}

EFI_STATUS ata_dev_uninstall(struct ata_dev *dev, EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_HANDLE handle = dev->blk.handle;
	EFI_STATUS status =
	    protocol_uninstall(handle, &efi_disk_info_protocol_guid, &dev->disk_info);

	if (EFI_ERROR(status))
		return status;
	status = blkdev_uninstall(&dev->blk, path);
	if (EFI_ERROR(status))
		protocol_install(&handle, &efi_disk_info_protocol_guid, &dev->disk_info);
	return status;
}
