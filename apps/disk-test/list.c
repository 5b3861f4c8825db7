/* disk-test list: every block device, and for partitions what PartitionInfo and the last
 * device path node say, one line each, for the integration tests to compare with what the
 * partitioning tools wrote. */
#include "disk_test.h"

static bool has(EFI_HANDLE h, EFI_GUID *guid)
{
	void *p;

	return !EFI_ERROR(app_bs->HandleProtocol(h, guid, &p));
}

static const EFI_DEVICE_PATH_PROTOCOL *last_node(EFI_HANDLE h)
{
	EFI_DEVICE_PATH_PROTOCOL *node, *last = NULL;

	if (EFI_ERROR(app_bs->HandleProtocol(h, &dt_device_path_guid, (void **)&node)))
		return NULL;
	for (; !dp_is_end(node) && dp_node_length(node) >= 4; node = dp_next(node))
		last = node;
	return last;
}

static void print_node(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	if (n && n->Type == MEDIA_DEVICE_PATH && n->SubType == MEDIA_HARDDRIVE_DP) {
		const HARDDRIVE_DEVICE_PATH *hd = (const HARDDRIVE_DEVICE_PATH *)n;
		app_print(" node=HD number=%u start=%llu size=%llu mbrtype=%u sigtype=%u",
			  hd->PartitionNumber, hd->PartitionStart, hd->PartitionSize, hd->MBRType,
			  hd->SignatureType);
	} else if (n && n->Type == MEDIA_DEVICE_PATH && n->SubType == MEDIA_CDROM_DP) {
		const CDROM_DEVICE_PATH *cd = (const CDROM_DEVICE_PATH *)n;
		app_print(" node=CDROM entry=%u start=%llu size=%llu", cd->BootEntry,
			  cd->PartitionStart, cd->PartitionSize);
	}
}

static void print_partition(EFI_HANDLE h)
{
	static const char *const types[] = {"OTHER", "MBR", "GPT"};
	EFI_PARTITION_INFO_PROTOCOL *info;

	if (EFI_ERROR(app_bs->HandleProtocol(h, &dt_partition_info_guid, (void **)&info)))
		return;
	app_print("  partition type=%s system=%u esp=%u", info->Type < 3 ? types[info->Type] : "?",
		  info->System, has(h, &dt_esp_guid));
	if (info->Type == PARTITION_TYPE_GPT)
		app_print(" gpt-start=%llu gpt-end=%llu gpt-type=%pG", info->Info.Gpt.StartingLBA,
			  info->Info.Gpt.EndingLBA, &info->Info.Gpt.PartitionTypeGUID);
	if (info->Type == PARTITION_TYPE_MBR)
		app_print(" mbr-type=0x%02x", info->Info.Mbr.OSIndicator);
	print_node(last_node(h));
	app_print("\n");
}

void dt_list(void)
{
	EFI_HANDLE *handles;
	UINTN count = dt_block_devices(&handles);

	for (UINTN i = 0; i < count; i++) {
		EFI_BLOCK_IO_PROTOCOL *bio;
		CHAR16 *text = dt_path_text(handles[i]);
		if (EFI_ERROR(app_bs->HandleProtocol(handles[i], &dt_block_io_guid, (void **)&bio)))
			continue;
		app_print("disk %u: path=%ls bs=%u blocks=%llu logical=%u ro=%u removable=%u "
			  "bio2=%u diskio=%u diskio2=%u sfs=%u\n",
			  (UINT32)i, text ? text : u"?", bio->Media->BlockSize,
			  bio->Media->LastBlock + 1, bio->Media->LogicalPartition,
			  bio->Media->ReadOnly, bio->Media->RemovableMedia,
			  has(handles[i], &dt_block_io2_guid), has(handles[i], &dt_disk_io_guid),
			  has(handles[i], &dt_disk_io2_guid), has(handles[i], &dt_sfs_guid));
		print_partition(handles[i]);
		app_free(text);
	}
	app_print("devices: %u\n", (UINT32)count);
	app_free(handles);
}

/* Where this program came from: its device (as a boot manager's LoadImage left it) and
 * file path, and what that device is. */
void dt_self(void)
{
	EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text;
	EFI_LOADED_IMAGE_PROTOCOL *image;
	CHAR16 *device, *file = NULL;

	if (!CHECK_STATUS(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(app_bs->LocateProtocol(&to_text_guid, NULL, (void **)&to_text),
			  EFI_SUCCESS))
		return;
	device = dt_path_text(image->DeviceHandle);
	if (image->FilePath)
		file = to_text->ConvertDevicePathToText(image->FilePath, FALSE, FALSE);
	app_print("self: device=%ls file=%ls sfs=%u esp=%u partition=%u\n", device ? device : u"?",
		  file ? file : u"?", has(image->DeviceHandle, &dt_sfs_guid),
		  has(image->DeviceHandle, &dt_esp_guid),
		  has(image->DeviceHandle, &dt_partition_info_guid));
	app_free(device);
	app_free(file);
}
