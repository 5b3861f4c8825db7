/* The virtio-pci transport (drivers/virtio/virtio_pci*.c) and the generic device steps of
 * drivers/virtio/virtio.c against the fake device of fake_virtio.c, without a driver on
 * top: identification, the capability walk, the modern and legacy registers, notification
 * addresses, DMA through PciIo, negotiation and queue set-up. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include "fake_virtio.h"
#include "../../drivers/virtio/virtio_pci.h"
#include <efi/pci.h>

#define PAGE 4096

/* A device whose PCI function is enabled, as a driver's Start leaves it. */
static struct fake_virtio *device(enum fake_virtio_interface interface, UINT16 type)
{
	struct fake_virtio *d = fake_virtio_create(interface, type);

	if (d)
		d->pci->attributes = d->pci->supports;
	return d;
}

static void done(struct fake_virtio *d)
{
	EXPECT_EQ(d->pci->live_maps, 0);
	EXPECT_EQ(d->pci->live_buffers, 0);
	if (!EXPECT_EQ(d->pci->errors, 0))
		printf("    device saw: %s\n", d->pci->last_error);
	fake_virtio_destroy(d);
}

static UINT16 type_with_ids(struct fake_virtio *d, UINT16 vendor, UINT16 id, UINT16 subsystem)
{
	fake_virtio_set_ids(d, vendor, id, subsystem);
	return virtio_pci_device_type(&d->pci->pci_io);
}

TEST(virtio_pci_device_type_from_ids)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);

	ASSERT(d != NULL);
	EXPECT_EQ(virtio_pci_device_type(&d->pci->pci_io), VIRTIO_ID_BLOCK);
	EXPECT_EQ(type_with_ids(d, 0x1af4, 0x1044, 0x1100), 4);
	EXPECT_EQ(type_with_ids(d, 0x1af4, 0x107f, 0x1100), 0x3f);
	EXPECT_EQ(type_with_ids(d, 0x1af4, 0x1080, 0x1100), 0);
	EXPECT_EQ(type_with_ids(d, 0x1af4, 0x0fff, 2), 0);
	/* Transitional devices name their type in the subsystem ID. */
	EXPECT_EQ(type_with_ids(d, 0x1af4, 0x1001, 2), 2);
	EXPECT_EQ(type_with_ids(d, 0x1af4, 0x103f, 4), 4);
	EXPECT_EQ(type_with_ids(d, 0x8086, 0x1042, 0x1100), 0);
	done(d);
}

TEST(virtio_pci_init_finds_the_modern_regions)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	EXPECT(vp.dev.ops == &virtio_pci_modern_ops);
	EXPECT(!vp.dev.legacy);
	EXPECT_EQ(vp.device_id, 0x1042);
	EXPECT_EQ(vp.common.bar, FAKE_VIRTIO_MODERN_BAR);
	EXPECT(!vp.common.io);
	EXPECT_EQ(vp.common.offset, FAKE_VIRTIO_COMMON_AT);
	EXPECT_EQ(vp.common.length, 0x38);
	EXPECT_EQ(vp.notify.offset, FAKE_VIRTIO_NOTIFY_AT);
	EXPECT_EQ(vp.notify_multiplier, 4);
	EXPECT_EQ(vp.isr.offset, FAKE_VIRTIO_ISR_AT);
	EXPECT_EQ(vp.device.offset, FAKE_VIRTIO_DEVICE_AT);
	EXPECT_EQ(vp.device.length, FAKE_VIRTIO_CONFIG_BYTES);
	done(d);
}

TEST(virtio_pci_init_chooses_the_interface)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_TRANSITIONAL, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	/* A transitional device has both: the modern interface wins. */
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	EXPECT(vp.dev.ops == &virtio_pci_modern_ops);
	/* Without capabilities, its I/O BAR 0 is the legacy interface ... */
	fake_pci_io_config_set(d->pci, PCI_STATUS_OFFSET, 2, 0);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	EXPECT(vp.dev.ops == &virtio_pci_legacy_ops);
	EXPECT(vp.dev.legacy);
	/* ... and a memory BAR 0 is no interface at all. */
	fake_pci_io_config_set(d->pci, PCI_BASE_ADDRESS_REG(0), 4, 0xfd000000);
	EXPECT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_UNSUPPORTED);
	done(d);

	/* A modern ID never has the legacy interface, whatever BAR 0 is. */
	d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	ASSERT(d != NULL);
	fake_pci_io_config_set(d->pci, PCI_BASE_ADDRESS_REG(0), 4, 0xc001);
	fake_pci_io_config_set(d->pci, PCI_STATUS_OFFSET, 2, 0);
	EXPECT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_UNSUPPORTED);
	done(d);

	d = device(FAKE_VIRTIO_LEGACY, FAKE_VIRTIO_ID_ENTROPY);
	ASSERT(d != NULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	EXPECT(vp.dev.ops == &virtio_pci_legacy_ops);
	EXPECT_EQ(vp.device_id, 0x1005);
	done(d);
}

static bool caps_found(struct fake_virtio *d, struct virtio_pci *vp)
{
	memset(vp, 0, sizeof(*vp));
	vp->pci_io = &d->pci->pci_io;
	return virtio_pci_find_caps(vp);
}

TEST(virtio_pci_capability_walk)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	/* A second common capability after the first is ignored (the first wins), and a
	 * list that loops back on itself still ends. */
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_PCI + 20, FAKE_VIRTIO_CAP_MSIX,
			    VIRTIO_PCI_CAP_COMMON_CFG, FAKE_VIRTIO_MODERN_BAR, 0x800, 0x38);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_PCI + 1, 1, FAKE_VIRTIO_CAP_PCI + 20);
	ASSERT(caps_found(d, &vp));
	EXPECT_EQ(vp.common.offset, FAKE_VIRTIO_COMMON_AT);
	EXPECT_EQ(vp.isr.length, 1);

	/* Capabilities the walk must not take: a BAR that does not exist, a notification
	 * capability without its multiplier (16 of 20 bytes), a common block too small for
	 * the queue registers. */
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_PCI + 1, 1, 0);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_COMMON + 4, 1, 6);
	EXPECT(!caps_found(d, &vp));
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_COMMON + 4, 1, FAKE_VIRTIO_MODERN_BAR);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_NOTIFY + 2, 1, 16);
	EXPECT(!caps_found(d, &vp));
	EXPECT_EQ(vp.notify.length, 0);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_NOTIFY + 2, 1, 20);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_COMMON + 12, 4, 0x30);
	EXPECT(!caps_found(d, &vp));
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_COMMON + 12, 4, 0x38);
	EXPECT(caps_found(d, &vp));
	/* A capability pointer into the header ends the walk at once. */
	fake_pci_io_config_set(d->pci, PCI_CAPABILITY_POINTER_OFFSET, 1, 0x20);
	EXPECT(!caps_found(d, &vp));
	/* A last capability at the very end of configuration space: its fields lie past it. */
	fake_pci_io_config_set(d->pci, PCI_CAPABILITY_POINTER_OFFSET, 1, 0xfc);
	fake_pci_io_config_set(d->pci, 0xfc, 4, 0x01000009);
	EXPECT(!caps_found(d, &vp));
	done(d);
}

TEST(virtio_pci_device_configuration_is_optional)
{
	/* The spec asks for a device-configuration capability only of device types that have
	 * device-specific configuration (4.1.4.6); virtio-rng has none. */
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, FAKE_VIRTIO_ID_ENTROPY);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_ISR + 1, 1, FAKE_VIRTIO_CAP_PCI);
	memset(d->pci->config + FAKE_VIRTIO_CAP_DEVICE, 0, 16);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	EXPECT(vp.dev.ops == &virtio_pci_modern_ops);
	EXPECT_EQ(vp.device.length, 0);
	/* Reading configuration that is not there gives zeroes, without a register access. */
	EXPECT_EQ(vp.dev.ops->read_config(&vp.dev, 0, 4), 0);
	done(d);
}

TEST(virtio_pci_modern_registers)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	const struct virtio_transport *ops;
	struct virtio_pci vp;

	ASSERT(d != NULL);
	d->offered = VIRTIO_F_VERSION_1 | (1ULL << 5) | (1ULL << 40) | 1;
	d->num_queues = 2;
	d->queues[1].max = 0;
	fake_virtio_set_config(d, 0, 8, 0x0807060504030201ULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ops = vp.dev.ops;
	ops->set_status(&vp.dev, VIRTIO_STATUS_ACKNOWLEDGE);
	EXPECT_EQ(d->status, VIRTIO_STATUS_ACKNOWLEDGE);
	EXPECT_EQ(ops->get_status(&vp.dev), VIRTIO_STATUS_ACKNOWLEDGE);
	EXPECT_EQ(ops->get_features(&vp.dev), d->offered);
	ops->set_features(&vp.dev, VIRTIO_F_VERSION_1 | (1ULL << 40));
	EXPECT_EQ(d->accepted, VIRTIO_F_VERSION_1 | (1ULL << 40));
	EXPECT_EQ(ops->read_config(&vp.dev, 0, 1), 0x01);
	EXPECT_EQ(ops->read_config(&vp.dev, 2, 2), 0x0403);
	EXPECT_EQ(ops->read_config(&vp.dev, 4, 4), 0x08070605);
	EXPECT_EQ(ops->read_config(&vp.dev, 0, 8), 0x0807060504030201ULL);
	/* Past the region: nothing is read. */
	EXPECT_EQ(ops->read_config(&vp.dev, FAKE_VIRTIO_CONFIG_BYTES - 2, 4), 0);
	EXPECT_EQ(ops->queue_max(&vp.dev, 0), 256);
	EXPECT_EQ(ops->queue_max(&vp.dev, 1), 0);
	EXPECT_EQ(ops->queue_max(&vp.dev, 2), 0);
	ops->set_status(&vp.dev, 0);
	done(d);
}

TEST(virtio_pci_modern_config_generation)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	fake_virtio_set_config(d, 0, 8, 0x1122334455667788ULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	/* A change while the two halves were read: read again. */
	d->faults.generation_flips = 2;
	EXPECT_EQ(vp.dev.ops->read_config(&vp.dev, 0, 8), 0x1122334455667788ULL);
	EXPECT_EQ(d->faults.generation_flips, 0);
	EXPECT_EQ(d->generation, 2);
	/* A device that never settles is not waited for forever: 16 tries. */
	d->faults.generation_flips = 1000;
	EXPECT_EQ(vp.dev.ops->read_config(&vp.dev, 4, 4), 0x11223344);
	EXPECT_EQ(d->faults.generation_flips, 1000 - 16);
	done(d);
}

/* Sets up queue index of at most max entries on a live device. */
static void queue_up(struct virtio_pci *vp, UINT16 index, UINT16 max, struct virtio_queue *q)
{
	ASSERT_STATUS(virtio_queue_create(&vp->dev, index, max, q), EFI_SUCCESS);
}

/* One page of entropy through queue q: the device fills what the driver offers. */
static void entropy_round(struct fake_virtio *d, struct virtio_pci *vp, struct virtio_queue *q)
{
	struct virtq_buf buf = {0, PAGE, true};
	UINT8 *page;
	void *mapping;
	UINT64 first = d->stats.rng_bytes;
	UINT16 head, used_head;
	UINT32 len = 0;

	ASSERT_STATUS(vp->dev.ops->alloc_shared(&vp->dev, 1, (void **)&page, &buf.addr, &mapping),
		      EFI_SUCCESS);
	ASSERT_STATUS(virtq_add(&q->vq, &buf, 1, &head), EFI_SUCCESS);
	vp->dev.ops->notify(&vp->dev, q->index);
	EXPECT_STATUS(virtq_get_used(&q->vq, &used_head, &len), EFI_SUCCESS);
	EXPECT_EQ(used_head, head);
	EXPECT_EQ(len, PAGE);
	EXPECT_EQ(page[0], fake_virtio_rng_byte(first));
	EXPECT_EQ(page[PAGE - 1], fake_virtio_rng_byte(first + PAGE - 1));
	vp->dev.ops->free_shared(&vp->dev, 1, page, mapping);
}

TEST(virtio_pci_modern_queues_and_notifications)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, FAKE_VIRTIO_ID_ENTROPY);
	struct virtio_queue q0, q5;
	struct virtio_pci vp;

	ASSERT(d != NULL);
	d->num_queues = 6;
	for (int i = 0; i < 6; i++)
		d->queues[i].max = 16;
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ASSERT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_SUCCESS);
	EXPECT_EQ(vp.dev.features, VIRTIO_F_VERSION_1);
	queue_up(&vp, 0, 8, &q0);
	/* A queue past the notification cache finds its address at each notification. */
	queue_up(&vp, 5, 64, &q5);
	EXPECT_EQ(q0.vq.size, 8);
	EXPECT_EQ(q5.vq.size, 16);
	EXPECT(d->queues[5].enabled);
	EXPECT_EQ(d->queues[5].size, 16);
	EXPECT_EQ(d->queues[5].desc, q5.vq.desc_addr);
	EXPECT_EQ(d->queues[5].avail, q5.vq.avail_addr);
	EXPECT_EQ(d->queues[5].used, q5.vq.used_addr);
	EXPECT_EQ(d->queues[5].msix, VIRTIO_MSI_NO_VECTOR);
	virtio_driver_ok(&vp.dev);
	entropy_round(d, &vp, &q5);
	entropy_round(d, &vp, &q0);
	EXPECT_EQ(d->stats.notifies, 2);
	EXPECT_STATUS(virtio_reset(&vp.dev), EFI_SUCCESS);
	virtio_queue_destroy(&vp.dev, &q0);
	virtio_queue_destroy(&vp.dev, &q5);
	virtio_queue_destroy(&vp.dev, &q5); /* a second time: nothing */
	done(d);
}

/* The notification address comes from the device (queue_notify_off times the multiplier):
 * whatever it says, the driver writes inside the notification region only. */
static void notify_far(UINT16 notify_off, UINT32 multiplier)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, FAKE_VIRTIO_ID_ENTROPY);
	struct virtio_queue q;
	struct virtio_pci vp;

	ASSERT(d != NULL);
	d->queues[0].notify_off = notify_off;
	d->notify_multiplier = multiplier;
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_NOTIFY, FAKE_VIRTIO_CAP_ISR,
			    VIRTIO_PCI_CAP_NOTIFY_CFG, FAKE_VIRTIO_MODERN_BAR,
			    FAKE_VIRTIO_NOTIFY_AT, 0x1000);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ASSERT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_SUCCESS);
	queue_up(&vp, 0, 8, &q);
	virtio_driver_ok(&vp.dev);
	vp.dev.ops->notify(&vp.dev, 0);
	EXPECT_EQ(d->stats.notifies, 0);
	virtio_reset(&vp.dev);
	virtio_queue_destroy(&vp.dev, &q);
	done(d);
}

TEST(virtio_pci_notify_stays_in_its_region)
{
	notify_far(0xffff, 0x10001); /* 0xffffffff: the end check must not wrap */
	notify_far(0x8000, 0x20000); /* 2^32: must not wrap to the region's start */
	notify_far(0x0400, 4);	     /* just past the 4 KiB region */
}

TEST(virtio_pci_modern_registers_in_an_io_bar)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	d->offered = VIRTIO_F_VERSION_1;
	fake_pci_io_config_set(d->pci, PCI_BASE_ADDRESS_REG(FAKE_VIRTIO_MODERN_BAR), 4, 0xd001);
	d->pci->bars[FAKE_VIRTIO_MODERN_BAR].io = true;
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	EXPECT(vp.common.io);
	EXPECT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_SUCCESS);
	EXPECT_EQ(d->status,
		  VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK);
	virtio_reset(&vp.dev);
	done(d);
}

TEST(virtio_pci_legacy_registers_and_queue)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_LEGACY, FAKE_VIRTIO_ID_ENTROPY);
	const struct virtio_transport *ops;
	struct virtio_queue q;
	struct virtio_pci vp;

	ASSERT(d != NULL);
	d->offered = VIRTIO_F_VERSION_1 | 0x3;
	d->queues[0].max = 64;
	fake_virtio_set_config(d, 0, 4, 0xa1b2c3d4);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ops = vp.dev.ops;
	/* 32 feature bits, configuration bytes after the registers. */
	EXPECT_EQ(ops->get_features(&vp.dev), 0x3);
	EXPECT_EQ(ops->read_config(&vp.dev, 0, 4), 0xa1b2c3d4);
	EXPECT_EQ(ops->read_config(&vp.dev, 1, 2), 0xb2c3);
	EXPECT_EQ(ops->queue_max(&vp.dev, 0), 64);
	EXPECT_EQ(ops->queue_max(&vp.dev, 3), 0);
	/* No FEATURES_OK on the legacy interface; the device's queue size rules. */
	ASSERT_STATUS(virtio_negotiate(&vp.dev, 0x1 | VIRTIO_F_VERSION_1), EFI_SUCCESS);
	EXPECT_EQ(d->accepted, 0x1);
	EXPECT_EQ(d->status, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
	queue_up(&vp, 0, 8, &q);
	EXPECT_EQ(q.vq.size, 64);
	EXPECT(d->queues[0].enabled);
	EXPECT_EQ(d->queues[0].desc, q.vq.desc_addr);
	EXPECT_EQ(d->queues[0].used, q.vq.used_addr);
	virtio_driver_ok(&vp.dev);
	entropy_round(d, &vp, &q);
	EXPECT_STATUS(virtio_reset(&vp.dev), EFI_SUCCESS);
	virtio_queue_destroy(&vp.dev, &q);
	done(d);
}

TEST(virtio_pci_legacy_queue_limits)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_LEGACY, FAKE_VIRTIO_ID_ENTROPY);
	struct virtio_queue q;
	struct virtio_pci vp;

	ASSERT(d != NULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ASSERT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_SUCCESS);
	/* A ring size that is not a power of two cannot be laid out. */
	d->queues[0].max = 100;
	EXPECT_STATUS(virtio_queue_create(&vp.dev, 0, 8, &q), EFI_INVALID_PARAMETER);
	EXPECT_EQ(d->pci->live_buffers, 0);
	/* A ring the 32-bit page frame register cannot name. */
	d->queues[0].max = 64;
	d->pci->faults.dma_offset = 1ULL << 45;
	EXPECT_STATUS(virtio_queue_create(&vp.dev, 0, 8, &q), EFI_UNSUPPORTED);
	EXPECT(!d->queues[0].enabled);
	d->pci->faults.dma_offset = 0;
	EXPECT_STATUS(virtio_queue_create(&vp.dev, 1, 8, &q), EFI_NOT_FOUND);
	virtio_reset(&vp.dev);
	done(d);
}

TEST(virtio_pci_dma_through_pci_io)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;
	UINT8 data[1024];
	UINTN bytes = sizeof(data);
	void *host, *mapping;
	UINT64 addr;

	ASSERT(d != NULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ASSERT_STATUS(vp.dev.ops->alloc_shared(&vp.dev, 2, &host, &addr, &mapping), EFI_SUCCESS);
	EXPECT_EQ(addr, (uintptr_t)host);
	EXPECT_EQ(((struct fake_pci_map *)mapping)->op, EfiPciIoOperationBusMasterCommonBuffer);
	EXPECT_EQ(((struct fake_pci_map *)mapping)->bytes, 2 * PAGE);
	vp.dev.ops->free_shared(&vp.dev, 2, host, mapping);
	EXPECT_EQ(d->pci->live_buffers, 0);
	/* Failures at each step give everything back. */
	d->pci->faults.alloc_fail_at = d->pci->alloc_calls + 1;
	EXPECT_STATUS(vp.dev.ops->alloc_shared(&vp.dev, 1, &host, &addr, &mapping),
		      EFI_OUT_OF_RESOURCES);
	d->pci->faults.map_fail_at = d->pci->map_calls + 1;
	EXPECT_STATUS(vp.dev.ops->alloc_shared(&vp.dev, 1, &host, &addr, &mapping),
		      EFI_OUT_OF_RESOURCES);
	EXPECT_EQ(d->pci->live_buffers, 0);
	/* A common buffer mapped only in part is no use. */
	d->pci->faults.common_map_short = true;
	EXPECT_STATUS(vp.dev.ops->alloc_shared(&vp.dev, 1, &host, &addr, &mapping),
		      EFI_OUT_OF_RESOURCES);
	EXPECT_EQ(d->pci->live_buffers, 0);
	EXPECT_EQ(d->pci->live_maps, 0);
	/* Streaming maps: the direction is the device's. */
	ASSERT_STATUS(vp.dev.ops->map(&vp.dev, true, data, &bytes, &addr, &mapping), EFI_SUCCESS);
	EXPECT_EQ(((struct fake_pci_map *)mapping)->op, EfiPciIoOperationBusMasterWrite);
	vp.dev.ops->unmap(&vp.dev, mapping);
	ASSERT_STATUS(vp.dev.ops->map(&vp.dev, false, data, &bytes, &addr, &mapping), EFI_SUCCESS);
	EXPECT_EQ(((struct fake_pci_map *)mapping)->op, EfiPciIoOperationBusMasterRead);
	vp.dev.ops->unmap(&vp.dev, mapping);
	done(d);
}

TEST(virtio_negotiate_modern)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	/* A reset that takes a while is waited for. */
	d->offered = VIRTIO_F_VERSION_1 | VIRTIO_F_ACCESS_PLATFORM | 0x6;
	d->status = VIRTIO_STATUS_ACKNOWLEDGE; /* left over from an earlier user */
	d->faults.reset_delay = 3;
	ASSERT_STATUS(virtio_negotiate(&vp.dev, 0x2 | 0x8), EFI_SUCCESS);
	EXPECT_EQ(vp.dev.features, VIRTIO_F_VERSION_1 | VIRTIO_F_ACCESS_PLATFORM | 0x2);
	EXPECT_EQ(d->accepted, vp.dev.features);
	EXPECT_EQ(d->reset_reads_left, 0);
	/* No VERSION_1: not a device this driver knows. */
	d->offered = 0x6;
	EXPECT_STATUS(virtio_negotiate(&vp.dev, 0x2), EFI_UNSUPPORTED);
	EXPECT(d->status & VIRTIO_STATUS_FAILED);
	/* FEATURES_OK refused. */
	d->offered = VIRTIO_F_VERSION_1;
	d->faults.refuse_features_ok = true;
	EXPECT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_UNSUPPORTED);
	EXPECT(d->status & VIRTIO_STATUS_FAILED);
	EXPECT(!(d->status & VIRTIO_STATUS_FEATURES_OK));
	EXPECT_EQ(d->stats.failed, 2);
	virtio_reset(&vp.dev);
	done(d);
}

TEST(virtio_reset_gives_up_on_a_stuck_device)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_pci vp;

	ASSERT(d != NULL);
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	d->offered = VIRTIO_F_VERSION_1;
	d->faults.reset_stuck = true;
	EXPECT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_TIMEOUT);
	EXPECT_EQ(d->accepted, 0);
	d->faults.reset_stuck = false;
	done(d);
}

TEST(virtio_queue_create_failures)
{
	struct fake_virtio *d = device(FAKE_VIRTIO_MODERN, VIRTIO_ID_BLOCK);
	struct virtio_queue q;
	struct virtio_pci vp;

	ASSERT(d != NULL);
	d->offered = VIRTIO_F_VERSION_1;
	ASSERT_STATUS(virtio_pci_init(&vp, &d->pci->pci_io), EFI_SUCCESS);
	ASSERT_STATUS(virtio_negotiate(&vp.dev, 0), EFI_SUCCESS);
	d->queues[0].max = 0;
	EXPECT_STATUS(virtio_queue_create(&vp.dev, 0, 8, &q), EFI_NOT_FOUND);
	d->queues[0].max = 256;
	d->faults.ignore_enable = true;
	EXPECT_STATUS(virtio_queue_create(&vp.dev, 0, 8, &q), EFI_DEVICE_ERROR);
	EXPECT(q.ring == NULL);
	d->faults.ignore_enable = false;
	d->pci->faults.alloc_fail_at = d->pci->alloc_calls + 1;
	EXPECT_STATUS(virtio_queue_create(&vp.dev, 0, 8, &q), EFI_OUT_OF_RESOURCES);
	/* A queue of one entry is still a queue. */
	d->queues[0].max = d->queues[0].size = 1;
	ASSERT_STATUS(virtio_queue_create(&vp.dev, 0, 8, &q), EFI_SUCCESS);
	EXPECT_EQ(q.vq.size, 1);
	virtio_reset(&vp.dev);
	virtio_queue_destroy(&vp.dev, &q);
	done(d);
}
