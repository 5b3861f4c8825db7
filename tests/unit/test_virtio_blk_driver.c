/* The virtio-blk driver (drivers/virtio/virtio_blk_driver.c and the layers under it) through
 * the UEFI driver model: ConnectController on a fake virtio-pci function (fake_virtio.c),
 * BlockIo and BlockIo2 on that handle, transfers split by the device's limits, flush,
 * read-only media, device errors, a broken ring and BlockIo Reset, start failures at each
 * step, and Stop giving everything back (device reset, attributes restored, no mapping or
 * buffer left). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "virtio_driver_check.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <efi/pci.h>
#include <efi/protocol/block_io2.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define SECTORS 4096 /* 2 MiB */
#define BLK_FEATURES                                                                               \
	(VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_SIZE_MAX | VIRTIO_BLK_F_SEG_MAX |                       \
	 VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_FLUSH | VIRTIO_BLK_F_TOPOLOGY |                      \
	 VIRTIO_BLK_F_CONFIG_WCE)
#define LIVE                                                                                       \
	(VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK |            \
	 VIRTIO_STATUS_DRIVER_OK)

static const EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static const EFI_GUID block_io2_guid = EFI_BLOCK_IO2_PROTOCOL_GUID;

static EFI_DRIVER_BINDING_PROTOCOL *binding(void)
{
	return fake_virtio_driver(u"Virtio Block Driver");
}

static EFI_BLOCK_IO_PROTOCOL *block_io(struct fake_virtio *d)
{
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;

	protocol_get(d->pci->handle, &block_io_guid, (void **)&bio);
	return bio;
}

static EFI_BLOCK_IO2_PROTOCOL *block_io2(struct fake_virtio *d)
{
	EFI_BLOCK_IO2_PROTOCOL *bio2 = NULL;

	protocol_get(d->pci->handle, &block_io2_guid, (void **)&bio2);
	return bio2;
}

static EFI_BLOCK_IO_PROTOCOL *connect(struct fake_virtio *d)
{
	driver_connect(d->pci->handle, NULL, NULL, false);
	return block_io(d);
}

/* What a driver that is not (or no longer) bound must have left: no protocols, attributes
 * as they were, no DMA, no queue the device could still use, the function free. */
static void expect_clean(struct fake_virtio *d)
{
	EXPECT(block_io(d) == NULL);
	EXPECT(block_io2(d) == NULL);
	virtio_check_clean(d);
}

/* Disconnects the drivers and checks that the device was reset and everything given back. */
static void expect_released(struct fake_virtio *d)
{
	virtio_check_disconnect(d);
	expect_clean(d);
}

static bool holds_disk(const UINT8 *buffer, UINT64 offset, UINTN bytes)
{
	for (UINTN i = 0; i < bytes; i++)
		if (buffer[i] != fake_virtio_disk_byte(offset + i))
			return false;
	return true;
}

static CHAR16 *controller_name(struct fake_virtio *d, EFI_HANDLE child)
{
	return virtio_check_controller_name(binding(), d, child);
}

static EFI_STATUS supported_with_ids(struct fake_virtio *d, UINT16 vendor, UINT16 id,
				     UINT16 subsystem)
{
	fake_virtio_set_ids(d, vendor, id, subsystem);
	return binding()->Supported(binding(), d->pci->handle, NULL);
}

TEST(virtio_blk_driver_supported_ids)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_DRIVER_BINDING_PROTOCOL *db = binding();

	ASSERT(d != NULL && db != NULL);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_SUCCESS);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1001, 2), EFI_SUCCESS);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1001, 4), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1000, 2), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1044, 0x1100), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1041, 0x1100), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x8086, 0x1042, 0x1100), EFI_UNSUPPORTED);
	EXPECT_STATUS(supported_with_ids(d, 0x1af4, 0x1042, 0x1100), EFI_SUCCESS);
	/* No PciIo at all. */
	EXPECT_STATUS(db->Supported(db, db->DriverBindingHandle, NULL), EFI_UNSUPPORTED);
	ASSERT(connect(d) != NULL);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_ALREADY_STARTED);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_starts_on_a_modern_device)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO_MEDIA *m;
	CHAR16 *name;

	ASSERT(d != NULL);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_PHYS_EXP, 1, 3);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_ALIGN_OFFSET, 1, 1);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_OPT_IO, 4, 64);
	bio = connect(d);
	bio2 = block_io2(d);
	ASSERT(bio != NULL && bio2 != NULL);
	m = bio->Media;
	EXPECT(bio2->Media == m);
	EXPECT_EQ(bio->Revision, EFI_BLOCK_IO_PROTOCOL_REVISION3);
	EXPECT_EQ(m->BlockSize, 512);
	EXPECT_EQ(m->LastBlock, SECTORS - 1);
	EXPECT(m->MediaPresent && !m->ReadOnly && !m->RemovableMedia && !m->LogicalPartition);
	EXPECT(m->WriteCaching);
	EXPECT_EQ(m->LogicalBlocksPerPhysicalBlock, 8);
	EXPECT_EQ(m->LowestAlignedLba, 1);
	EXPECT_EQ(m->OptimalTransferLengthGranularity, 64);
	/* Only the features it handles: no indirect descriptors, no event index. */
	EXPECT_EQ(d->accepted, BLK_FEATURES);
	EXPECT_EQ(d->status, LIVE);
	EXPECT_EQ(d->pci->attributes &
		      (EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER),
		  EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	EXPECT(d->queues[0].enabled);
	EXPECT_EQ(d->stats.get_ids, 1);
	name = controller_name(d, NULL);
	EXPECT(name && str16_cmp(name, u"Virtio Block Device") == 0);
	EXPECT(controller_name(d, d->pci->handle) == NULL);
	expect_released(d);
	EXPECT(controller_name(d, NULL) == NULL);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_starts_on_a_legacy_device)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_LEGACY, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	CHAR16 *name;

	ASSERT(d != NULL);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT_EQ(d->accepted, BLK_FEATURES & 0xffffffffULL);
	EXPECT_EQ(d->status,
		  VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_DRIVER_OK);
	EXPECT(d->queues[0].enabled);
	EXPECT_EQ(d->queues[0].size, 256); /* the device's, not the driver's choice */
	EXPECT_EQ(bio->Media->LastBlock, SECTORS - 1);
	name = controller_name(d, NULL);
	EXPECT(name && str16_cmp(name, u"Virtio Block Device (legacy)") == 0);
	expect_released(d);
	fake_virtio_destroy(d);

	/* A transitional device is driven through its modern interface. */
	d = fake_virtio_blk_create(FAKE_VIRTIO_TRANSITIONAL, SECTORS);
	ASSERT(d != NULL);
	ASSERT(connect(d) != NULL);
	EXPECT_EQ(d->accepted, BLK_FEATURES);
	EXPECT_EQ(d->status, LIVE);
	expect_released(d);
	fake_virtio_destroy(d);
}

/* Reads one block, many blocks (more than one segment), the last block, then writes and
 * reads back, checking the medium itself. */
static void read_and_write(struct fake_virtio *d, EFI_BLOCK_IO_PROTOCOL *bio)
{
	UINT32 id = bio->Media->MediaId;
	UINTN big = 300 * 512;
	UINT8 *buffer = malloc(big), *back = malloc(big);

	ASSERT(buffer && back);
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 7, 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 7 * 512, 512));
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 1000, big, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 1000 * 512, big));
	EXPECT(d->stats.max_segments >= 3); /* 150 KiB in segments of at most 64 KiB */
	EXPECT_STATUS(bio->ReadBlocks(bio, id, SECTORS - 1, 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, (SECTORS - 1) * 512ULL, 512));
	for (UINTN i = 0; i < 20 * 512; i++)
		buffer[i] = (UINT8)(i ^ 0x5a);
	EXPECT_STATUS(bio->WriteBlocks(bio, id, 50, 20 * 512, buffer), EFI_SUCCESS);
	EXPECT(memcmp(d->disk + 50 * 512, buffer, 20 * 512) == 0);
	EXPECT_EQ(d->disk[50 * 512 - 1], fake_virtio_disk_byte(50 * 512 - 1));
	EXPECT_EQ(d->disk[70 * 512], fake_virtio_disk_byte(70 * 512));
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 50, 20 * 512, back), EFI_SUCCESS);
	EXPECT(memcmp(back, buffer, 20 * 512) == 0);
	free(buffer);
	free(back);
}

TEST(virtio_blk_driver_reads_and_writes)
{
	static const enum fake_virtio_interface interfaces[] = {
	    FAKE_VIRTIO_MODERN, FAKE_VIRTIO_TRANSITIONAL, FAKE_VIRTIO_LEGACY};

	for (UINTN i = 0; i < 3; i++) {
		struct fake_virtio *d = fake_virtio_blk_create(interfaces[i], SECTORS);
		EFI_BLOCK_IO_PROTOCOL *bio;

		ASSERT(d != NULL);
		bio = connect(d);
		ASSERT(bio != NULL);
		read_and_write(d, bio);
		/* Through bounce buffers, at device addresses that are not the host's. */
		d->pci->faults.bounce_all = true;
		d->pci->faults.dma_offset = 1ULL << 40;
		read_and_write(d, bio);
		expect_released(d);
		fake_virtio_destroy(d);
	}
}

TEST(virtio_blk_driver_block_io2)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO2_TOKEN token = {0};
	UINT8 buffer[4096];
	UINT32 id;

	ASSERT(d != NULL);
	ASSERT(connect(d) != NULL);
	bio2 = block_io2(d);
	id = bio2->Media->MediaId;
	/* Without a token: done when it returns. */
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, id, 3, NULL, sizeof(buffer), buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 3 * 512, sizeof(buffer)));
	/* With one: its event is signalled with the outcome. */
	ASSERT_STATUS(event_create(0, 0, NULL, NULL, NULL, &token.Event), EFI_SUCCESS);
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, id, 9, &token, 512, buffer), EFI_SUCCESS);
	EXPECT_STATUS(event_check(token.Event), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 9 * 512, 512));
	memset(buffer, 0xe1, sizeof(buffer));
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, id, 9, &token, 512, buffer), EFI_SUCCESS);
	EXPECT_STATUS(event_check(token.Event), EFI_SUCCESS);
	EXPECT_EQ(d->disk[9 * 512 + 511], 0xe1);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, &token), EFI_SUCCESS);
	EXPECT_STATUS(event_check(token.Event), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(d->stats.flushes, 1);
	/* A device error is the token's status, not the call's. */
	d->faults.blk_fail_types = 1u << VIRTIO_BLK_T_IN;
	d->faults.blk_fail_status = VIRTIO_BLK_S_IOERR;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, id, 9, &token, 512, buffer), EFI_SUCCESS);
	EXPECT_STATUS(event_check(token.Event), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_DEVICE_ERROR);
	event_close(token.Event);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_splits_requests_by_the_device_limits)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buffer = malloc(100 * 512);
	UINTN reads;

	ASSERT(d != NULL && buffer != NULL);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_SEG_MAX, 4, 4);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_SIZE_MAX, 4, 4096);
	bio = connect(d);
	ASSERT(bio != NULL);
	/* 50 KiB in requests of at most 4 segments of 4 KiB: 16 + 16 + 16 + 2 KiB. */
	reads = d->stats.reads;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 10, 100 * 512, buffer),
		      EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 10 * 512, 100 * 512));
	EXPECT_EQ(d->stats.reads - reads, 4);
	EXPECT_EQ(d->stats.max_segments, 4);
	EXPECT_EQ(d->stats.max_segment_bytes, 4096);
	/* A DMA mapping that covers less than asked: requests of whole blocks of it. */
	d->pci->faults.map_limit = 3000;
	reads = d->stats.reads;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 40 * 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 0, 40 * 512));
	EXPECT_EQ(d->stats.reads - reads, 8);
	/* Less than a block, or no mapping at all: the transfer fails, nothing stays mapped. */
	d->pci->faults.map_limit = 100;
	EXPECT(EFI_ERROR(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer)));
	d->pci->faults.map_limit = 0;
	d->pci->faults.map_fail_at = d->pci->map_calls + 1;
	EXPECT(EFI_ERROR(bio->WriteBlocks(bio, bio->Media->MediaId, 0, 512, buffer)));
	EXPECT_EQ(d->pci->live_maps, 2); /* the ring and the request page */
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 512, buffer), EFI_SUCCESS);
	expect_released(d);
	fake_virtio_destroy(d);
	free(buffer);
}

TEST(virtio_blk_driver_block_sizes)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, 2048);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buffer[2 * 4096];

	ASSERT(d != NULL);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_BLK_SIZE, 4, 4096);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 4096);
	EXPECT_EQ(bio->Media->LastBlock, 255);
	/* Sectors stay 512 bytes on the wire: block 3 is sector 24. */
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, sizeof(buffer), buffer),
		      EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 3 * 4096, sizeof(buffer)));
	memset(buffer, 0x77, 4096);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 255, 4096, buffer), EFI_SUCCESS);
	EXPECT_EQ(d->disk[2048 * 512 - 1], 0x77);
	expect_released(d);
	/* A size that is no power of two, or no size at all: 512. */
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_BLK_SIZE, 4, 1000);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_EQ(bio->Media->LastBlock, 2047);
	expect_released(d);
	d->offered &= ~VIRTIO_BLK_F_BLK_SIZE;
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_BLK_SIZE, 4, 4096);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	expect_released(d);
	/* No capacity: no medium. */
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_CAPACITY, 8, 0);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT(!bio->Media->MediaPresent);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_NO_MEDIA);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_read_only_media)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buffer[512] = {0};

	ASSERT(d != NULL);
	d->offered |= VIRTIO_BLK_F_RO;
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT(bio->Media->ReadOnly);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 0, 512, buffer),
		      EFI_WRITE_PROTECTED);
	EXPECT_EQ(d->stats.writes, 0);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(d->stats.flushes, 0);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 0, 512));
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_flush_and_write_caching)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT(d != NULL);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT(bio->Media->WriteCaching);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(d->stats.flushes, 1);
	expect_released(d);
	/* The device says its cache writes through. */
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_WRITEBACK, 1, 0);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT(!bio->Media->WriteCaching);
	expect_released(d);
	/* No FLUSH: nothing to flush, and no request for it. */
	d->offered &= ~(VIRTIO_BLK_F_FLUSH | VIRTIO_BLK_F_CONFIG_WCE);
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT(!bio->Media->WriteCaching);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(d->stats.flushes, 1);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_device_errors)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buffer[1024];
	UINTN resets;

	ASSERT(d != NULL);
	/* A device that does not know GET_ID still starts. */
	d->faults.blk_fail_types = 1u << VIRTIO_BLK_T_GET_ID;
	d->faults.blk_fail_status = VIRTIO_BLK_S_UNSUPP;
	bio = connect(d);
	ASSERT(bio != NULL);
	resets = d->stats.resets;
	d->faults.blk_fail_types = 1u << VIRTIO_BLK_T_IN;
	d->faults.blk_fail_status = VIRTIO_BLK_S_IOERR;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 1024, buffer), EFI_DEVICE_ERROR);
	d->faults.blk_fail_types = 1u << VIRTIO_BLK_T_OUT;
	d->faults.blk_fail_status = VIRTIO_BLK_S_UNSUPP;
	memset(buffer, 0, sizeof(buffer));
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 0, 1024, buffer),
		      EFI_DEVICE_ERROR);
	EXPECT_EQ(d->disk[0], fake_virtio_disk_byte(0));
	d->faults.blk_fail_types = 1u << VIRTIO_BLK_T_FLUSH;
	d->faults.blk_fail_status = VIRTIO_BLK_S_IOERR;
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_DEVICE_ERROR);
	/* A failed request is the request's failure: the device goes on. */
	d->faults.blk_fail_types = 0;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 1024, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 0, 1024));
	EXPECT_EQ(d->stats.resets, resets);
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_broken_ring_and_reset)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buffer[512];
	UINTN resets, notifies;

	ASSERT(d != NULL);
	bio = connect(d);
	ASSERT(bio != NULL);
	/* The device returns a head that was never in flight: it is reset at once. */
	resets = d->stats.resets;
	d->faults.corrupt_used = true;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_DEVICE_ERROR);
	EXPECT_EQ(d->stats.resets, resets + 1);
	EXPECT_EQ(d->status, 0);
	d->faults.corrupt_used = false;
	/* Until a BlockIo Reset, every request fails without reaching the device. */
	notifies = d->stats.notifies;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_DEVICE_ERROR);
	EXPECT_EQ(d->stats.notifies, notifies);
	EXPECT_STATUS(bio->Reset(bio, FALSE), EFI_SUCCESS);
	EXPECT_EQ(d->status, LIVE);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 0, 512));
	/* A working device is left alone by a plain reset, and set up again by an extended
	 * one. */
	resets = d->stats.resets;
	EXPECT_STATUS(bio->Reset(bio, FALSE), EFI_SUCCESS);
	EXPECT_EQ(d->stats.resets, resets);
	EXPECT_STATUS(bio->Reset(bio, TRUE), EFI_SUCCESS);
	EXPECT(d->stats.resets > resets);
	EXPECT_EQ(d->status, LIVE);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 5, 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 5 * 512, 512));
	expect_released(d);
	fake_virtio_destroy(d);

	/* Without FLUSH, a broken device still says so on FlushBlocks. */
	d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	ASSERT(d != NULL);
	d->offered &= ~VIRTIO_BLK_F_FLUSH;
	bio = connect(d);
	ASSERT(bio != NULL);
	d->faults.corrupt_used = true;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_DEVICE_ERROR);
	d->faults.corrupt_used = false;
	expect_released(d);
	fake_virtio_destroy(d);
}

/* A reset that cannot bring the device back leaves it failed, not half torn down: the
 * next request must fail cleanly rather than use the request page the reset released. */
static void failed_reset_body(void)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buffer[512];

	ASSERT(d != NULL);
	bio = connect(d);
	ASSERT(bio != NULL);
	d->faults.refuse_features_ok = true;
	EXPECT_STATUS(bio->Reset(bio, TRUE), EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_DEVICE_ERROR);
	/* Once the device cooperates again, a reset brings it back. */
	d->faults.refuse_features_ok = false;
	EXPECT_STATUS(bio->Reset(bio, FALSE), EFI_SUCCESS);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 0, 512));
	expect_released(d);
	fake_virtio_destroy(d);
}

TEST(virtio_blk_driver_failed_reset_keeps_failing)
{
	RUN_ISOLATED(failed_reset_body);
}

TEST(virtio_blk_driver_polls_for_a_late_completion)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_TRANSITIONAL, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buffer[64 * 512];

	ASSERT(d != NULL);
	d->faults.late_us = 300;
	bio = connect(d);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 64, sizeof(buffer), buffer),
		      EFI_SUCCESS);
	EXPECT(holds_disk(buffer, 64 * 512, sizeof(buffer)));
	fake_virtio_settle(d);
	expect_released(d);
	fake_virtio_destroy(d);
}

/* ---- Start failures ---- */

static void no_attributes(struct fake_virtio *d)
{
	d->pci->faults.attributes_fail_ops = 1u << EfiPciIoAttributeOperationGet;
}

static void no_supported_attributes(struct fake_virtio *d)
{
	d->pci->faults.attributes_fail_ops = 1u << EfiPciIoAttributeOperationSupported;
}

static void no_enable(struct fake_virtio *d)
{
	d->pci->faults.attributes_fail_ops = 1u << EfiPciIoAttributeOperationEnable;
}

static void no_capabilities(struct fake_virtio *d)
{
	fake_pci_io_config_set(d->pci, PCI_STATUS_OFFSET, 2, 0);
}

static void no_version_1(struct fake_virtio *d)
{
	d->offered &= ~VIRTIO_F_VERSION_1;
}

static void refuse_features(struct fake_virtio *d)
{
	d->faults.refuse_features_ok = true;
}

static void stuck_reset(struct fake_virtio *d)
{
	d->faults.reset_stuck = true;
}

static void no_queue(struct fake_virtio *d)
{
	d->queues[0].max = 0;
}

static void tiny_queue(struct fake_virtio *d)
{
	d->queues[0].max = 2;
}

static void enable_ignored(struct fake_virtio *d)
{
	d->faults.ignore_enable = true;
}

static void no_ring_memory(struct fake_virtio *d)
{
	d->pci->faults.alloc_fail_at = d->pci->alloc_calls + 1;
}

static void no_request_page(struct fake_virtio *d)
{
	d->pci->faults.alloc_fail_at = d->pci->alloc_calls + 2;
}

static void no_ring_mapping(struct fake_virtio *d)
{
	d->pci->faults.map_fail_at = d->pci->map_calls + 1;
}

static void no_request_page_mapping(struct fake_virtio *d)
{
	d->pci->faults.map_fail_at = d->pci->map_calls + 2;
}

static void short_mapping(struct fake_virtio *d)
{
	d->pci->faults.common_map_short = true;
}

static EFI_BLOCK_IO2_PROTOCOL foreign_block_io2;

/* Someone else's BlockIo2 already on the handle: the driver's cannot be installed. */
static void block_io2_taken(struct fake_virtio *d)
{
	protocol_install(&d->pci->handle, &block_io2_guid, &foreign_block_io2);
}

static void undo(struct fake_virtio *d)
{
	fake_virtio_clear_faults(d);
	d->offered |= VIRTIO_F_VERSION_1;
	d->queues[0].max = 256;
}

TEST(virtio_blk_driver_start_failures_unwind)
{
	static void (*const faults[])(struct fake_virtio *) = {
	    no_attributes,   no_supported_attributes, no_enable,      no_capabilities,
	    no_version_1,    refuse_features,	      stuck_reset,    no_queue,
	    tiny_queue,	     enable_ignored,	      no_ring_memory, no_request_page,
	    no_ring_mapping, no_request_page_mapping, short_mapping,  block_io2_taken,
	};

	for (UINTN i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);

		ASSERT(d != NULL);
		faults[i](d);
		if (!EXPECT(connect(d) == NULL))
			printf("    fault %u: started anyway\n", (unsigned)i);
		EXPECT(block_io(d) == NULL);
		d->faults.reset_stuck = false;
		protocol_uninstall(d->pci->handle, &block_io2_guid, &foreign_block_io2);
		expect_clean(d);
		/* Nothing held, nothing broken: once the fault is gone, the device starts. */
		undo(d);
		if (!EXPECT(connect(d) != NULL))
			printf("    fault %u: no start afterwards\n", (unsigned)i);
		expect_released(d);
		fake_virtio_destroy(d);
	}
}

/* ---- Stop ---- */

TEST(virtio_blk_driver_stop_waits_for_its_users)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_DRIVER_BINDING_PROTOCOL *db = binding();
	UINT8 buffer[512];
	void *held;

	ASSERT(d != NULL);
	bio = connect(d);
	ASSERT(bio != NULL);
	/* Someone holds BlockIo exclusively: Stop cannot take it away and changes nothing. */
	ASSERT_STATUS(protocol_open(d->pci->handle, &block_io_guid, &held, core_image_handle, NULL,
				    EFI_OPEN_PROTOCOL_EXCLUSIVE),
		      EFI_SUCCESS);
	EXPECT(EFI_ERROR(db->Stop(db, d->pci->handle, 0, NULL)));
	EXPECT(block_io(d) == bio);
	EXPECT_EQ(d->status, LIVE);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buffer), EFI_SUCCESS);
	protocol_close(d->pci->handle, &block_io_guid, core_image_handle, NULL);
	/* Start again on a started device: refused, the running one unharmed. */
	EXPECT(EFI_ERROR(db->Start(db, d->pci->handle, NULL)));
	EXPECT_EQ(d->status, LIVE);
	expect_released(d);
	/* Stop on a device the driver does not manage. */
	EXPECT(EFI_ERROR(db->Stop(db, d->pci->handle, 0, NULL)));
	virtio_check_no_errors(d);
	fake_virtio_destroy(d);
}

static void exit_boot_services_body(void)
{
	struct fake_virtio *d = fake_virtio_blk_create(FAKE_VIRTIO_MODERN, SECTORS);

	ASSERT(d != NULL);
	ASSERT(connect(d) != NULL);
	virtio_check_exit_boot_services(d);
}

TEST(virtio_blk_driver_resets_the_device_at_exit_boot_services)
{
	RUN_ISOLATED(exit_boot_services_body);
}
