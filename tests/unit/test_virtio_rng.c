/* The virtio-rng driver (drivers/virtio/virtio_rng_driver.c) through the UEFI driver model
 * on a fake virtio-pci function (fake_virtio.c): Supported, Start on modern, transitional
 * and legacy devices, EFI_RNG_PROTOCOL (drivers/rng) with the device as its RAW source,
 * devices that answer short, with nothing, late, never or with a broken ring, start
 * failures that unwind, and Stop giving everything back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "virtio_driver_check.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <efi/pci.h>
#include <efi/protocol/rng.h>
#include <ember/core/core.h>
#include <ember/drivers/rng.h>
#include <ember/lib/str.h>

#define LIVE                                                                                       \
	(VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK |            \
	 VIRTIO_STATUS_DRIVER_OK)

static const EFI_GUID rng_guid = EFI_RNG_PROTOCOL_GUID;
static EFI_GUID raw = EFI_RNG_ALGORITHM_RAW;

static EFI_DRIVER_BINDING_PROTOCOL *binding(void)
{
	return fake_virtio_driver(u"Virtio Entropy Driver");
}

static EFI_RNG_PROTOCOL *rng(void)
{
	EFI_RNG_PROTOCOL *protocol = NULL;

	protocol_locate(&rng_guid, (void **)&protocol);
	return protocol;
}

/* EFI_RNG_PROTOCOL lists RAW, which only a hardware source such as the device brings. */
static bool offers_raw(void)
{
	EFI_GUID list[4];
	UINTN size = sizeof(list);

	if (!rng() || EFI_ERROR(rng()->GetInfo(rng(), &size, list)))
		return false;
	for (UINTN i = 0; i < size / sizeof(EFI_GUID); i++)
		if (memcmp(&list[i], &raw, sizeof(raw)) == 0)
			return true;
	return false;
}

static bool connect(struct fake_virtio *d)
{
	driver_connect(d->pci->handle, NULL, NULL, false);
	return (d->status & VIRTIO_STATUS_DRIVER_OK) && offers_raw();
}

static void expect_clean(struct fake_virtio *d)
{
	UINT8 byte;

	EXPECT(!offers_raw());
	EXPECT(!rng() || rng()->GetRNG(rng(), &raw, 1, &byte) == EFI_UNSUPPORTED);
	virtio_check_clean(d);
}

static void expect_released(struct fake_virtio *d)
{
	virtio_check_disconnect(d);
	expect_clean(d);
}

/* GetRNG(RAW) gives the device's bytes, in order, from where the device is now. */
static bool raw_read(struct fake_virtio *d, EFI_GUID *algorithm, UINTN size)
{
	UINT8 *buffer = malloc(size);
	UINT64 first = d->stats.rng_bytes;
	bool ok = buffer && rng() && !EFI_ERROR(rng()->GetRNG(rng(), algorithm, size, buffer));

	for (UINTN i = 0; ok && i < size; i++)
		ok = buffer[i] == fake_virtio_rng_byte(first + i);
	free(buffer);
	return ok;
}

static EFI_STATUS supported_with_ids(struct fake_virtio *d, UINT16 vendor, UINT16 id,
				     UINT16 subsystem)
{
	fake_virtio_set_ids(d, vendor, id, subsystem);
	return binding()->Supported(binding(), d->pci->handle, NULL);
}

static CHAR16 *controller_name(struct fake_virtio *d, EFI_HANDLE child)
{
	return virtio_check_controller_name(binding(), d, child);
}

TEST(virtio_rng_supported_ids)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);
	EFI_DRIVER_BINDING_PROTOCOL *db = binding();

	ASSERT(d != NULL && db != NULL);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_SUCCESS);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1005, 4), EFI_SUCCESS);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1005, 2), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1001, 4), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1042, 0x1100), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x8086, 0x1044, 0x1100), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1044, 0x1100), EFI_SUCCESS);
	EXPECT_STATUS(db->Supported(db, db->DriverBindingHandle, NULL), EFI_UNSUPPORTED);
	ASSERT(connect(d));
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_ALREADY_STARTED);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_raw_from_a_modern_device)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);
	EFI_GUID list[2], chacha = EMBER_RNG_ALGORITHM_CHACHA20;
	UINTN size = sizeof(list);
	UINT64 before;
	UINT8 buffer[64];
	CHAR16 *name;

	ASSERT(d != NULL);
	ASSERT(connect(d));
	EXPECT_EQ(d->status, LIVE);
	EXPECT_EQ(d->accepted, VIRTIO_F_VERSION_1);
	EXPECT_EQ(d->queues[0].size, 8);
	EXPECT_EQ(d->pci->attributes &
		      (EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER),
		  EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	/* RAW is offered, first: the default. */
	ASSERT_STATUS(rng()->GetInfo(rng(), &size, list), EFI_SUCCESS);
	EXPECT_EQ(size, 2 * sizeof(EFI_GUID));
	EXPECT(memcmp(&list[0], &raw, sizeof(raw)) == 0);
	/* Shorter than a page, a page, more than one, several. */
	EXPECT(raw_read(d, &raw, 1));
	EXPECT(raw_read(d, &raw, 4096));
	EXPECT(raw_read(d, &raw, 4097));
	EXPECT(raw_read(d, &raw, 10000));
	EXPECT(raw_read(d, NULL, 33));
	/* The generator reseeds from the device. */
	before = d->stats.rng_bytes;
	EXPECT_STATUS(rng()->GetRNG(rng(), &chacha, sizeof(buffer), buffer), EFI_SUCCESS);
	EXPECT(d->stats.rng_bytes > before);
	name = controller_name(d, NULL);
	EXPECT(name && str16_cmp(name, u"Virtio Entropy Device") == 0);
	EXPECT(controller_name(d, d->pci->handle) == NULL);
	expect_released(d);
	EXPECT(controller_name(d, NULL) == NULL);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_legacy_and_transitional_devices)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_LEGACY);

	ASSERT(d != NULL);
	ASSERT(connect(d));
	EXPECT_EQ(d->status,
		  VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_DRIVER_OK);
	EXPECT_EQ(d->queues[0].size, 64); /* the device decides */
	EXPECT(raw_read(d, &raw, 5000));
	expect_released(d);
	fake_virtio_destroy(d);

	d = fake_virtio_rng_create(FAKE_VIRTIO_TRANSITIONAL);
	ASSERT(d != NULL);
	ASSERT(connect(d));
	EXPECT_EQ(d->status, LIVE);
	EXPECT(raw_read(d, &raw, 100));
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_without_device_configuration)
{
	/* virtio-rng has no device-specific configuration, so a device may well offer no
	 * capability for it (virtio 1.x, 4.1.4.6). */
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);

	ASSERT(d != NULL);
	fake_pci_io_config_set(d->pci, FAKE_VIRTIO_CAP_ISR + 1, 1, FAKE_VIRTIO_CAP_PCI);
	memset(d->pci->config + FAKE_VIRTIO_CAP_DEVICE, 0, 16);
	ASSERT(connect(d));
	EXPECT(raw_read(d, &raw, 16));
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_short_and_empty_answers)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);
	UINT8 byte;
	UINTN notifies;

	ASSERT(d != NULL);
	/* Rings, page and buffers at device addresses that are not the host's. */
	d->pci->faults.dma_offset = 1ULL << 40;
	d->pci->faults.bounce_all = true;
	ASSERT(connect(d));
	/* 100 bytes an answer: as many requests as it takes. */
	d->faults.rng_limit = 100;
	notifies = d->stats.notifies;
	EXPECT(raw_read(d, &raw, 1000));
	EXPECT_EQ(d->stats.notifies - notifies, 10);
	/* Nothing at all is a failure, but not the device's end. */
	d->faults.rng_empty = true;
	EXPECT_STATUS(rng()->GetRNG(rng(), &raw, 1, &byte), EFI_DEVICE_ERROR);
	d->faults.rng_empty = false;
	d->faults.rng_limit = 0;
	EXPECT(raw_read(d, &raw, 64));
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_broken_ring)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);
	UINTN resets, notifies;
	UINT8 byte;

	ASSERT(d != NULL);
	ASSERT(connect(d));
	resets = d->stats.resets;
	d->faults.corrupt_used = true;
	EXPECT_STATUS(rng()->GetRNG(rng(), &raw, 1, &byte), EFI_DEVICE_ERROR);
	EXPECT_EQ(d->stats.resets, resets + 1);
	d->faults.corrupt_used = false;
	/* Broken for good: the device is not asked again. */
	notifies = d->stats.notifies;
	EXPECT_STATUS(rng()->GetRNG(rng(), &raw, 1, &byte), EFI_DEVICE_ERROR);
	EXPECT_EQ(d->stats.notifies, notifies);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_device_that_stops_answering)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);
	EFI_GUID chacha = EMBER_RNG_ALGORITHM_CHACHA20;
	UINT8 buffer[16];
	UINTN resets;

	ASSERT(d != NULL);
	ASSERT(connect(d));
	/* The device resets under the driver and ignores the request: after the timeout the
	 * driver resets it (so that it cannot write the page later) and gives up on it. */
	fake_virtio_lose_state(d);
	resets = d->stats.resets;
	EXPECT_STATUS(rng()->GetRNG(rng(), &raw, sizeof(buffer), buffer), EFI_DEVICE_ERROR);
	EXPECT_EQ(d->stats.resets, resets + 1);
	/* The generator does without it. */
	EXPECT_STATUS(rng()->GetRNG(rng(), &chacha, sizeof(buffer), buffer), EFI_SUCCESS);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_polls_for_a_late_completion)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_LEGACY);

	ASSERT(d != NULL);
	d->faults.late_us = 300;
	ASSERT(connect(d));
	EXPECT(raw_read(d, &raw, 200));
	fake_virtio_settle(d);
	expect_released(d);
	fake_virtio_destroy(d);
}

/* ---- Start failures ---- */

static void fault(struct fake_virtio *d, int which)
{
	switch (which) {
	case 0:
		d->pci->faults.attributes_fail_ops = 1u << EfiPciIoAttributeOperationEnable;
		break;
	case 1:
		d->pci->faults.attributes_fail_ops = 1u << EfiPciIoAttributeOperationSupported;
		break;
	case 2:
		d->pci->faults.alloc_fail_at = d->pci->alloc_calls + 1; /* the ring */
		break;
	case 3:
		fake_pci_io_config_set(d->pci, PCI_STATUS_OFFSET, 2, 0); /* no capabilities */
		break;
	case 4:
		d->offered = 0;
		break;
	case 5:
		d->faults.refuse_features_ok = true;
		break;
	case 6:
		d->queues[0].max = 0;
		break;
	case 7:
		d->faults.ignore_enable = true;
		break;
	case 8:
		d->pci->faults.map_fail_at = d->pci->map_calls + 1; /* the ring */
		break;
	case 9:
		d->pci->faults.alloc_fail_at = d->pci->alloc_calls + 2; /* the page */
		break;
	case 10:
		d->pci->faults.map_fail_at = d->pci->map_calls + 2; /* the page */
		break;
	case 11:
		d->pci->faults.common_map_short = true;
		break;
	}
}

TEST(virtio_rng_start_failures_unwind)
{
	for (int i = 0; i < 12; i++) {
		struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);

		ASSERT(d != NULL);
		fault(d, i);
		if (!EXPECT(!connect(d)))
			printf("    fault %d: started anyway\n", i);
		expect_clean(d);
		fake_virtio_clear_faults(d);
		d->offered = VIRTIO_F_VERSION_1;
		d->queues[0].max = 64;
		if (!EXPECT(connect(d)))
			printf("    fault %d: no start afterwards\n", i);
		expect_released(d);
		fake_virtio_destroy(d);
	}
}

/* When the PCI attributes cannot even be read, Start must fail without touching them: there
 * is nothing to restore. */
TEST(virtio_rng_unreadable_attributes_are_left_alone)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);

	ASSERT(d != NULL);
	d->pci->faults.attributes_fail_ops = 1u << EfiPciIoAttributeOperationGet;
	EXPECT(!connect(d));
	expect_clean(d);
	fake_virtio_destroy(d);
}

TEST(virtio_rng_start_and_stop_out_of_turn)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);
	EFI_DRIVER_BINDING_PROTOCOL *db = binding();

	ASSERT(d != NULL);
	ASSERT(connect(d));
	EXPECT(EFI_ERROR(db->Start(db, d->pci->handle, NULL)));
	EXPECT_EQ(d->status, LIVE);
	EXPECT(raw_read(d, &raw, 8));
	expect_released(d);
	EXPECT(EFI_ERROR(db->Stop(db, d->pci->handle, 0, NULL)));
	virtio_check_no_errors(d);
	fake_virtio_destroy(d);
}

static void exit_boot_services_body(void)
{
	struct fake_virtio *d = fake_virtio_rng_create(FAKE_VIRTIO_MODERN);

	ASSERT(d != NULL);
	ASSERT(connect(d));
	virtio_check_exit_boot_services(d);
}

TEST(virtio_rng_resets_the_device_at_exit_boot_services)
{
	RUN_ISOLATED(exit_boot_services_body);
}
