/* blk-test list: each disk's device path as text and its media. */
#include "blk_test.h"

static CHAR16 *path_text(EFI_HANDLE handle)
{
	EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
	EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text;
	EFI_DEVICE_PATH_PROTOCOL *path;

	if (EFI_ERROR(app_bs->LocateProtocol(&to_text_guid, NULL, (void **)&to_text)) ||
	    EFI_ERROR(app_bs->HandleProtocol(handle, &path_guid, (void **)&path)))
		return NULL;
	return to_text->ConvertDevicePathToText(path, FALSE, FALSE);
}

static void print_media(const struct blk_disk *d)
{
	const EFI_BLOCK_IO_MEDIA *m = d->bio->Media;

	/* Lines stay shorter than the 80 columns of a text console, which would wrap them. */
	app_print("disk %u: media id=%u removable=%u present=%u ro=%u wcache=%u\n",
		  (UINT32)d->number, m->MediaId, m->RemovableMedia, m->MediaPresent, m->ReadOnly,
		  m->WriteCaching);
	app_print("disk %u: bs=%u align=%u last=%llu\n", (UINT32)d->number, m->BlockSize,
		  m->IoAlign, (unsigned long long)m->LastBlock);
	if (d->bio->Revision >= EFI_BLOCK_IO_PROTOCOL_REVISION3)
		app_print("disk %u: rev=%#llx lowest=%llu lbpp=%u otlg=%u blockio2=%u\n",
			  (UINT32)d->number, (unsigned long long)d->bio->Revision,
			  (unsigned long long)m->LowestAlignedLba, m->LogicalBlocksPerPhysicalBlock,
			  m->OptimalTransferLengthGranularity, d->bio2 != NULL);
}

void blk_list(struct blk_disk *disks, UINTN count)
{
	for (UINTN i = 0; i < count; i++) {
		CHAR16 *text = path_text(disks[i].handle);

		app_print("disk %u: path=%ls\n", (UINT32)i, text ? text : u"(none)");
		app_free(text);
		print_media(&disks[i]);
		CHECK(disks[i].bio->Media->BlockSize >= 512);
		CHECK(!disks[i].bio2 || disks[i].bio2->Media == disks[i].bio->Media);
	}
}
