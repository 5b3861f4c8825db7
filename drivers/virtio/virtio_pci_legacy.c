/* The legacy virtio-pci interface (virtio 1.x, 4.1.4.8): registers in BAR 0's I/O space,
 * 32 feature bits, queues of a size the device fixes, located by page frame number. */
#include "virtio_pci.h"
#include <ember/lib/util.h>

#define LEGACY_BAR 0

static struct virtio_pci *to_vp(struct virtio_dev *dev)
{
	return container_of(dev, struct virtio_pci, dev);
}

static UINT32 io_read(struct virtio_dev *dev, UINT32 offset, EFI_PCI_IO_PROTOCOL_WIDTH width)
{
	EFI_PCI_IO_PROTOCOL *pci_io = to_vp(dev)->pci_io;
	UINT32 value = 0;

	pci_io->Io.Read(pci_io, width, LEGACY_BAR, offset, 1, &value);
	return value;
}

static void io_write(struct virtio_dev *dev, UINT32 offset, EFI_PCI_IO_PROTOCOL_WIDTH width,
		     UINT32 value)
{
	EFI_PCI_IO_PROTOCOL *pci_io = to_vp(dev)->pci_io;

	pci_io->Io.Write(pci_io, width, LEGACY_BAR, offset, 1, &value);
}

static UINT8 get_status(struct virtio_dev *dev)
{
	return (UINT8)io_read(dev, VIRTIO_LEGACY_STATUS, EfiPciIoWidthUint8);
}

static void set_status(struct virtio_dev *dev, UINT8 status)
{
	io_write(dev, VIRTIO_LEGACY_STATUS, EfiPciIoWidthUint8, status);
}

static UINT64 get_features(struct virtio_dev *dev)
{
	return io_read(dev, VIRTIO_LEGACY_HOST_FEATURES, EfiPciIoWidthUint32);
}

static void set_features(struct virtio_dev *dev, UINT64 features)
{
	io_write(dev, VIRTIO_LEGACY_GUEST_FEATURES, EfiPciIoWidthUint32, (UINT32)features);
}

/* Byte by byte: the legacy interface has no generation counter, and single-byte reads
 * work for every field. */
static UINT64 read_config(struct virtio_dev *dev, UINT32 offset, UINT32 size)
{
	UINT64 value = 0;

	for (UINT32 i = 0; i < size; i++)
		value |= (UINT64)io_read(dev, VIRTIO_LEGACY_CONFIG + offset + i, EfiPciIoWidthUint8)
			 << (8 * i);
	return value;
}

static UINT16 queue_max(struct virtio_dev *dev, UINT16 index)
{
	io_write(dev, VIRTIO_LEGACY_QUEUE_SELECT, EfiPciIoWidthUint16, index);
	return (UINT16)io_read(dev, VIRTIO_LEGACY_QUEUE_SIZE, EfiPciIoWidthUint16);
}

static EFI_STATUS queue_enable(struct virtio_dev *dev, UINT16 index, const struct virtqueue *vq)
{
	UINT64 pfn = vq->desc_addr >> VIRTIO_LEGACY_PFN_SHIFT;

	/* The ring must start on a page the 32-bit PFN register can name. */
	if (vq->desc_addr & (VIRTIO_LEGACY_QUEUE_ALIGN - 1) || pfn > 0xffffffffULL)
		return EFI_UNSUPPORTED;
	io_write(dev, VIRTIO_LEGACY_QUEUE_SELECT, EfiPciIoWidthUint16, index);
	io_write(dev, VIRTIO_LEGACY_QUEUE_PFN, EfiPciIoWidthUint32, (UINT32)pfn);
	return EFI_SUCCESS;
}

static void notify(struct virtio_dev *dev, UINT16 index)
{
	io_write(dev, VIRTIO_LEGACY_QUEUE_NOTIFY, EfiPciIoWidthUint16, index);
}

const struct virtio_transport virtio_pci_legacy_ops = {
    .get_status = get_status,
    .set_status = set_status,
    .get_features = get_features,
    .set_features = set_features,
    .read_config = read_config,
    .queue_max = queue_max,
    .queue_enable = queue_enable,
    .notify = notify,
    .alloc_shared = virtio_pci_alloc_shared,
    .free_shared = virtio_pci_free_shared,
    .map = virtio_pci_map,
    .unmap = virtio_pci_unmap,
};
