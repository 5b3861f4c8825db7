/* fs-test: finds the volume the application was loaded from and runs the suites. */
#include "fs_test.h"

EFI_SYSTEM_TABLE *fst_st;
EFI_BOOT_SERVICES *fst_bs;

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

/* The file path the image was loaded from, when it is one FILEPATH node. */
static const CHAR16 *image_file_path(EFI_LOADED_IMAGE_PROTOCOL *image)
{
	const EFI_DEVICE_PATH_PROTOCOL *node = image->FilePath;

	if (!node || node->Type != MEDIA_DEVICE_PATH || node->SubType != MEDIA_FILEPATH_DP)
		return NULL;
	return ((const FILEPATH_DEVICE_PATH *)node)->PathName;
}

/* The volume holding the application, as a real ESP would provide it. */
static EFI_FILE_PROTOCOL *open_own_volume(EFI_HANDLE image_handle)
{
	EFI_LOADED_IMAGE_PROTOCOL *image = NULL;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs = NULL;
	EFI_FILE_PROTOCOL *root = NULL;
	const CHAR16 *path;

	if (!CHECK_STATUS(fst_bs->HandleProtocol(image_handle, &loaded_image_guid, (void **)&image),
			  EFI_SUCCESS))
		return NULL;
	if (!CHECK_STATUS(fst_bs->HandleProtocol(image->DeviceHandle, &sfs_guid, (void **)&sfs),
			  EFI_SUCCESS))
		return NULL;
	CHECK_EQ(sfs->Revision, EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_REVISION);
	CHECK_STATUS(sfs->OpenVolume(sfs, NULL), EFI_INVALID_PARAMETER);
	if (!CHECK_STATUS(sfs->OpenVolume(sfs, &root), EFI_SUCCESS))
		return NULL;
	CHECK_EQ(root->Revision, EFI_FILE_PROTOCOL_REVISION2);
	path = image_file_path(image);
	if (path) {
		fst_print("image: %ls\n", path);
		CHECK(fst_exists(root, path));
	}
	return root;
}

/* Whether the volume is read-only, and its label, from EFI_FILE_SYSTEM_INFO. */
static bool volume_read_only(EFI_FILE_PROTOCOL *root)
{
	UINTN size = 0;
	EFI_FILE_SYSTEM_INFO *info;
	bool read_only;

	CHECK_STATUS(root->GetInfo(root, &fst_fs_info_guid, &size, NULL), EFI_BUFFER_TOO_SMALL);
	info = fst_alloc(size);
	if (!info ||
	    !CHECK_STATUS(root->GetInfo(root, &fst_fs_info_guid, &size, info), EFI_SUCCESS)) {
		fst_free(info);
		return false;
	}
	read_only = info->ReadOnly;
	fst_print("mode: %s\n", read_only ? "read-only" : "read-write");
	fst_print("label: %ls\n", info->VolumeLabel);
	fst_free(info);
	return read_only;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image_handle, EFI_SYSTEM_TABLE *system_table)
{
	EFI_FILE_PROTOCOL *root;

	fst_st = system_table;
	fst_bs = system_table->BootServices;
	root = open_own_volume(image_handle);
	if (root && volume_read_only(root)) {
		test_read_only_volume(root);
	} else if (root) {
		test_open(root);
		test_read_write(root);
		test_delete(root);
		test_directories(root);
		test_get_info(root);
		test_set_info(root);
		test_async(root);
		test_foreign_handles(root);
	}
	if (root)
		CHECK_STATUS(root->Close(root), EFI_SUCCESS);
	return fst_summary() ? EFI_SUCCESS : EFI_ABORTED;
}
