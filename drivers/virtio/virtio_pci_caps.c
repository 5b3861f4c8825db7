/* The modern virtio-pci interface's vendor capabilities (virtio 1.x, 4.1.4): where the
 * common, notification, ISR and device-specific register blocks live. */
#include "virtio_pci.h"

#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_CAP_PTR 0x34
#define PCI_BAR0 0x10
#define PCI_BAR_IO 0x1
#define MAX_CAPS 48 /* 192 bytes of capability space hold at most this many */

static UINT8 cfg8(EFI_PCI_IO_PROTOCOL *pci_io, UINT32 offset)
{
	UINT8 value = 0;

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, offset, 1, &value);
	return value;
}

static UINT32 cfg32(EFI_PCI_IO_PROTOCOL *pci_io, UINT32 offset)
{
	UINT32 value = 0;

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, offset, 1, &value);
	return value;
}

static bool bar_is_io(EFI_PCI_IO_PROTOCOL *pci_io, UINT8 bar)
{
	return (cfg32(pci_io, PCI_BAR0 + 4u * bar) & PCI_BAR_IO) != 0;
}

static struct virtio_pci_region *region_for(struct virtio_pci *vp, UINT8 cfg_type)
{
	switch (cfg_type) {
	case VIRTIO_PCI_CAP_COMMON_CFG:
		return &vp->common;
	case VIRTIO_PCI_CAP_NOTIFY_CFG:
		return &vp->notify;
	case VIRTIO_PCI_CAP_ISR_CFG:
		return &vp->isr;
	case VIRTIO_PCI_CAP_DEVICE_CFG:
		return &vp->device;
	default:
		return NULL;
	}
}

/* Records one virtio capability. The first of each type wins, as the spec asks drivers to
 * prefer earlier ones (4.1.4). A notification capability too short to hold its multiplier
 * is ignored rather than completed with the bytes that follow it. */
static void take_cap(struct virtio_pci *vp, UINT8 at)
{
	EFI_PCI_IO_PROTOCOL *pci_io = vp->pci_io;
	UINT8 type = cfg8(pci_io, at + 3), bar = cfg8(pci_io, at + 4);
	struct virtio_pci_region *r = region_for(vp, type);
	UINT8 min_len = type == VIRTIO_PCI_CAP_NOTIFY_CFG ? VIRTIO_PCI_NOTIFY_MULTIPLIER_AT + 4
							  : sizeof(struct virtio_pci_cap);

	if (!r || r->length || bar > 5 || cfg8(pci_io, at + 2) < min_len)
		return;
	r->bar = bar;
	r->io = bar_is_io(pci_io, bar);
	r->offset = cfg32(pci_io, at + 8);
	r->length = cfg32(pci_io, at + 12);
	if (type == VIRTIO_PCI_CAP_NOTIFY_CFG)
		vp->notify_multiplier = cfg32(pci_io, at + VIRTIO_PCI_NOTIFY_MULTIPLIER_AT);
}

bool virtio_pci_find_caps(struct virtio_pci *vp)
{
	EFI_PCI_IO_PROTOCOL *pci_io = vp->pci_io;
	UINT16 pci_status = 0;
	UINT8 at;

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint16, PCI_STATUS, 1, &pci_status);
	if (!(pci_status & PCI_STATUS_CAP_LIST))
		return false;
	at = cfg8(pci_io, PCI_CAP_PTR) & 0xfc;
	for (UINT32 n = 0; at >= 0x40 && n < MAX_CAPS; n++) {
		if (cfg8(pci_io, at) == PCI_CAP_ID_VNDR)
			take_cap(vp, at);
		at = cfg8(pci_io, at + 1) & 0xfc;
	}
	/* The common block must hold at least the registers up to queue_device. Device
	 * configuration is optional: only device types that have some must offer it
	 * (4.1.4.6), and virtio-rng has none. */
	return vp->common.length >= VIRTIO_COMMON_Q_USEDHI + 4 && vp->notify.length;
}
