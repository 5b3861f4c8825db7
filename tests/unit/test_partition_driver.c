/* The partition driver (drivers/partition) through the driver model: children with a
 * bounded BlockIo, PartitionInfo, HD() device paths and the ESP tag; teardown; and a disk
 * without a table left for a file system driver. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "disk_builder.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <efi/protocol/disk_io.h>
#include <ember/lib/str.h>

#define BLOCKS 4096

static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static const EFI_GUID disk_io_guid = EFI_DISK_IO_PROTOCOL_GUID;
static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static const EFI_GUID info_guid = EFI_PARTITION_INFO_PROTOCOL_GUID;
static const EFI_GUID esp_guid = EFI_PART_TYPE_EFI_SYSTEM_PART_GUID;
static const EFI_GUID data_type = {
    0x0fc63daf, 0x8483, 0x4772, {0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4}};

static UINT64 block_tag(const UINT8 *block)
{
	UINT64 v;

	memcpy(&v, block + 500, sizeof(v));
	return v;
}

/* The children (PartitionInfo handles) whose device path starts with the disk's. */
static UINTN children_of(struct test_block_dev *dev, EFI_HANDLE *out, UINTN max)
{
	EFI_HANDLE *handles;
	UINTN count, n = 0;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &info_guid, NULL, &count, &handles)))
		return 0;
	for (UINTN i = 0; i < count; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		if (!EFI_ERROR(protocol_get(handles[i], &dp_guid, (void **)&path)) &&
		    dp_starts_with(path, &dev->path.vendor.Header) && n < max)
			out[n++] = handles[i];
	}
	pool_free(handles);
	return n;
}

/* A GPT image: the ESP at 100-199 and data at 300-999, blocks tagged with their LBA. */
static void gpt_image(struct mem_disk *d)
{
	struct gpt_part parts[] = {{esp_guid, 100, 199, 0, 0}, {data_type, 300, 999, 0, 1}};

	mem_disk_init(d, BLOCKS, 512);
	gpt_write(d, parts, 2, 128, 128);
	for (UINT64 lba = 100; lba < 1000; lba++) /* inside the partitions only */
		memcpy(mem_disk_block(d, lba) + 500, &lba, sizeof(lba));
}

/* The image as a block device (not yet connected). */
static struct test_block_dev *gpt_disk(struct mem_disk *d)
{
	gpt_image(d);
	test_install_builtin_drivers();
	return test_block_dev_create(d->data, d->size, 512, 0);
}

TEST(partition_children_of_a_gpt_disk)
{
	struct mem_disk d;
	struct test_block_dev *dev = gpt_disk(&d);
	EFI_HANDLE kids[8];
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_PARTITION_INFO_PROTOCOL *info;
	EFI_DEVICE_PATH_PROTOCOL *path;
	HARDDRIVE_DEVICE_PATH *hd;
	void *p;
	UINT8 block[512];

	ASSERT(dev != NULL);
	driver_connect(dev->handle, NULL, NULL, true);
	ASSERT_EQ(children_of(dev, kids, 8), 2);
	ASSERT_STATUS(protocol_get(kids[0], &bio_guid, (void **)&bio), EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(kids[0], &info_guid, (void **)&info), EFI_SUCCESS);
	if (!info->System) { /* handle order is not partition order */
		EFI_HANDLE t = kids[0];
		kids[0] = kids[1];
		kids[1] = t;
		protocol_get(kids[0], &bio_guid, (void **)&bio);
		protocol_get(kids[0], &info_guid, (void **)&info);
	}
	EXPECT_EQ(info->Type, PARTITION_TYPE_GPT);
	EXPECT_EQ(info->Info.Gpt.StartingLBA, 100);
	EXPECT_STATUS(protocol_get(kids[0], &esp_guid, &p), EFI_SUCCESS);
	EXPECT(p == NULL);
	EXPECT_STATUS(protocol_get(kids[1], &esp_guid, &p), EFI_UNSUPPORTED);
	/* Each partition got its own Disk I/O (the connect was recursive). */
	EXPECT_STATUS(protocol_get(kids[0], &disk_io_guid, &p), EFI_SUCCESS);
	/* The device path: the disk's, then HD(1,GPT,...). */
	ASSERT_STATUS(protocol_get(kids[0], &dp_guid, (void **)&path), EFI_SUCCESS);
	hd = (HARDDRIVE_DEVICE_PATH *)((UINT8 *)path + sizeof(dev->path) - 4);
	EXPECT_EQ(hd->Header.SubType, MEDIA_HARDDRIVE_DP);
	EXPECT_EQ(hd->PartitionNumber, 1);
	EXPECT_EQ(hd->PartitionStart, 100);
	EXPECT(dp_is_end(dp_next(&hd->Header)));
	/* The BlockIo: shifted and bounded. */
	EXPECT(bio->Media->LogicalPartition);
	EXPECT_EQ(bio->Media->LastBlock, 99);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_EQ(bio->Revision, EFI_BLOCK_IO_PROTOCOL_REVISION3);
	EXPECT_STATUS(bio->ReadBlocks(bio, 7, 0, 512, block), EFI_SUCCESS);
	EXPECT_EQ(block_tag(block), 100);
	EXPECT_STATUS(bio->ReadBlocks(bio, 7, 99, 512, block), EFI_SUCCESS);
	EXPECT_EQ(block_tag(block), 199);
	EXPECT_STATUS(bio->ReadBlocks(bio, 7, 100, 512, block), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 7, 99, 1024, block), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, 7, 0, 100, block), EFI_BAD_BUFFER_SIZE);
	EXPECT_STATUS(bio->ReadBlocks(bio, 8, 0, 512, block), EFI_MEDIA_CHANGED);
	memset(block, 0xab, sizeof(block));
	EXPECT_STATUS(bio->WriteBlocks(bio, 7, 5, 512, block), EFI_SUCCESS);
	EXPECT_EQ(mem_disk_block(&d, 105)[0], 0xab);
	EXPECT_EQ(mem_disk_block(&d, 104)[0], 0);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(dev->flushes, 1);

	/* Disconnecting the disk takes the children away. */
	EXPECT_STATUS(driver_disconnect(dev->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	EXPECT(!handle_is_valid(kids[0]) || EFI_ERROR(protocol_get(kids[0], &bio_guid, &p)));
	/* And connecting again brings them back. */
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 2);
	test_block_dev_destroy(dev);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	mem_disk_free(&d);
}

TEST(partition_damaged_gpt_has_no_children)
{
	struct mem_disk d;
	struct test_block_dev *dev;
	EFI_HANDLE kids[8];

	mem_disk_init(&d, BLOCKS, 512);
	{
		struct gpt_part parts[] = {{esp_guid, 100, 199, 0, 0}};
		gpt_write(&d, parts, 1, 128, 128);
	}
	mem_disk_block(&d, 2)[56] ^= 1;
	mem_disk_block(&d, BLOCKS - 33)[56] ^= 1;
	test_install_builtin_drivers();
	dev = test_block_dev_create(d.data, d.size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
}

/* A disk with no partition table: the partition driver lets go of its Disk I/O, so a file
 * system driver can open it BY_DRIVER and take the whole disk. */
TEST(partition_no_table_leaves_disk_free)
{
	struct mem_disk d;
	struct test_block_dev *dev;
	EFI_HANDLE kids[8], agent = NULL;
	static int agent_iface;
	static const EFI_GUID agent_guid = {0xa6e47, 1, 2, {3}};
	void *p;

	mem_disk_init(&d, BLOCKS, 512);
	test_install_builtin_drivers();
	dev = test_block_dev_create(d.data, d.size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	ASSERT_STATUS(protocol_install(&agent, &agent_guid, &agent_iface), EFI_SUCCESS);
	EXPECT_STATUS(protocol_open(dev->handle, &disk_io_guid, &p, agent, dev->handle,
				    EFI_OPEN_PROTOCOL_BY_DRIVER),
		      EFI_SUCCESS);
	protocol_close(dev->handle, &disk_io_guid, agent, dev->handle);
	protocol_uninstall(agent, &agent_guid, &agent_iface);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
}

TEST(partition_mbr_and_cd_children)
{
	struct mem_disk d;
	struct test_block_dev *dev;
	EFI_HANDLE kids[8];
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_DEVICE_PATH_PROTOCOL *path;

	mem_disk_init(&d, BLOCKS, 512);
	mbr_set(&d, 0, 0, 0x83, 64, 64);
	mbr_set(&d, 0, 1, EXTENDED_DOS_PARTITION, 1000, 1000);
	mbr_set(&d, 1000, 0, EFI_PARTITION, 10, 90);
	test_install_builtin_drivers();
	dev = test_block_dev_create(d.data, d.size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 2);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);

	mem_disk_init(&d, 1000, 2048);
	iso_write(&d, 0xef, true);
	iso_entry(&d, 1, 0x88, 0, 8, 100);
	dev = test_block_dev_create(d.data, d.size, 2048, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	ASSERT_EQ(children_of(dev, kids, 8), 1);
	ASSERT_STATUS(protocol_get(kids[0], &bio_guid, (void **)&bio), EFI_SUCCESS);
	EXPECT_EQ(bio->Media->BlockSize, 2048);
	EXPECT_EQ(bio->Media->LastBlock, 1);
	ASSERT_STATUS(protocol_get(kids[0], &dp_guid, (void **)&path), EFI_SUCCESS);
	path = (EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)path + sizeof(dev->path) - 4);
	EXPECT_EQ(path->SubType, MEDIA_CDROM_DP);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
}

/* A disk whose primary GPT is gone: the children come from the backup, and the driver
 * restores the primary (5.3.2), unless the disk is read-only. */
TEST(partition_driver_restores_a_damaged_gpt)
{
	struct mem_disk d, reference;
	struct test_block_dev *dev;
	EFI_HANDLE kids[8];

	test_install_builtin_drivers();
	gpt_image(&reference);
	for (int read_only = 1; read_only >= 0; read_only--) {
		gpt_image(&d);
		memset(mem_disk_block(&d, 1), 0, 512);
		dev = test_block_dev_create(d.data, d.size, 512, 0);
		dev->media.ReadOnly = read_only;
		driver_connect(dev->handle, NULL, NULL, true);
		EXPECT_EQ(children_of(dev, kids, 8), 2);
		if (read_only)
			EXPECT(mem_is_zero(mem_disk_block(&d, 1), 512));
		else
			EXPECT(!memcmp(d.data, reference.data, d.size));
		test_block_dev_destroy(dev);
		mem_disk_free(&d);
	}
	/* The same for the backup. */
	gpt_image(&d);
	memset(mem_disk_block(&d, BLOCKS - 1), 0, 512);
	dev = test_block_dev_create(d.data, d.size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 2);
	EXPECT(!memcmp(d.data, reference.data, d.size));
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
	mem_disk_free(&reference);
}

/* Issue 10's hostile disk through the driver: no children, and not a byte written. */
TEST(partition_driver_leaves_a_hostile_gpt_alone)
{
	struct mem_disk d;
	struct test_block_dev *dev;
	EFI_HANDLE kids[8];
	EFI_PARTITION_TABLE_HEADER *h;
	UINT64 moved = BLOCKS - 1 - 32 - 9;
	UINT8 *before;

	test_install_builtin_drivers();
	gpt_image(&d);
	memcpy(mem_disk_block(&d, moved), mem_disk_block(&d, 2), 32 * 512);
	h = gpt_header(&d, 1);
	h->PartitionEntryLBA = moved;
	h->LastUsableLBA = moved - 1;
	gpt_fix_header_crc(&d, 1);
	memset(mem_disk_block(&d, BLOCKS - 1), 0, 512);
	before = malloc(d.size);
	memcpy(before, d.data, d.size);
	dev = test_block_dev_create(d.data, d.size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	EXPECT_EQ(dev->writes, 0);
	EXPECT(!memcmp(d.data, before, d.size));
	test_block_dev_destroy(dev);
	free(before);
	mem_disk_free(&d);
}

TEST(partition_driver_needs_media)
{
	struct mem_disk d;
	struct test_block_dev *dev = gpt_disk(&d);
	EFI_HANDLE kids[8];

	dev->media.MediaPresent = FALSE;
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	dev->media.MediaPresent = TRUE;
	driver_connect(dev->handle, NULL, NULL, true);
	EXPECT_EQ(children_of(dev, kids, 8), 2);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
}

/* Only HD() and CDROM() nodes name partitions: a connect asking for anything else below
 * the disk does not start the partition driver. */
TEST(partition_driver_remaining_path)
{
	static const EFI_GUID other = {0x0e7e0001, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
	struct mem_disk d;
	struct test_block_dev *dev = gpt_disk(&d);
	EFI_HANDLE kids[8];
	struct {
		VENDOR_DEVICE_PATH vendor;
		EFI_DEVICE_PATH_PROTOCOL end;
	} __attribute__((packed))
	remaining = {{{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}}, other},
		     {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};

	void *dio;

	driver_connect(dev->handle, NULL, &remaining.vendor.Header, false);
	EXPECT_STATUS(protocol_get(dev->handle, &disk_io_guid, &dio), EFI_SUCCESS);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	driver_connect(dev->handle, NULL, NULL, false);
	EXPECT_EQ(children_of(dev, kids, 8), 2);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
}

/* A child that a user will not let go of stays whole: Stop fails, the child still reads,
 * and once the user lets go the disk can be disconnected. */
TEST(partition_driver_stop_gives_way)
{
	static int agent_iface;
	static const EFI_GUID agent_guid = {0xa6e47, 3, 4, {5}};
	struct mem_disk d;
	struct test_block_dev *dev = gpt_disk(&d);
	EFI_HANDLE kids[8], agent = NULL;
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 block[512];

	driver_connect(dev->handle, NULL, NULL, false);
	ASSERT_EQ(children_of(dev, kids, 8), 2);
	ASSERT_STATUS(protocol_install(&agent, &agent_guid, &agent_iface), EFI_SUCCESS);
	ASSERT_STATUS(protocol_open(kids[0], &bio_guid, (void **)&bio, agent, kids[0],
				    EFI_OPEN_PROTOCOL_BY_DRIVER),
		      EFI_SUCCESS);
	EXPECT(EFI_ERROR(driver_disconnect(dev->handle, NULL, NULL)));
	EXPECT_EQ(children_of(dev, kids + 2, 6), 1);
	EXPECT(kids[2] == kids[0]);
	EXPECT_STATUS(bio->ReadBlocks(bio, 7, 0, 512, block), EFI_SUCCESS);
	protocol_close(kids[0], &bio_guid, agent, kids[0]);
	EXPECT_STATUS(driver_disconnect(dev->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(children_of(dev, kids, 8), 0);
	protocol_uninstall(agent, &agent_guid, &agent_iface);
	test_block_dev_destroy(dev);
	mem_disk_free(&d);
}
