/* The Disk I/O driver (drivers/disk_io): byte-granular reads and writes over a BlockIo in
 * memory, its error statuses, the Ex calls, and Start/Stop through the driver model. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <efi/protocol/disk_io.h>
#include <efi/protocol/disk_io2.h>

#define DISK_BYTES (64 * 512)

static const EFI_GUID disk_io_guid = EFI_DISK_IO_PROTOCOL_GUID;
static const EFI_GUID disk_io2_guid = EFI_DISK_IO2_PROTOCOL_GUID;

struct fixture {
	UINT8 *medium, *model; /* the device's bytes, and what they should be */
	struct test_block_dev *dev;
	EFI_DISK_IO_PROTOCOL *dio;
	EFI_DISK_IO2_PROTOCOL *dio2;
};

static void setup(struct fixture *f, UINT32 block_size, UINT32 io_align)
{
	f->medium = malloc(DISK_BYTES);
	f->model = malloc(DISK_BYTES);
	for (UINTN i = 0; i < DISK_BYTES; i++)
		f->medium[i] = (UINT8)(i * 7 + i / 251);
	memcpy(f->model, f->medium, DISK_BYTES);
	test_install_builtin_drivers();
	f->dev = test_block_dev_create(f->medium, DISK_BYTES, block_size, io_align);
	ASSERT(f->dev != NULL);
	driver_connect(f->dev->handle, NULL, NULL, false);
	ASSERT_STATUS(protocol_get(f->dev->handle, &disk_io_guid, (void **)&f->dio), EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(f->dev->handle, &disk_io2_guid, (void **)&f->dio2), EFI_SUCCESS);
}

static void teardown(struct fixture *f)
{
	test_block_dev_destroy(f->dev);
	free(f->medium);
	free(f->model);
}

/* Reads [offset, offset+size) and compares with the model. */
static bool read_matches(struct fixture *f, UINT64 offset, UINTN size)
{
	UINT8 *buffer = malloc(size + 1);
	bool ok = !EFI_ERROR(f->dio->ReadDisk(f->dio, 7, offset, size, buffer + 1)) &&
		  !memcmp(buffer + 1, f->model + offset, size);

	free(buffer);
	return ok;
}

static void write_pattern(struct fixture *f, UINT64 offset, UINTN size, UINT8 seed)
{
	UINT8 *buffer = malloc(size + 3);

	for (UINTN i = 0; i < size; i++)
		buffer[i + 3] = (UINT8)(seed + i * 13);
	EXPECT_STATUS(f->dio->WriteDisk(f->dio, 7, offset, size, buffer + 3), EFI_SUCCESS);
	memcpy(f->model + offset, buffer + 3, size);
	free(buffer);
}

TEST(disk_io_reads_at_any_offset)
{
	static const UINT64 offsets[] = {0, 1, 511, 512, 513, 1000, 4095, DISK_BYTES - 7};
	static const UINTN sizes[] = {1, 2, 511, 512, 513, 1024, 5000};
	struct fixture f;

	setup(&f, 512, 0);
	EXPECT_EQ(f.dio->Revision, EFI_DISK_IO_PROTOCOL_REVISION);
	EXPECT_EQ(f.dio2->Revision, EFI_DISK_IO2_PROTOCOL_REVISION);
	for (UINTN i = 0; i < ARRAY_SIZE(offsets); i++)
		for (UINTN j = 0; j < ARRAY_SIZE(sizes); j++)
			if (offsets[i] + sizes[j] <= DISK_BYTES)
				EXPECT(read_matches(&f, offsets[i], sizes[j]));
	EXPECT(read_matches(&f, 0, DISK_BYTES));
	teardown(&f);
}

TEST(disk_io_writes_at_any_offset)
{
	struct fixture f;

	setup(&f, 512, 0);
	write_pattern(&f, 3, 1, 1);
	write_pattern(&f, 510, 4, 2);
	write_pattern(&f, 1023, 3000, 3);
	write_pattern(&f, 8192, 1024, 4);
	write_pattern(&f, DISK_BYTES - 1, 1, 5);
	EXPECT(!memcmp(f.medium, f.model, DISK_BYTES));
	teardown(&f);
}

TEST(disk_io_one_block_io_call_for_the_middle)
{
	struct fixture f;
	UINT8 *buffer = malloc(DISK_BYTES);

	setup(&f, 512, 0);
	f.dev->reads = 0;
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, 0, DISK_BYTES, buffer), EFI_SUCCESS);
	EXPECT_EQ(f.dev->reads, 1);
	f.dev->reads = 0;
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, 100, DISK_BYTES - 200, buffer), EFI_SUCCESS);
	EXPECT_EQ(f.dev->reads, 3); /* partial head, the middle, partial tail */
	EXPECT(!memcmp(buffer, f.model + 100, DISK_BYTES - 200));
	f.dev->writes = 0;
	EXPECT_STATUS(f.dio->WriteDisk(f.dio, 7, 100, DISK_BYTES - 200, buffer), EFI_SUCCESS);
	EXPECT_EQ(f.dev->writes, 3);
	free(buffer);
	teardown(&f);
}

TEST(disk_io_bounces_misaligned_buffers)
{
	struct fixture f;

	setup(&f, 4096, 512); /* 4K blocks, buffers aligned to 512 */
	EXPECT(read_matches(&f, 0, 3 * 4096));
	EXPECT(read_matches(&f, 4095, 3 * 4096 + 2));
	write_pattern(&f, 4096, 4 * 4096, 9);
	write_pattern(&f, 17, 9000, 10);
	EXPECT(!memcmp(f.medium, f.model, DISK_BYTES));
	teardown(&f);
}

TEST(disk_io_error_statuses)
{
	struct fixture f;
	UINT8 buffer[600];

	setup(&f, 512, 0);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 8, 0, 10, buffer), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, DISK_BYTES - 5, 6, buffer), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, DISK_BYTES + 1, 0, buffer), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, ~0ULL, 2, buffer), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, DISK_BYTES, 0, buffer), EFI_SUCCESS);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, 0, 4, NULL), EFI_INVALID_PARAMETER);
	f.dev->media.ReadOnly = TRUE;
	EXPECT_STATUS(f.dio->WriteDisk(f.dio, 7, 0, 10, buffer), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, 0, 10, buffer), EFI_SUCCESS);
	f.dev->media.MediaPresent = FALSE;
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, 0, 10, buffer), EFI_NO_MEDIA);
	f.dev->media.MediaPresent = TRUE;
	f.dev->media.ReadOnly = FALSE;
	teardown(&f);
}

TEST(disk_io2_tokens)
{
	struct fixture f;
	EFI_DISK_IO2_TOKEN token = {0};
	UINT8 buffer[700];
	UINTN index;

	setup(&f, 512, 0);
	ASSERT_STATUS(event_create(0, 0, NULL, NULL, NULL, &token.Event), EFI_SUCCESS);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(f.dio2->ReadDiskEx(f.dio2, 7, 300, &token, 700, buffer), EFI_SUCCESS);
	EXPECT_STATUS(event_wait(1, &token.Event, &index), EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT(!memcmp(buffer, f.model + 300, 700));
	memset(buffer, 0x5a, sizeof(buffer));
	EXPECT_STATUS(f.dio2->WriteDiskEx(f.dio2, 7, 1001, &token, 700, buffer), EFI_SUCCESS);
	EXPECT_STATUS(event_check(token.Event), EFI_SUCCESS);
	EXPECT(!memcmp(f.medium + 1001, buffer, 700));
	EXPECT_STATUS(f.dio2->FlushDiskEx(f.dio2, &token), EFI_SUCCESS);
	EXPECT_STATUS(event_check(token.Event), EFI_SUCCESS);
	EXPECT_EQ(f.dev->flushes, 1);
	/* Errors found before any I/O are returned, and the event stays unsignalled. */
	EXPECT_STATUS(f.dio2->ReadDiskEx(f.dio2, 6, 0, &token, 10, buffer), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(event_check(token.Event), EFI_NOT_READY);
	/* Without a token, or without an event, the call blocks and returns the outcome. */
	EXPECT_STATUS(f.dio2->ReadDiskEx(f.dio2, 7, 5, NULL, 10, buffer), EFI_SUCCESS);
	token.Event = NULL;
	EXPECT_STATUS(f.dio2->ReadDiskEx(f.dio2, 7, DISK_BYTES, &token, 1, buffer),
		      EFI_INVALID_PARAMETER);
	token.Event = (EFI_EVENT)buffer; /* not an event */
	EXPECT_STATUS(f.dio2->ReadDiskEx(f.dio2, 7, 0, &token, 1, buffer), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(f.dio2->Cancel(f.dio2), EFI_SUCCESS);
	teardown(&f);
}

TEST(disk_io_stop_uninstalls)
{
	struct fixture f;
	void *p;

	setup(&f, 512, 0);
	EXPECT_STATUS(driver_disconnect(f.dev->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_STATUS(protocol_get(f.dev->handle, &disk_io_guid, &p), EFI_UNSUPPORTED);
	EXPECT_STATUS(protocol_get(f.dev->handle, &disk_io2_guid, &p), EFI_UNSUPPORTED);
	driver_connect(f.dev->handle, NULL, NULL, false);
	EXPECT_STATUS(protocol_get(f.dev->handle, &disk_io_guid, &p), EFI_SUCCESS);
	teardown(&f);
}

TEST(disk_io2_flush_and_broken_media)
{
	struct fixture f;
	EFI_DISK_IO2_TOKEN token = {0};
	UINT8 buffer[16];

	setup(&f, 512, 0);
	token.Event = (EFI_EVENT)buffer; /* not an event */
	EXPECT_STATUS(f.dio2->FlushDiskEx(f.dio2, &token), EFI_INVALID_PARAMETER);
	f.dev->media.MediaPresent = FALSE;
	EXPECT_STATUS(f.dio2->FlushDiskEx(f.dio2, NULL), EFI_NO_MEDIA);
	f.dev->media.MediaPresent = TRUE;
	EXPECT_EQ(f.dev->flushes, 0);
	/* A BlockIo without a block size cannot be read through. */
	f.dev->media.BlockSize = 0;
	EXPECT_STATUS(f.dio->ReadDisk(f.dio, 7, 0, 1, buffer), EFI_DEVICE_ERROR);
	f.dev->media.BlockSize = 512;
	teardown(&f);
}

static EFI_STATUS EFIAPI broken_disk_io(EFI_DISK_IO_PROTOCOL *this, UINT32 media_id, UINT64 offset,
					UINTN size, VOID *buffer)
{
	return EFI_DEVICE_ERROR;
}

/* Start fails when the device already has a Disk I/O of someone else's, and leaves the
 * BlockIo free for other drivers. */
TEST(disk_io_start_failure_releases_the_block_io)
{
	static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	static EFI_DISK_IO_PROTOCOL foreign = {EFI_DISK_IO_PROTOCOL_REVISION, broken_disk_io,
					       broken_disk_io};
	UINT8 *medium = calloc(1, DISK_BYTES);
	struct test_block_dev *dev;
	EFI_HANDLE agent = NULL;
	void *p;

	test_install_builtin_drivers();
	dev = test_block_dev_create(medium, DISK_BYTES, 512, 0);
	ASSERT(dev != NULL);
	ASSERT_STATUS(protocol_install(&dev->handle, &disk_io_guid, &foreign), EFI_SUCCESS);
	driver_connect(dev->handle, NULL, NULL, false);
	EXPECT_STATUS(protocol_get(dev->handle, &disk_io2_guid, &p), EFI_UNSUPPORTED);
	ASSERT_STATUS(protocol_install(&agent, &disk_io2_guid, &foreign), EFI_SUCCESS);
	EXPECT_STATUS(protocol_open(dev->handle, &bio_guid, &p, agent, dev->handle,
				    EFI_OPEN_PROTOCOL_BY_DRIVER),
		      EFI_SUCCESS);
	protocol_close(dev->handle, &bio_guid, agent, dev->handle);
	protocol_uninstall(agent, &disk_io2_guid, &foreign);
	protocol_uninstall(dev->handle, &disk_io_guid, &foreign);
	test_block_dev_destroy(dev);
	free(medium);
}
