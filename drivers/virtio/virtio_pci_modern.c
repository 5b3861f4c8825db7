/* The modern virtio-pci interface (virtio 1.x, 4.1.4): the common configuration block, the
 * notification area and the device-specific block, each where its capability says. */
#include "virtio_pci.h"
#include <ember/lib/util.h>

static EFI_PCI_IO_PROTOCOL_WIDTH width_of(UINT32 size)
{
	return size == 1   ? EfiPciIoWidthUint8
	       : size == 2 ? EfiPciIoWidthUint16
	       : size == 4 ? EfiPciIoWidthUint32
			   : EfiPciIoWidthUint64;
}

/* True when size bytes at offset lie inside the region; offsets come from the device
 * (notification offsets), so the sum must not wrap. */
static bool in_region(const struct virtio_pci_region *r, UINT32 offset, UINT32 size)
{
	return size <= r->length && offset <= r->length - size;
}

static UINT64 region_read(struct virtio_pci *vp, const struct virtio_pci_region *r, UINT32 offset,
			  UINT32 size)
{
	EFI_PCI_IO_PROTOCOL_ACCESS *access = r->io ? &vp->pci_io->Io : &vp->pci_io->Mem;
	UINT64 value = 0;

	if (!in_region(r, offset, size))
		return 0;
	access->Read(vp->pci_io, width_of(size), r->bar, (UINT64)r->offset + offset, 1, &value);
	return value;
}

static void region_write(struct virtio_pci *vp, const struct virtio_pci_region *r, UINT32 offset,
			 UINT32 size, UINT64 value)
{
	EFI_PCI_IO_PROTOCOL_ACCESS *access = r->io ? &vp->pci_io->Io : &vp->pci_io->Mem;

	if (!in_region(r, offset, size))
		return;
	access->Write(vp->pci_io, width_of(size), r->bar, (UINT64)r->offset + offset, 1, &value);
}

static struct virtio_pci *to_vp(struct virtio_dev *dev)
{
	return container_of(dev, struct virtio_pci, dev);
}

static UINT64 common_read(struct virtio_dev *dev, UINT32 offset, UINT32 size)
{
	return region_read(to_vp(dev), &to_vp(dev)->common, offset, size);
}

static void common_write(struct virtio_dev *dev, UINT32 offset, UINT32 size, UINT64 value)
{
	region_write(to_vp(dev), &to_vp(dev)->common, offset, size, value);
}

static UINT8 get_status(struct virtio_dev *dev)
{
	return (UINT8)common_read(dev, VIRTIO_COMMON_STATUS, 1);
}

static void set_status(struct virtio_dev *dev, UINT8 status)
{
	common_write(dev, VIRTIO_COMMON_STATUS, 1, status);
}

static UINT64 get_features(struct virtio_dev *dev)
{
	UINT64 low, high;

	common_write(dev, VIRTIO_COMMON_DFSELECT, 4, 0);
	low = common_read(dev, VIRTIO_COMMON_DF, 4);
	common_write(dev, VIRTIO_COMMON_DFSELECT, 4, 1);
	high = common_read(dev, VIRTIO_COMMON_DF, 4);
	return low | high << 32;
}

static void set_features(struct virtio_dev *dev, UINT64 features)
{
	common_write(dev, VIRTIO_COMMON_GFSELECT, 4, 0);
	common_write(dev, VIRTIO_COMMON_GF, 4, (UINT32)features);
	common_write(dev, VIRTIO_COMMON_GFSELECT, 4, 1);
	common_write(dev, VIRTIO_COMMON_GF, 4, features >> 32);
}

/* Reads device configuration, retrying while config_generation changes underneath: a
 * multi-byte field is consistent only within one generation (4.1.4.3.1). */
static UINT64 read_config(struct virtio_dev *dev, UINT32 offset, UINT32 size)
{
	struct virtio_pci *vp = to_vp(dev);
	UINT64 value;
	UINT8 before, after;
	UINT32 tries = 0;

	do {
		before = (UINT8)common_read(dev, VIRTIO_COMMON_CFGGENERATION, 1);
		if (size == 8)
			value = region_read(vp, &vp->device, offset, 4) |
				region_read(vp, &vp->device, offset + 4, 4) << 32;
		else
			value = region_read(vp, &vp->device, offset, size);
		after = (UINT8)common_read(dev, VIRTIO_COMMON_CFGGENERATION, 1);
	} while (before != after && ++tries < 16);
	return value;
}

static UINT16 queue_max(struct virtio_dev *dev, UINT16 index)
{
	if (index >= common_read(dev, VIRTIO_COMMON_NUMQ, 2))
		return 0;
	common_write(dev, VIRTIO_COMMON_Q_SELECT, 2, index);
	return (UINT16)common_read(dev, VIRTIO_COMMON_Q_SIZE, 2);
}

/* 64-bit registers are written as two 32-bit halves, low first, which every device accepts. */
static void write64(struct virtio_dev *dev, UINT32 offset, UINT64 value)
{
	common_write(dev, offset, 4, (UINT32)value);
	common_write(dev, offset + 4, 4, value >> 32);
}

/* Where queue index is notified (4.1.4.4); an offset past 4 GiB becomes one that no
 * region contains, so that the notification is dropped rather than sent elsewhere. */
static UINT32 notify_offset(struct virtio_dev *dev, UINT16 index)
{
	UINT64 offset;

	common_write(dev, VIRTIO_COMMON_Q_SELECT, 2, index);
	offset = common_read(dev, VIRTIO_COMMON_Q_NOFF, 2) * (UINT64)to_vp(dev)->notify_multiplier;
	return offset > 0xffffffffULL ? 0xffffffffu : (UINT32)offset;
}

static EFI_STATUS queue_enable(struct virtio_dev *dev, UINT16 index, const struct virtqueue *vq)
{
	if (index < VIRTIO_PCI_NOTIFY_CACHE)
		to_vp(dev)->notify_offset[index] = notify_offset(dev, index);
	common_write(dev, VIRTIO_COMMON_Q_SELECT, 2, index);
	common_write(dev, VIRTIO_COMMON_Q_SIZE, 2, vq->size);
	common_write(dev, VIRTIO_COMMON_Q_MSIX, 2, VIRTIO_MSI_NO_VECTOR);
	write64(dev, VIRTIO_COMMON_Q_DESCLO, vq->desc_addr);
	write64(dev, VIRTIO_COMMON_Q_AVAILLO, vq->avail_addr);
	write64(dev, VIRTIO_COMMON_Q_USEDLO, vq->used_addr);
	common_write(dev, VIRTIO_COMMON_Q_ENABLE, 2, 1);
	return common_read(dev, VIRTIO_COMMON_Q_ENABLE, 2) == 1 ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static void notify(struct virtio_dev *dev, UINT16 index)
{
	struct virtio_pci *vp = to_vp(dev);
	UINT32 offset =
	    index < VIRTIO_PCI_NOTIFY_CACHE ? vp->notify_offset[index] : notify_offset(dev, index);

	region_write(vp, &vp->notify, offset, 2, index);
}

const struct virtio_transport virtio_pci_modern_ops = {
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
