/* virtio-pci: identifying a virtio function and choosing its interface (virtio 1.x, 4.1.2). */
#include "virtio_pci.h"
#include <ember/lib/str.h>

#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_BAR0 0x10
#define PCI_BAR_IO 0x1

static UINT16 config_read16(EFI_PCI_IO_PROTOCOL *pci_io, UINT32 offset)
{
	UINT16 value = 0xffff;

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint16, offset, 1, &value);
	return value;
}

UINT16 virtio_pci_device_type(EFI_PCI_IO_PROTOCOL *pci_io)
{
	UINT16 device;

	if (config_read16(pci_io, PCI_VENDOR_ID) != VIRTIO_PCI_VENDOR)
		return 0;
	device = config_read16(pci_io, PCI_DEVICE_ID);
	/* Transitional devices (0x1000-0x103f) carry their type in the subsystem ID. */
	if (device >= 0x1000 && device < VIRTIO_PCI_MODERN_BASE)
		return config_read16(pci_io, PCI_SUBSYSTEM_ID);
	if (device >= VIRTIO_PCI_MODERN_BASE && device <= 0x107f)
		return (UINT16)(device - VIRTIO_PCI_MODERN_BASE);
	return 0;
}

bool virtio_pci_is(EFI_PCI_IO_PROTOCOL *pci_io, UINT16 type, UINT16 transitional_id)
{
	UINT16 device;

	if (config_read16(pci_io, PCI_VENDOR_ID) != VIRTIO_PCI_VENDOR)
		return false;
	device = config_read16(pci_io, PCI_DEVICE_ID);
	if (device != VIRTIO_PCI_MODERN_BASE + type &&
	    (!transitional_id || device != transitional_id))
		return false;
	return virtio_pci_device_type(pci_io) == type;
}

/* A legacy interface exists only on transitional devices, in an I/O BAR 0. */
static bool has_legacy_interface(struct virtio_pci *vp)
{
	UINT32 bar0 = 0;

	if (vp->device_id >= VIRTIO_PCI_MODERN_BASE)
		return false;
	vp->pci_io->Pci.Read(vp->pci_io, EfiPciIoWidthUint32, PCI_BAR0, 1, &bar0);
	return (bar0 & PCI_BAR_IO) != 0;
}

EFI_STATUS virtio_pci_init(struct virtio_pci *vp, EFI_PCI_IO_PROTOCOL *pci_io)
{
	mem_set(vp, 0, sizeof(*vp));
	vp->pci_io = pci_io;
	vp->device_id = config_read16(pci_io, PCI_DEVICE_ID);
	if (virtio_pci_find_caps(vp)) {
		vp->dev.ops = &virtio_pci_modern_ops;
		vp->dev.legacy = false;
		return EFI_SUCCESS;
	}
	if (has_legacy_interface(vp)) {
		vp->dev.ops = &virtio_pci_legacy_ops;
		vp->dev.legacy = true;
		return EFI_SUCCESS;
	}
	return EFI_UNSUPPORTED;
}
