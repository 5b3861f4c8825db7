/* The PCI half of a driver for PCI functions (UEFI driver model, 11.1; PciIo, 14.4), shared
 * by every such driver: Start opens EFI_PCI_IO_PROTOCOL BY_DRIVER, saves the function's
 * attributes, enables what the device needs and attaches the driver's private structure to
 * the controller handle under a protocol GUID of Ember's; Stop and GetControllerName find
 * that structure again with OpenProtocol (no driver keeps a list of its devices); Stop puts
 * the attributes back and closes PciIo.
 *
 * A driver embeds struct pci_driver_dev in its private structure:
 *     status = pci_driver_start(&dev->pci, this->DriverBindingHandle, controller, required,
 *                               optional);
 *     ...
 *     pci = pci_driver_find(this->DriverBindingHandle, controller);
 *     dev = pci ? container_of(pci, struct my_dev, pci) : NULL; */
#ifndef EMBER_PCI_DRIVER_H
#define EMBER_PCI_DRIVER_H

#include <efi/protocol/pci_io.h>

/* The protocol that carries a started device's struct pci_driver_dev on its controller
 * handle. Private to Ember: nothing outside it may use the interface. */
#define EMBER_PCI_DRIVER_DATA_GUID                                                                 \
	EFI_GUID_INIT(0x16f37ff2, 0x7581, 0x4451, 0x99, 0x6c, 0x77, 0xec, 0xb8, 0x90, 0xab, 0xe7)

#define PCI_DRIVER_SIGNATURE 0x7665647269646370ULL /* "pcidrdev" */

struct pci_driver_dev {
	UINT64 signature;
	EFI_HANDLE driver;	     /* the driver binding handle that started the device */
	EFI_HANDLE controller;	     /* the PCI function's handle */
	EFI_PCI_IO_PROTOCOL *pci_io; /* opened BY_DRIVER */
	UINT64 saved_attributes;     /* what pci_driver_stop puts back */
	UINT64 supported_attributes; /* what the function and its bridges can enable */
};

/* Start's PCI steps for driver on controller: opens PciIo BY_DRIVER, saves the attributes,
 * enables required plus those of optional the function supports, and attaches dev. Each
 * failing step is logged (debug) and undone; the status is the failing step's
 * (EFI_ALREADY_STARTED, EFI_ACCESS_DENIED, EFI_UNSUPPORTED for a required attribute ...). */
EFI_STATUS pci_driver_start(struct pci_driver_dev *dev, EFI_HANDLE driver, EFI_HANDLE controller,
			    UINT64 required, UINT64 optional);

/* Enables more attributes once the device is open (bus mastering after reading the device's
 * capabilities, say): required plus the supported ones of optional. */
EFI_STATUS pci_driver_enable(struct pci_driver_dev *dev, UINT64 required, UINT64 optional);

/* Undoes pci_driver_start: detaches dev, puts the saved attributes back, closes PciIo. */
void pci_driver_stop(struct pci_driver_dev *dev);

/* The device driver attached to controller, or NULL when driver does not manage it. */
struct pci_driver_dev *pci_driver_find(EFI_HANDLE driver, EFI_HANDLE controller);

#endif
