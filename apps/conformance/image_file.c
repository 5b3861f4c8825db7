/* LoadImage from a device path through EFI_SIMPLE_FILE_SYSTEM_PROTOCOL (UEFI 2.10, 7.4):
 * this application's own file, and a child image written next to it. Skipped when the
 * device this application came from has no file system. */
#define APP_TEST_SUITE "65_image_file"
#include "conformance.h"
#include "pe_image.h"
#include <efi/protocol/simple_file_system.h>

static const CHAR16 child_name[] = u"\\ember-conformance-child.efi";

struct origin {
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_DEVICE_PATH_PROTOCOL *device_path;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
};

/* Where this application was loaded from; false (after a skip) without a file system. */
static bool find_origin(struct origin *o)
{
	mem_set(o, 0, sizeof(*o));
	if (!CHECK_STATUS(app_bs->HandleProtocol(app_image, &guid_loaded_image, (void **)&o->li),
			  EFI_SUCCESS))
		return false;
	if (!o->li->DeviceHandle || !o->li->FilePath ||
	    app_bs->HandleProtocol(o->li->DeviceHandle, &guid_simple_fs, (void **)&o->fs) ||
	    app_bs->HandleProtocol(o->li->DeviceHandle, &guid_device_path,
				   (void **)&o->device_path)) {
		check_skip("this application's device has no file system");
		return false;
	}
	return true;
}

APP_TEST(load_own_file)
{
	struct origin o;
	EFI_HANDLE h = NULL;

	if (!find_origin(&o))
		return;
	EFI_DEVICE_PATH_PROTOCOL *path = dp_append(o.device_path, o.li->FilePath);
	if (!CHECK(path))
		return;
	if (CHECK_STATUS(app_bs->LoadImage(FALSE, app_image, path, NULL, 0, &h), EFI_SUCCESS)) {
		EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
		EFI_DEVICE_PATH_PROTOCOL *lidp = NULL;
		if (CHECK_STATUS(app_bs->HandleProtocol(h, &guid_loaded_image, (void **)&li),
				 EFI_SUCCESS)) {
			CHECK(li->DeviceHandle == o.li->DeviceHandle);
			CHECK(li->FilePath && dp_equal(li->FilePath, o.li->FilePath));
			CHECK(li->ParentHandle == app_image);
			CHECK_EQ(li->ImageSize, o.li->ImageSize);
			CHECK(li->ImageBase != o.li->ImageBase);
		}
		if (CHECK_STATUS(app_bs->HandleProtocol(h, &guid_loaded_image_dp, (void **)&lidp),
				 EFI_SUCCESS))
			CHECK(lidp && dp_equal(lidp, path));
		CHECK_STATUS(app_bs->UnloadImage(h), EFI_SUCCESS);
	}
	/* BootPolicy only matters for load-file devices. */
	h = NULL;
	if (CHECK_STATUS(app_bs->LoadImage(TRUE, app_image, path, NULL, 0, &h), EFI_SUCCESS))
		CHECK_STATUS(app_bs->UnloadImage(h), EFI_SUCCESS);
	app_free(path);
}

APP_TEST(load_missing_file)
{
	struct origin o;
	EFI_HANDLE h = NULL;
	UINTN before = handle_count(&guid_loaded_image);

	if (!find_origin(&o))
		return;
	EFI_DEVICE_PATH_PROTOCOL *file = dp_file_path(u"\\no-such-file.efi");
	EFI_DEVICE_PATH_PROTOCOL *path = file ? dp_append(o.device_path, file) : NULL;
	if (CHECK(path)) {
		EFI_STATUS status = app_bs->LoadImage(FALSE, app_image, path, NULL, 0, &h);
		CHECK(EFI_ERROR(status));
		if (!EFI_ERROR(status))
			app_bs->UnloadImage(h);
		CHECK_EQ(handle_count(&guid_loaded_image), before);
	}
	app_free(file);
	app_free(path);
}

static EFI_STATUS write_file(EFI_FILE_PROTOCOL *root, const CHAR16 *name, void *data, UINTN size)
{
	EFI_FILE_PROTOCOL *f = NULL;
	EFI_STATUS status =
	    root->Open(root, &f, (CHAR16 *)name,
		       EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);

	if (EFI_ERROR(status))
		return status;
	status = f->Write(f, &size, data);
	f->Close(f);
	return status;
}

static void delete_file(EFI_FILE_PROTOCOL *root, const CHAR16 *name)
{
	EFI_FILE_PROTOCOL *f = NULL;

	if (root->Open(root, &f, (CHAR16 *)name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0) ==
	    EFI_SUCCESS)
		f->Delete(f);
}

static UINTN file_child_calls;

static EFI_STATUS EFIAPI file_child_entry(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	file_child_calls++;
	return st == app_st ? EFI_WARN_WRITE_FAILURE : EFI_DEVICE_ERROR;
}

APP_TEST(load_and_start_written_file)
{
	static UINT8 image[PE_FILE_SIZE];
	struct origin o;
	EFI_FILE_PROTOCOL *root = NULL;
	EFI_HANDLE h = NULL;

	if (!find_origin(&o) || !CHECK_STATUS(o.fs->OpenVolume(o.fs, &root), EFI_SUCCESS))
		return;
	pe_build(image, file_child_entry, PE_SUBSYSTEM_APPLICATION, PE_OK);
	EFI_STATUS status = write_file(root, child_name, image, sizeof(image));
	if (status == EFI_WRITE_PROTECTED || status == EFI_ACCESS_DENIED) {
		check_skip("the file system is read-only (%r)", status);
		root->Close(root);
		return;
	}
	EFI_DEVICE_PATH_PROTOCOL *file = dp_file_path(child_name);
	EFI_DEVICE_PATH_PROTOCOL *path = file ? dp_append(o.device_path, file) : NULL;
	if (CHECK_STATUS(status, EFI_SUCCESS) && CHECK(path) &&
	    CHECK_STATUS(app_bs->LoadImage(FALSE, app_image, path, NULL, 0, &h), EFI_SUCCESS)) {
		EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
		if (CHECK_STATUS(app_bs->HandleProtocol(h, &guid_loaded_image, (void **)&li),
				 EFI_SUCCESS)) {
			CHECK(li->DeviceHandle == o.li->DeviceHandle);
			CHECK(li->FilePath && dp_equal(li->FilePath, file));
			CHECK_EQ(*(UINT64 *)((UINT8 *)li->ImageBase + PE_DATA_RVA),
				 (UINTN)li->ImageBase + PE_DATA_RVA + 8);
		}
		file_child_calls = 0;
		CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_WARN_WRITE_FAILURE);
		CHECK_EQ(file_child_calls, 1);
	}
	delete_file(root, child_name);
	root->Close(root);
	app_free(file);
	app_free(path);
}
