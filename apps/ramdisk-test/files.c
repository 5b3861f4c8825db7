/* ramdisk-test: reading files from the app's volume and from RAM disk volumes. */
#include "ramdisk_test.h"
#include <efi/protocol/loaded_image.h>
#include <ember/lib/devpath_node.h>

static EFI_GUID fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

static EFI_HANDLE own_device(void)
{
	EFI_GUID image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image = NULL;

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &image_guid, (void **)&image)))
		return NULL;
	return image->DeviceHandle;
}

EFI_DEVICE_PATH_PROTOCOL *rdt_own_volume_path(void)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_HANDLE device = own_device();

	if (!device || EFI_ERROR(app_bs->HandleProtocol(device, &dp_guid, (void **)&path)))
		return NULL;
	return path;
}

static EFI_FILE_PROTOCOL *open_file(EFI_HANDLE volume, const CHAR16 *name)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs = NULL;
	EFI_FILE_PROTOCOL *root = NULL, *file = NULL;
	EFI_STATUS status;

	if (!volume || EFI_ERROR(app_bs->HandleProtocol(volume, &fs_guid, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &root)))
		return NULL;
	status = root->Open(root, &file, (CHAR16 *)name, EFI_FILE_MODE_READ, 0);
	root->Close(root);
	return EFI_ERROR(status) ? NULL : file;
}

static UINT64 file_size(EFI_FILE_PROTOCOL *file)
{
	UINT8 buffer[sizeof(EFI_FILE_INFO) + 256];
	UINTN size = sizeof(buffer);

	if (EFI_ERROR(file->GetInfo(file, &file_info_guid, &size, buffer)))
		return 0;
	return ((EFI_FILE_INFO *)buffer)->FileSize;
}

/* Reads exactly size bytes. */
static bool read_all(EFI_FILE_PROTOCOL *file, void *buffer, UINTN size)
{
	UINTN got = size;

	return !EFI_ERROR(file->Read(file, &got, buffer)) && got == size;
}

void *rdt_read_own_file(const CHAR16 *name, UINTN *size, UINTN *pages)
{
	EFI_FILE_PROTOCOL *file = open_file(own_device(), name);
	EFI_PHYSICAL_ADDRESS base = 0;
	void *data = NULL;

	if (!file)
		return NULL;
	*size = file_size(file);
	*pages = EFI_SIZE_TO_PAGES(*size);
	if (*size &&
	    !EFI_ERROR(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, *pages, &base))) {
		data = (void *)(uintptr_t)base;
		if (!read_all(file, data, *size)) {
			app_bs->FreePages(base, *pages);
			data = NULL;
		}
	}
	file->Close(file);
	return data;
}

EFI_HANDLE rdt_find_volume(const EFI_DEVICE_PATH_PROTOCOL *path, EFI_DEVICE_PATH_PROTOCOL **fs_path)
{
	EFI_HANDLE *handles = NULL, found = NULL;
	UINTN count = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &fs_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++)
		if (!EFI_ERROR(app_bs->HandleProtocol(handles[i], &dp_guid, (void **)fs_path)) &&
		    dp_starts_with(*fs_path, path))
			found = handles[i];
	app_bs->FreePool(handles);
	return found;
}

char *rdt_read_volume_file(EFI_HANDLE volume, const CHAR16 *name, UINTN *size)
{
	EFI_FILE_PROTOCOL *file = open_file(volume, name);
	char *text = NULL;

	if (!file)
		return NULL;
	*size = file_size(file);
	text = app_alloc(*size + 1);
	if (text && !read_all(file, text, *size)) {
		app_free(text);
		text = NULL;
	} else if (text) {
		text[*size] = 0;
	}
	file->Close(file);
	return text;
}
