/* The IDE driver (drivers/ide over the shared ATA layer, drivers/ata) through the UEFI driver
 * model on a fake controller (fake_ide.h): children with Ata() paths for each drive that
 * answers, in compatibility mode (legacy ports) and native mode (BARs); disk reads and
 * writes by PIO with 28- and 48-bit commands; the error register and timeouts; ATAPI media
 * (present, absent, changed) and a drive that sends more than it was asked for; a remaining
 * device path naming one drive; everything given back at Stop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "fake_ide.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/disk_info.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/util.h>

#define ATTRIBUTES_BEFORE EFI_PCI_IO_ATTRIBUTE_IO
#define PCI_DEV 0x1

static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;

static struct fake_ide *controller(bool native)
{
	struct fake_ide *ide;

	test_install_builtin_drivers();
	ide = fake_ide_create(PCI_DEV, native);
	if (ide)
		ide->pci->attributes = ATTRIBUTES_BEFORE;
	return ide;
}

static EFI_DEVICE_PATH_PROTOCOL *ata_node(UINT8 channel, UINT8 drive)
{
	static ATAPI_DEVICE_PATH node;

	node = (ATAPI_DEVICE_PATH){
	    .Header = {MESSAGING_DEVICE_PATH, MSG_ATAPI_DP, {sizeof(ATAPI_DEVICE_PATH), 0}},
	    .PrimarySecondary = channel,
	    .SlaveMaster = drive,
	};
	return &node.Header;
}

/* The BlockIo of the child at PciRoot(0x0)/Pci(0x1,0x1)/Ata(channel,drive,0), or NULL. */
static EFI_BLOCK_IO_PROTOCOL *child(struct fake_ide *ide, UINT8 channel, UINT8 drive)
{
	EFI_DEVICE_PATH_PROTOCOL *want =
	    dp_append_node(&ide->pci->path.root.Header, ata_node(channel, drive));
	EFI_DEVICE_PATH_PROTOCOL *rest = want;
	EFI_HANDLE handle = NULL;
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;

	if (!EFI_ERROR(handle_locate_device_path(&bio_guid, &rest, &handle)) && dp_is_end(rest))
		protocol_get(handle, &bio_guid, (void **)&bio);
	pool_free(want);
	return bio;
}

static EFI_STATUS connect(struct fake_ide *ide)
{
	return driver_connect(ide->pci->handle, NULL, NULL, false);
}

static void expect_no_errors(struct fake_ide *ide)
{
	if (!EXPECT_EQ(ide->pci->errors, 0))
		printf("    the fake saw: %s\n", ide->pci->last_error);
}

static void expect_released(struct fake_ide *ide)
{
	EXPECT_STATUS(driver_disconnect(ide->pci->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(fake_pci_io_unclaimed(ide->pci));
	EXPECT_EQ(ide->pci->attributes, ATTRIBUTES_BEFORE);
	for (UINT8 i = 0; i < 4; i++)
		EXPECT(child(ide, i / 2, i % 2) == NULL);
	expect_no_errors(ide);
}

/* Bytes whose every 8 hold their own offset plus seed. */
static UINT8 *image(UINT64 bytes, UINT64 seed)
{
	UINT8 *p = malloc(bytes);

	for (UINT64 off = 0; p && off + 8 <= bytes; off += 8) {
		UINT64 v = off + seed;
		memcpy(p + off, &v, 8);
	}
	return p;
}

static bool image_at(const UINT8 *buffer, UINT64 bytes, UINT64 offset, UINT64 seed)
{
	for (UINT64 i = 0; i + 8 <= bytes; i += 8) {
		UINT64 v;
		memcpy(&v, buffer + i, 8);
		if (v != offset + i + seed)
			return false;
	}
	return true;
}

TEST(ide_gives_each_drive_an_ata_child_on_the_legacy_ports)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disk = image(1024 * 512, 1), *cd = image(64 * 2048, 2);
	EFI_BLOCK_IO_PROTOCOL *d, *c;

	fake_ide_attach_disk(ide, 0, 0, disk, 1024);
	fake_ide_attach_cd(ide, 1, 0, cd, 64);
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	d = child(ide, 0, 0);
	c = child(ide, 1, 0);
	ASSERT(d && c);
	EXPECT(!child(ide, 0, 1) && !child(ide, 1, 1));
	EXPECT_EQ(d->Media->BlockSize, 512);
	EXPECT_EQ(d->Media->LastBlock, 1023);
	EXPECT(!d->Media->RemovableMedia && !d->Media->ReadOnly);
	EXPECT_EQ(c->Media->BlockSize, 2048);
	EXPECT_EQ(c->Media->LastBlock, 63);
	EXPECT(c->Media->RemovableMedia && c->Media->ReadOnly && c->Media->MediaPresent);
	EXPECT(ide->pci->attributes & EFI_PCI_IO_ATTRIBUTE_IDE_PRIMARY_IO);
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
	free(cd);
}

/* A command's task file reaches both drives: the slave's signature must be read before the
 * master is identified. */
TEST(ide_finds_master_and_slave_disks)
{
	struct fake_ide *ide = controller(false);
	UINT8 *a = image(256 * 512, 3), *b = image(512 * 512, 4);
	UINT8 buf[512];
	EFI_BLOCK_IO_PROTOCOL *slave;

	fake_ide_attach_disk(ide, 0, 0, a, 256);
	fake_ide_attach_disk(ide, 0, 1, b, 512);
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	EXPECT(child(ide, 0, 0) != NULL);
	slave = child(ide, 0, 1);
	ASSERT(slave != NULL);
	EXPECT_EQ(slave->Media->LastBlock, 511);
	ASSERT_STATUS(slave->ReadBlocks(slave, slave->Media->MediaId, 7, sizeof(buf), buf),
		      EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 7 * 512, 4));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(a);
	free(b);
}

TEST(ide_native_mode_uses_the_bars)
{
	struct fake_ide *ide = controller(true);
	UINT8 *disk = image(128 * 512, 5);
	UINT8 buf[4 * 512];
	EFI_BLOCK_IO_PROTOCOL *d;

	fake_ide_attach_disk(ide, 1, 1, disk, 128);
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	d = child(ide, 1, 1);
	ASSERT(d != NULL);
	ASSERT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 100, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 100 * 512, 5));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
}

TEST(ide_disk_reads_and_writes_with_48_bit_commands)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disk = image(2048 * 512, 6), *src = image(300 * 512, 99);
	UINT8 *buf = malloc(300 * 512);
	struct fake_ide_drive *drv = fake_ide_attach_disk(ide, 0, 0, disk, 2048);
	EFI_BLOCK_IO_PROTOCOL *d;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	d = child(ide, 0, 0);
	ASSERT(d != NULL);
	ASSERT_STATUS(d->WriteBlocks(d, d->Media->MediaId, 1000, 300 * 512, src), EFI_SUCCESS);
	EXPECT_EQ(drv->last_command, 0x34);
	EXPECT(memcmp(disk + 1000 * 512, src, 300 * 512) == 0);
	EXPECT(image_at(disk + 999 * 512, 512, 999 * 512, 6));
	EXPECT(image_at(disk + 1300 * 512, 512, 1300 * 512, 6));
	ASSERT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 1000, 300 * 512, buf), EFI_SUCCESS);
	EXPECT_EQ(drv->last_command, 0x24);
	EXPECT(memcmp(buf, src, 300 * 512) == 0);
	EXPECT_STATUS(d->FlushBlocks(d), EFI_SUCCESS);
	EXPECT_EQ(drv->last_command, 0xea);
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
	free(src);
	free(buf);
}

TEST(ide_disk_without_lba48_splits_into_28_bit_commands)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disk = image(1024 * 512, 7), *buf = malloc(600 * 512);
	struct fake_ide_drive *drv = fake_ide_attach_disk(ide, 0, 0, disk, 1024);
	EFI_BLOCK_IO_PROTOCOL *d;
	UINT32 before;

	drv->lba28 = true;
	drv->identify[83] = 0x4000;
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	d = child(ide, 0, 0);
	ASSERT(d != NULL);
	before = drv->commands;
	ASSERT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 10, 600 * 512, buf), EFI_SUCCESS);
	EXPECT_EQ(drv->commands - before, 3); /* 256 + 256 + 88 sectors */
	EXPECT_EQ(drv->last_command, 0x20);
	EXPECT(image_at(buf, 600 * 512, 10 * 512, 7));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
	free(buf);
}

TEST(ide_aborted_command_is_a_device_error)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disk = image(64 * 512, 8), buf[512];
	struct fake_ide_drive *drv = fake_ide_attach_disk(ide, 0, 0, disk, 64);
	EFI_BLOCK_IO_PROTOCOL *d;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	d = child(ide, 0, 0);
	ASSERT(d != NULL);
	drv->fail_command = 0x24;
	EXPECT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 0, sizeof(buf), buf), EFI_DEVICE_ERROR);
	drv->fail_command = 0;
	EXPECT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 0, sizeof(buf), buf), EFI_SUCCESS);
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
}

TEST(ide_hung_drive_times_out_and_the_channel_is_reset)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disk = image(64 * 512, 9), buf[512];
	struct fake_ide_drive *drv = fake_ide_attach_disk(ide, 0, 0, disk, 64);
	EFI_BLOCK_IO_PROTOCOL *d;
	UINT32 resets;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	d = child(ide, 0, 0);
	ASSERT(d != NULL);
	resets = ide->channels[0].resets;
	drv->hang = true;
	EXPECT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 0, sizeof(buf), buf), EFI_DEVICE_ERROR);
	EXPECT_EQ(ide->channels[0].resets, resets + 1);
	EXPECT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 3, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 3 * 512, 9));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
}

TEST(ide_cd_reads_and_follows_media_changes)
{
	struct fake_ide *ide = controller(false);
	UINT8 *first = image(32 * 2048, 10), *second = image(16 * 2048, 11), buf[3 * 2048];
	struct fake_ide_drive *drv = fake_ide_attach_cd(ide, 1, 1, first, 32);
	EFI_BLOCK_IO_PROTOCOL *c;
	UINT32 id;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	c = child(ide, 1, 1);
	ASSERT(c != NULL);
	id = c->Media->MediaId;
	ASSERT_STATUS(c->ReadBlocks(c, id, 5, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 5 * 2048, 10));
	EXPECT_STATUS(c->WriteBlocks(c, id, 5, sizeof(buf), buf), EFI_WRITE_PROTECTED);
	fake_ide_change_cd(drv, second, 16);
	EXPECT_STATUS(c->ReadBlocks(c, id, 5, sizeof(buf), buf), EFI_MEDIA_CHANGED);
	c = child(ide, 1, 1); /* reinstalled */
	ASSERT(c != NULL);
	EXPECT(c->Media->MediaId != id);
	EXPECT_EQ(c->Media->LastBlock, 15);
	ASSERT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 1, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 2048, 11));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(first);
	free(second);
}

TEST(ide_cd_without_medium_says_no_media_until_one_comes)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disc = image(8 * 2048, 12), buf[2048];
	struct fake_ide_drive *drv = fake_ide_attach_cd(ide, 0, 0, NULL, 0);
	EFI_BLOCK_IO_PROTOCOL *c;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	c = child(ide, 0, 0);
	ASSERT(c != NULL);
	EXPECT(!c->Media->MediaPresent);
	EXPECT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 0, sizeof(buf), buf), EFI_NO_MEDIA);
	fake_ide_change_cd(drv, disc, 8);
	EXPECT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 0, sizeof(buf), buf), EFI_MEDIA_CHANGED);
	c = child(ide, 0, 0);
	ASSERT(c != NULL && c->Media->MediaPresent);
	ASSERT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 7, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 7 * 2048, 12));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disc);
}

/* Outside data: a drive announcing more bytes per block than asked gets the rest drained;
 * nothing lands beyond the caller's buffer. */
TEST(ide_cd_sending_more_than_asked_writes_nothing_beyond_the_buffer)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disc = image(8 * 2048, 13);
	UINT8 *buf = malloc(2048 + 64);
	struct fake_ide_drive *drv = fake_ide_attach_cd(ide, 0, 0, disc, 8);
	EFI_BLOCK_IO_PROTOCOL *c;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	c = child(ide, 0, 0);
	ASSERT(c != NULL);
	drv->extra_bytes = 64;
	memset(buf, 0xa5, 2048 + 64);
	ASSERT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 2, 2048, buf), EFI_SUCCESS);
	EXPECT(image_at(buf, 2048, 2 * 2048, 13));
	for (int i = 0; i < 64; i++)
		EXPECT_EQ(buf[2048 + i], 0xa5);
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disc);
	free(buf);
}

/* A drive that offers a data block of 0 bytes fails the request; the channel is reset so
 * that the next command is not refused for the data still pending. */
TEST(ide_cd_offering_empty_blocks_fails_and_recovers)
{
	struct fake_ide *ide = controller(false);
	UINT8 *disc = image(8 * 2048, 17), buf[2048];
	struct fake_ide_drive *drv = fake_ide_attach_cd(ide, 0, 0, disc, 8);
	EFI_BLOCK_IO_PROTOCOL *c;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	c = child(ide, 0, 0);
	ASSERT(c != NULL);
	drv->zero_blocks = true;
	EXPECT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 1, sizeof(buf), buf), EFI_DEVICE_ERROR);
	drv->zero_blocks = false;
	c = child(ide, 0, 0); /* the reset's unit attention may have renewed the media */
	ASSERT(c != NULL);
	EXPECT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 1, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 2048, 17));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disc);
}

TEST(ide_remaining_path_names_one_drive)
{
	struct fake_ide *ide = controller(false);
	UINT8 *a = image(64 * 512, 14), *b = image(64 * 512, 15);
	EFI_DEVICE_PATH_PROTOCOL *remaining = dp_append_node(NULL, ata_node(1, 0));

	fake_ide_attach_disk(ide, 0, 0, a, 64);
	fake_ide_attach_disk(ide, 1, 0, b, 64);
	ASSERT_STATUS(driver_connect(ide->pci->handle, NULL, remaining, false), EFI_SUCCESS);
	EXPECT(child(ide, 1, 0) != NULL);
	EXPECT(child(ide, 0, 0) == NULL);
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	EXPECT(child(ide, 0, 0) != NULL);
	pool_free(remaining);
	expect_released(ide);
	fake_ide_destroy(ide);
	free(a);
	free(b);
}

TEST(ide_empty_controller_starts_without_children)
{
	struct fake_ide *ide = controller(false);

	EXPECT_STATUS(connect(ide), EFI_SUCCESS);
	EXPECT(!fake_pci_io_unclaimed(ide->pci));
	expect_released(ide);
	fake_ide_destroy(ide);
}

static EFI_DISK_INFO_PROTOCOL *disk_info(struct fake_ide *ide, UINT8 channel, UINT8 drive)
{
	static const EFI_GUID guid = EFI_DISK_INFO_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *want =
	    dp_append_node(&ide->pci->path.root.Header, ata_node(channel, drive));
	EFI_DEVICE_PATH_PROTOCOL *rest = want;
	EFI_HANDLE handle = NULL;
	EFI_DISK_INFO_PROTOCOL *info = NULL;

	if (!EFI_ERROR(handle_locate_device_path(&guid, &rest, &handle)) && dp_is_end(rest))
		protocol_get(handle, &guid, (void **)&info);
	pool_free(want);
	return info;
}

TEST(ide_disk_info_gives_identify_data_and_the_drive_position)
{
	static const EFI_GUID ide_interface = EFI_DISK_INFO_IDE_INTERFACE_GUID;
	struct fake_ide *ide = controller(false);
	UINT8 *disk = image(64 * 512, 16);
	struct fake_ide_drive *drv = fake_ide_attach_disk(ide, 1, 1, disk, 64);
	EFI_DISK_INFO_PROTOCOL *info;
	UINT16 id[256 + 8];
	UINT32 size = 100, channel = 9, device = 9;
	UINT8 sense[32], count;

	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	info = disk_info(ide, 1, 1);
	ASSERT(info != NULL);
	EXPECT(!memcmp(&info->Interface, &ide_interface, sizeof(EFI_GUID)));
	EXPECT_STATUS(info->Identify(info, id, &size), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 512);
	size = sizeof(id);
	ASSERT_STATUS(info->Identify(info, id, &size), EFI_SUCCESS);
	EXPECT_EQ(size, 512);
	EXPECT(!memcmp(id, drv->identify, 512));
	ASSERT_STATUS(info->WhichIde(info, &channel, &device), EFI_SUCCESS);
	EXPECT_EQ(channel, 1);
	EXPECT_EQ(device, 1);
	size = sizeof(sense);
	EXPECT_STATUS(info->Inquiry(info, sense, &size), EFI_NOT_FOUND);
	EXPECT_STATUS(info->SenseData(info, sense, &size, &count), EFI_NOT_FOUND);
	expect_released(ide);
	fake_ide_destroy(ide);
	free(disk);
}

TEST(ide_dma_reads_and_writes_through_the_prd_table)
{
	struct fake_ide *ide = controller(false);
	UINT64 sectors = 24 * 1024; /* 12 MiB: a 9 MiB request takes two commands */
	UINT8 *disk = image(sectors * 512, 18), *src = image(9 << 20, 77);
	UINT8 *buf = malloc((9 << 20) + 1);
	struct fake_ide_drive *drv;
	EFI_BLOCK_IO_PROTOCOL *d;
	UINT32 before;

	fake_ide_enable_dma(ide);
	drv = fake_ide_attach_disk(ide, 0, 1, disk, sectors);
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	EXPECT(ide->pci->attributes & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	d = child(ide, 0, 1);
	ASSERT(d != NULL);
	before = ide->channels[0].dma_commands;
	/* An odd start: the regions must still stop at each 64 KiB boundary. */
	ASSERT_STATUS(d->WriteBlocks(d, d->Media->MediaId, 33, 9 << 20, src), EFI_SUCCESS);
	EXPECT_EQ(drv->last_command, 0x35);
	EXPECT(memcmp(disk + 33 * 512, src, 9 << 20) == 0);
	ASSERT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 33, 9 << 20, buf + 1),
		      EFI_INVALID_PARAMETER);
	ASSERT_STATUS(d->ReadBlocks(d, d->Media->MediaId, 33, 9 << 20, buf), EFI_SUCCESS);
	EXPECT_EQ(drv->last_command, 0x25);
	EXPECT(memcmp(buf, src, 9 << 20) == 0);
	EXPECT_EQ(ide->channels[0].dma_commands - before, 4);
	EXPECT_EQ(ide->pci->live_maps, 1); /* the PRD page */
	expect_released(ide);
	EXPECT_EQ(ide->pci->live_maps, 0);
	EXPECT_EQ(ide->pci->live_buffers, 0);
	fake_ide_destroy(ide);
	free(disk);
	free(src);
	free(buf);
}

/* A DMA packet the drive fails right after the CDB never moves data: the bus master the
 * driver started stays active (QEMU's does), and the failure must still be seen and
 * explained by the sense data, not waited for until the timeout. */
TEST(ide_dma_cd_failing_packet_is_explained_by_its_sense)
{
	struct fake_ide *ide = controller(false);
	UINT8 *first = image(16 * 2048, 19), *second = image(8 * 2048, 20), buf[4 * 2048];
	struct fake_ide_drive *drv;
	EFI_BLOCK_IO_PROTOCOL *c;
	UINT32 id;
	UINT64 start;

	fake_ide_enable_dma(ide);
	drv = fake_ide_attach_cd(ide, 1, 0, first, 16);
	ASSERT_STATUS(connect(ide), EFI_SUCCESS);
	c = child(ide, 1, 0);
	ASSERT(c != NULL);
	id = c->Media->MediaId;
	ASSERT_STATUS(c->ReadBlocks(c, id, 3, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 3 * 2048, 19));
	EXPECT(ide->channels[1].dma_commands > 0);
	fake_ide_change_cd(drv, second, 8);
	start = test_now_ns();
	EXPECT_STATUS(c->ReadBlocks(c, id, 3, sizeof(buf), buf), EFI_MEDIA_CHANGED);
	EXPECT(test_now_ns() - start < 1000000000ULL);
	c = child(ide, 1, 0);
	ASSERT(c != NULL);
	ASSERT_STATUS(c->ReadBlocks(c, c->Media->MediaId, 4, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(image_at(buf, sizeof(buf), 4 * 2048, 20));
	expect_released(ide);
	fake_ide_destroy(ide);
	free(first);
	free(second);
}
