/* disk-test io/ro/checks: DiskIo and DiskIo2 at odd offsets and lengths, compared with
 * BlockIo reads; the error statuses of both protocols. */
#include "disk_test.h"

struct dev {
	EFI_HANDLE handle;
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_DISK_IO_PROTOCOL *dio;
	EFI_DISK_IO2_PROTOCOL *dio2; /* may be NULL */
};

static bool open_dev(UINTN index, struct dev *d)
{
	EFI_HANDLE *handles;
	UINTN count = dt_block_devices(&handles);
	bool ok = index < count;

	if (ok) {
		d->handle = handles[index];
		ok = CHECK_STATUS(
			 app_bs->HandleProtocol(d->handle, &dt_block_io_guid, (void **)&d->bio),
			 EFI_SUCCESS) &&
		     CHECK_STATUS(
			 app_bs->HandleProtocol(d->handle, &dt_disk_io_guid, (void **)&d->dio),
			 EFI_SUCCESS);
		if (EFI_ERROR(
			app_bs->HandleProtocol(d->handle, &dt_disk_io2_guid, (void **)&d->dio2)))
			d->dio2 = NULL;
	} else {
		CHECK_FAIL("no block device %u (%u found)", (UINT32)index, (UINT32)count);
	}
	app_free(handles);
	return ok;
}

static bool matches_pattern(const UINT8 *p, UINT64 offset, UINTN length)
{
	for (UINTN i = 0; i < length; i++)
		if (p[i] != dt_pattern(offset + i))
			return false;
	return true;
}

/* The blocks covering [offset, offset+length) through BlockIo, compared with the pattern. */
static void check_with_block_io(struct dev *d, UINT64 offset, UINTN length)
{
	UINT32 bs = d->bio->Media->BlockSize;
	EFI_LBA first = offset / bs, last = (offset + length - 1) / bs;
	UINTN size = (UINTN)(last - first + 1) * bs;
	UINT8 *blocks = app_alloc(size);

	if (!CHECK(blocks != NULL))
		return;
	CHECK_STATUS(d->bio->ReadBlocks(d->bio, d->bio->Media->MediaId, first, size, blocks),
		     EFI_SUCCESS);
	CHECK(matches_pattern(blocks + (offset - first * bs), offset, length));
	app_free(blocks);
}

static void check_with_disk_io2(struct dev *d, UINT64 offset, UINTN length, UINT8 *buffer)
{
	EFI_DISK_IO2_TOKEN token = {0};
	UINTN index;

	if (!d->dio2)
		return;
	if (!CHECK_STATUS(app_bs->CreateEvent(0, 0, NULL, NULL, &token.Event), EFI_SUCCESS))
		return;
	mem_set(buffer, 0, length);
	token.TransactionStatus = EFI_NOT_READY;
	CHECK_STATUS(
	    d->dio2->ReadDiskEx(d->dio2, d->bio->Media->MediaId, offset, &token, length, buffer),
	    EFI_SUCCESS);
	CHECK_STATUS(app_bs->WaitForEvent(1, &token.Event, &index), EFI_SUCCESS);
	CHECK_STATUS(token.TransactionStatus, EFI_SUCCESS);
	CHECK(matches_pattern(buffer, offset, length));
	CHECK_STATUS(d->dio2->FlushDiskEx(d->dio2, NULL), EFI_SUCCESS);
	app_bs->CloseEvent(token.Event);
}

void dt_io(UINTN device, UINT64 offset, UINTN length)
{
	struct dev d;
	UINT8 *out = app_alloc(length + 8), *in = app_alloc(length + 8);

	if (!CHECK(out && in) || !length || !open_dev(device, &d))
		goto done;
	/* Odd buffer addresses as well as odd offsets. */
	for (UINTN i = 0; i < length; i++)
		out[i + 1] = dt_pattern(offset + i);
	CHECK_STATUS(d.dio->WriteDisk(d.dio, d.bio->Media->MediaId, offset, length, out + 1),
		     EFI_SUCCESS);
	CHECK_STATUS(d.dio->ReadDisk(d.dio, d.bio->Media->MediaId, offset, length, in + 3),
		     EFI_SUCCESS);
	CHECK(matches_pattern(in + 3, offset, length));
	check_with_disk_io2(&d, offset, length, in + 5);
	check_with_block_io(&d, offset, length);
	CHECK_STATUS(d.bio->FlushBlocks(d.bio), EFI_SUCCESS);
	app_print("io: %u bytes at %llu on device %u\n", (UINT32)length, offset, (UINT32)device);
done:
	app_free(out);
	app_free(in);
}

void dt_read_only(UINTN device)
{
	struct dev d;
	UINT8 block[4096];
	UINT32 id;

	if (!open_dev(device, &d))
		return;
	id = d.bio->Media->MediaId;
	CHECK(d.bio->Media->ReadOnly);
	CHECK_STATUS(d.dio->ReadDisk(d.dio, id, 1, 100, block), EFI_SUCCESS);
	CHECK_STATUS(d.dio->WriteDisk(d.dio, id, 1, 100, block), EFI_WRITE_PROTECTED);
	CHECK_STATUS(d.bio->ReadBlocks(d.bio, id, 0, d.bio->Media->BlockSize, block), EFI_SUCCESS);
	CHECK_STATUS(d.bio->WriteBlocks(d.bio, id, 0, d.bio->Media->BlockSize, block),
		     EFI_WRITE_PROTECTED);
}

/* DiskIo reads at odd places agree with BlockIo; the error statuses of both. */
static void check_device(struct dev *d)
{
	EFI_BLOCK_IO_MEDIA *m = d->bio->Media;
	UINT64 size = (m->LastBlock + 1) * m->BlockSize;
	UINTN span = (UINTN)(size < 3 * m->BlockSize ? size : 3 * m->BlockSize);
	UINT8 *blocks = app_alloc(span), *bytes = app_alloc(span);

	if (!CHECK(blocks && bytes))
		goto done;
	CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId, 0, span, blocks), EFI_SUCCESS);
	CHECK_STATUS(d->dio->ReadDisk(d->dio, m->MediaId, 3, span - 5, bytes + 1), EFI_SUCCESS);
	CHECK(!mem_cmp(bytes + 1, blocks + 3, span - 5));
	CHECK_STATUS(d->dio->ReadDisk(d->dio, m->MediaId + 1, 0, 1, bytes), EFI_MEDIA_CHANGED);
	CHECK_STATUS(d->dio->ReadDisk(d->dio, m->MediaId, size - 1, 2, bytes),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(d->dio->ReadDisk(d->dio, m->MediaId, size - 1, 1, bytes), EFI_SUCCESS);
	CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId, m->LastBlock + 1, m->BlockSize, bytes),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId, 0, m->BlockSize - 1, bytes),
		     EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(d->bio->ReadBlocks(d->bio, m->MediaId + 1, 0, m->BlockSize, bytes),
		     EFI_MEDIA_CHANGED);
done:
	app_free(blocks);
	app_free(bytes);
}

/* A partition's PartitionInfo, ESP tag, node and size agree with one another. */
static void check_partition(EFI_HANDLE h, EFI_BLOCK_IO_PROTOCOL *bio)
{
	EFI_PARTITION_INFO_PROTOCOL *info;
	EFI_DEVICE_PATH_PROTOCOL *node, *last = NULL;
	void *tag;
	bool esp = !EFI_ERROR(app_bs->HandleProtocol(h, &dt_esp_guid, &tag));

	if (!CHECK_STATUS(app_bs->HandleProtocol(h, &dt_partition_info_guid, (void **)&info),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(app_bs->HandleProtocol(h, &dt_device_path_guid, (void **)&node),
			  EFI_SUCCESS))
		return;
	CHECK_EQ(info->Revision, EFI_PARTITION_INFO_PROTOCOL_REVISION);
	CHECK_EQ(esp, info->System == 1);
	for (; !dp_is_end(node); node = dp_next(node))
		last = node;
	if (!CHECK(last && last->Type == MEDIA_DEVICE_PATH))
		return;
	if (last->SubType == MEDIA_HARDDRIVE_DP) {
		HARDDRIVE_DEVICE_PATH *hd = (HARDDRIVE_DEVICE_PATH *)last;
		CHECK_EQ(hd->PartitionSize, bio->Media->LastBlock + 1);
		CHECK_EQ(info->Type,
			 hd->MBRType == MBR_TYPE_PCAT ? PARTITION_TYPE_MBR : PARTITION_TYPE_GPT);
	} else {
		CHECK_EQ(last->SubType, MEDIA_CDROM_DP);
		CHECK_EQ(((CDROM_DEVICE_PATH *)last)->PartitionSize, bio->Media->LastBlock + 1);
		CHECK_EQ(info->Type, PARTITION_TYPE_OTHER);
	}
}

void dt_checks(void)
{
	EFI_HANDLE *handles;
	UINTN count = dt_block_devices(&handles);

	for (UINTN i = 0; i < count; i++) {
		struct dev d;
		if (!open_dev(i, &d))
			continue;
		check_device(&d);
		if (d.bio->Media->LogicalPartition)
			check_partition(d.handle, d.bio);
	}
	app_print("checked %u devices\n", (UINT32)count);
	app_free(handles);
}
