/* LoadImage from a device path through EFI_LOAD_FILE_PROTOCOL and EFI_LOAD_FILE2_PROTOCOL
 * (UEFI 2.10, 7.4.1, 13.1, 13.2): a device of this test's own carries them; the firmware
 * asks for the size first, then for the bytes, passing the rest of the path after the
 * device and the BootPolicy; LoadFile2 serves only loads with BootPolicy FALSE. */
#define APP_TEST_SUITE "66_image_load_file"
#include "conformance.h"
#include "pe_image.h"
#include <efi/protocol/load_file.h>

static EFI_GUID load_file_guid = EFI_LOAD_FILE_PROTOCOL_GUID;
static EFI_GUID load_file2_guid = EFI_LOAD_FILE2_PROTOCOL_GUID;
static const CHAR16 file_name[] = u"\\loaded-by-load-file.efi";

/* A device serving one image, recording how it was asked. */
static struct load_device {
	EFI_LOAD_FILE_PROTOCOL lf, lf2;
	UINT8 image[PE_FILE_SIZE];
	EFI_STATUS answer;   /* what a request for the bytes returns (EFI_SUCCESS: serve) */
	UINTN calls, calls2; /* LoadFile and LoadFile2 requests */
	UINTN size_queries;  /* requests without a buffer */
	BOOLEAN last_policy; /* BootPolicy of the last LoadFile request */
	bool path_ok;	     /* every request's FilePath was the file node */
	EFI_DEVICE_PATH_PROTOCOL *file;
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *path; /* the device's */
} dev;

static UINTN child_runs;

static EFI_STATUS EFIAPI child_entry(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	child_runs++;
	return EFI_WARN_STALE_DATA;
}

static EFI_STATUS serve(EFI_DEVICE_PATH_PROTOCOL *path, UINTN *size, VOID *buffer)
{
	if (!path || !dp_equal(path, dev.file))
		dev.path_ok = false;
	if (!size)
		return EFI_INVALID_PARAMETER;
	if (!buffer || *size < sizeof(dev.image)) {
		dev.size_queries++;
		*size = sizeof(dev.image);
		return EFI_BUFFER_TOO_SMALL;
	}
	if (dev.answer != EFI_SUCCESS)
		return dev.answer;
	mem_copy(buffer, dev.image, sizeof(dev.image));
	*size = sizeof(dev.image);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				   BOOLEAN boot_policy, UINTN *size, VOID *buffer)
{
	dev.calls++;
	dev.last_policy = boot_policy;
	return serve(path, size, buffer);
}

static EFI_STATUS EFIAPI load_file2(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				    BOOLEAN boot_policy, UINTN *size, VOID *buffer)
{
	dev.calls2++;
	if (boot_policy)
		return EFI_UNSUPPORTED; /* LoadFile2 must be called with BootPolicy FALSE */
	return serve(path, size, buffer);
}

/* Publishes the device (with LoadFile2 too when asked); false after a failed check. */
static bool device_up(bool with_load_file2)
{
	EFI_GUID *g[1] = {tguid(G_IMAGE + 4)};

	mem_set(&dev, 0, sizeof(dev));
	dev.lf.LoadFile = load_file;
	dev.lf2.LoadFile = load_file2;
	dev.path_ok = true;
	pe_build(dev.image, child_entry, PE_SUBSYSTEM_APPLICATION, PE_OK);
	dev.path = dp_vendor_path(g, 1);
	dev.file = dp_file_path(file_name);
	if (!CHECK(dev.path && dev.file))
		return false;
	if (!CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&dev.handle, &guid_device_path,
								    dev.path, &load_file_guid,
								    &dev.lf, NULL),
			  EFI_SUCCESS))
		return false;
	return !with_load_file2 ||
	       CHECK_STATUS(app_bs->InstallProtocolInterface(&dev.handle, &load_file2_guid,
							     EFI_NATIVE_INTERFACE, &dev.lf2),
			    EFI_SUCCESS);
}

static void device_down(void)
{
	if (dev.handle) {
		app_bs->UninstallProtocolInterface(dev.handle, &load_file2_guid, &dev.lf2);
		app_bs->UninstallMultipleProtocolInterfaces(dev.handle, &guid_device_path, dev.path,
							    &load_file_guid, &dev.lf, NULL);
	}
	app_free(dev.path);
	app_free(dev.file);
}

/* LoadImage(policy) of the device's file; the image handle or NULL. */
static EFI_STATUS load(BOOLEAN policy, EFI_HANDLE *h)
{
	EFI_DEVICE_PATH_PROTOCOL *full = dp_append(dev.path, dev.file);
	EFI_STATUS status =
	    full ? app_bs->LoadImage(policy, app_image, full, NULL, 0, h) : EFI_OUT_OF_RESOURCES;

	app_free(full);
	return status;
}

APP_TEST(load_file_serves_both_policies)
{
	EFI_HANDLE h = NULL;

	if (!device_up(false))
		goto out;
	for (int policy = 0; policy < 2; policy++) {
		dev.calls = 0;
		if (!CHECK_STATUS(load((BOOLEAN)policy, &h), EFI_SUCCESS))
			continue;
		CHECK(dev.calls >= 1);
		CHECK_EQ(dev.last_policy, policy);
		CHECK(dev.path_ok);
		EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
		if (CHECK_STATUS(app_bs->HandleProtocol(h, &guid_loaded_image, (void **)&li),
				 EFI_SUCCESS)) {
			CHECK(li->DeviceHandle == dev.handle);
			CHECK(li->FilePath && dp_equal(li->FilePath, dev.file));
		}
		child_runs = 0;
		CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_WARN_STALE_DATA);
		CHECK_EQ(child_runs, 1);
	}
out:
	device_down();
}

APP_TEST(load_file2_only_without_boot_policy)
{
	EFI_HANDLE h = NULL;

	if (!device_up(true))
		goto out;
	/* BootPolicy FALSE: LoadFile2 is used, LoadFile is not. */
	if (CHECK_STATUS(load(FALSE, &h), EFI_SUCCESS))
		app_bs->UnloadImage(h);
	CHECK(dev.calls2 >= 1);
	CHECK_EQ(dev.calls, 0);
	/* BootPolicy TRUE: only LoadFile. */
	dev.calls = dev.calls2 = 0;
	if (CHECK_STATUS(load(TRUE, &h), EFI_SUCCESS))
		app_bs->UnloadImage(h);
	CHECK(dev.calls >= 1);
	CHECK_EQ(dev.calls2, 0);
	CHECK(dev.last_policy == TRUE);
	CHECK(dev.path_ok);
out:
	device_down();
}

#define EDK2_NOT_FOUND "EDK2 (2022.11) turns a LoadFile read error into EFI_NOT_FOUND"

/* The device's error comes back from LoadImage (EFI_DEVICE_ERROR is the status 7.4.1 lists
 * for a read error), and no image is left behind. */
APP_TEST(load_file_errors_come_back)
{
	EFI_HANDLE h = NULL;

	if (!device_up(false))
		goto out;
	dev.answer = EFI_NOT_FOUND;
	CHECK_STATUS(load(FALSE, &h), EFI_NOT_FOUND);
	dev.answer = EFI_DEVICE_ERROR;
	CHECK_STATUS_KNOWN(load(TRUE, &h), EFI_DEVICE_ERROR, FW_EDK2, EDK2_NOT_FOUND);
	CHECK(dev.size_queries >= 1);
out:
	device_down();
}
