/* Drives on IDE channels as child handles: BlockIo, BlockIo2 and DiskInfo (the shared ATA layer
 * over the PIO transport) with the device path <controller>/Ata(Primary|Secondary,Master|Slave,0)
 * and the controller's PciIo opened BY_CHILD_CONTROLLER. */
#define LOG_PREFIX "ide: "
#include "ide.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/guids.h>

static EFI_DEVICE_PATH_PROTOCOL *ata_path(EFI_DEVICE_PATH_PROTOCOL *parent, UINT8 channel,
					  UINT8 drive)
{
	ATAPI_DEVICE_PATH node = {
	    .Header = {MESSAGING_DEVICE_PATH, MSG_ATAPI_DP, {sizeof(ATAPI_DEVICE_PATH), 0}},
	    .PrimarySecondary = channel,
	    .SlaveMaster = drive,
	    .Lun = 0,
	};

	return dp_append_node(parent, &node.Header);
}

static EFI_STATUS probe(struct ide_device *dev, bool atapi)
{
	dev->ata.ops = dev->channel->dma ? &ide_dma_transport : &ide_transport;
	dev->ata.dma = dev->channel->dma;
	dev->ata.name = dev->name;
	return atapi ? ata_atapi_probe(&dev->ata) : ata_disk_probe(&dev->ata);
}

static EFI_STATUS install(struct ide_device *dev, EFI_HANDLE controller, EFI_HANDLE driver)
{
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status;

	dev->ata.channel = dev->channel->index;
	dev->ata.device = dev->drive;
	status = ata_dev_install(&dev->ata, &efi_disk_info_ide_interface_guid, dev->path);
	if (EFI_ERROR(status))
		return status;
	status = protocol_open(controller, &efi_pci_io_protocol_guid, (void **)&pci_io, driver,
			       dev->ata.blk.handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("%s: PciIo by child: %r\n", dev->name, status);
		ata_dev_uninstall(&dev->ata, dev->path);
	}
	return status;
}

EFI_STATUS ide_device_create(struct ide_channel *ch, UINT8 drive, bool atapi, EFI_HANDLE controller,
			     EFI_HANDLE driver, EFI_DEVICE_PATH_PROTOCOL *parent)
{
	struct ide_device *dev = pool_alloc(sizeof(*dev));
	EFI_STATUS status;

	if (!dev)
		return EFI_OUT_OF_RESOURCES;
	dev->channel = ch;
	dev->drive = drive;
	format_sn(dev->name, sizeof(dev->name), "ide%u.%u", ch->index, drive);
	status = probe(dev, atapi);
	if (EFI_ERROR(status))
		goto err_free;
	dev->path = ata_path(parent, ch->index, drive);
	if (!dev->path) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	status = install(dev, controller, driver);
	if (EFI_ERROR(status))
		goto err_path;
	ch->devices[drive] = dev;
	return EFI_SUCCESS;

err_path:
	pool_free(dev->path);
err_free:
	pool_free(dev);
	return status;
}

EFI_STATUS ide_device_destroy(struct ide_device *dev, EFI_HANDLE controller, EFI_HANDLE driver)
{
	EFI_HANDLE handle = dev->ata.blk.handle;
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status;

	protocol_close(controller, &efi_pci_io_protocol_guid, driver, handle);
	status = ata_dev_uninstall(&dev->ata, dev->path);
	if (EFI_ERROR(status)) {
		/* Still in use: the child stays, and so does its claim on the controller. */
		protocol_open(controller, &efi_pci_io_protocol_guid, (void **)&pci_io, driver,
			      handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	dev->channel->devices[dev->drive] = NULL;
	dev->channel->probed[dev->drive] = false;
	dev->ata.blk.signature = 0;
	pool_free(dev->path);
	pool_free(dev);
	return EFI_SUCCESS;
}
