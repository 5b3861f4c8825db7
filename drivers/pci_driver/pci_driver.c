/* The PCI steps of Start and Stop shared by the drivers of PCI functions (see
 * include/ember/drivers/pci_driver.h). */
#define LOG_PREFIX "pci-driver: "
#include <ember/drivers/pci_driver.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

static EFI_STATUS attributes(struct pci_driver_dev *dev, EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op,
			     UINT64 value, UINT64 *result)
{
	return dev->pci_io->Attributes(dev->pci_io, op, value, result);
}

EFI_STATUS pci_driver_enable(struct pci_driver_dev *dev, UINT64 required, UINT64 optional)
{
	UINT64 wanted = required | (optional & dev->supported_attributes);
	EFI_STATUS status = attributes(dev, EfiPciIoAttributeOperationEnable, wanted, NULL);

	if (EFI_ERROR(status))
		log_debug("enabling attributes %#llx: %r\n", (unsigned long long)wanted, status);
	return status;
}

/* Saves the attributes and learns what can be enabled. */
static EFI_STATUS save_attributes(struct pci_driver_dev *dev)
{
	EFI_STATUS status;

	status = attributes(dev, EfiPciIoAttributeOperationGet, 0, &dev->saved_attributes);
	if (EFI_ERROR(status)) {
		log_debug("reading the attributes: %r\n", status);
		return status;
	}
	status =
	    attributes(dev, EfiPciIoAttributeOperationSupported, 0, &dev->supported_attributes);
	if (EFI_ERROR(status))
		log_debug("reading the supported attributes: %r\n", status);
	return status;
}

EFI_STATUS pci_driver_start(struct pci_driver_dev *dev, EFI_HANDLE driver, EFI_HANDLE controller,
			    UINT64 required, UINT64 optional)
{
	EFI_STATUS status;

	dev->signature = 0;
	dev->driver = driver;
	dev->controller = controller;
	status = protocol_open(controller, &efi_pci_io_protocol_guid, (void **)&dev->pci_io, driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening PciIo: %r\n", status);
		return status;
	}
	status = save_attributes(dev);
	if (EFI_ERROR(status))
		goto err_close;
	status = pci_driver_enable(dev, required, optional);
	if (EFI_ERROR(status))
		goto err_restore;
	dev->signature = PCI_DRIVER_SIGNATURE;
	status = protocol_install(&controller, &ember_pci_driver_data_guid, dev);
	if (EFI_ERROR(status)) {
		log_debug("attaching the driver's data: %r\n", status);
		goto err_restore;
	}
	return EFI_SUCCESS;

err_restore:
	dev->signature = 0;
	attributes(dev, EfiPciIoAttributeOperationSet, dev->saved_attributes, NULL);
err_close:
	protocol_close(controller, &efi_pci_io_protocol_guid, driver, controller);
	return status;
}

void pci_driver_stop(struct pci_driver_dev *dev)
{
	protocol_uninstall(dev->controller, &ember_pci_driver_data_guid, dev);
	attributes(dev, EfiPciIoAttributeOperationSet, dev->saved_attributes, NULL);
	protocol_close(dev->controller, &efi_pci_io_protocol_guid, dev->driver, dev->controller);
	dev->signature = 0;
}

struct pci_driver_dev *pci_driver_find(EFI_HANDLE driver, EFI_HANDLE controller)
{
	struct pci_driver_dev *dev;

	if (EFI_ERROR(protocol_get(controller, &ember_pci_driver_data_guid, (void **)&dev)))
		return NULL;
	if (dev->signature != PCI_DRIVER_SIGNATURE || dev->driver != driver ||
	    dev->controller != controller)
		return NULL;
	return dev;
}
