/* ramdisk-test: EFI_RAM_DISK_PROTOCOL (UEFI 2.10, 13.17). Reads two images from its own
 * volume into memory: \ramdisk.img (a FAT file system made by mkfs.vfat, registered as a
 * virtual disk) and \ramdisk.iso (an xorriso ISO whose El Torito EFI image holds
 * \EFI\BOOT\BOOTX64.EFI and \RAMDISK.TXT, registered as a virtual CD under the app's own
 * volume as parent). Checks the returned device paths and media, reads a file of each through
 * SimpleFileSystem, starts the ISO's BOOTX64.EFI with LoadImage/StartImage from the RAM
 * disk's device path, unregisters both, and checks the statuses 13.17 names for bad
 * arguments. Prints "ramdisk-test: N passed, M failed" and powers the machine off. */
#include "ramdisk_test.h"
#include "../lib/devpath.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/ram_disk.h>

static EFI_RAM_DISK_PROTOCOL *rd;
static EFI_GUID rd_guid = EFI_RAM_DISK_PROTOCOL_GUID;
static EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID virtual_disk_guid = EFI_VIRTUAL_DISK_GUID;
static EFI_GUID virtual_cd_guid = EFI_VIRTUAL_CD_GUID;

/* An image in memory. */
struct image {
	UINT8 *data;
	UINTN size, pages;
};

/* The last node of path. */
static const EFI_DEVICE_PATH_PROTOCOL *last_node(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	const EFI_DEVICE_PATH_PROTOCOL *last = NULL;

	for (; !dp_is_end(path); path = dp_next(path))
		last = path;
	return last;
}

/* path is parent's nodes (none for NULL) then RamDisk(start, start+size-1, type, 0). */
static void check_path(const EFI_DEVICE_PATH_PROTOCOL *path, const EFI_DEVICE_PATH_PROTOCOL *parent,
		       const struct image *img, const EFI_GUID *type)
{
	const EFI_DEVICE_PATH_PROTOCOL *last = last_node(path);
	MEDIA_RAM_DISK_DEVICE_PATH node;
	UINTN parent_size = parent ? dp_size(parent) - DP_END_SIZE : 0;

	if (!CHECK(last && last->Type == MEDIA_DEVICE_PATH && last->SubType == MEDIA_RAM_DISK_DP &&
		   dp_node_length(last) == sizeof(node)))
		return;
	mem_copy(&node, last, sizeof(node));
	CHECK_EQ(dp_size(path), parent_size + sizeof(node) + DP_END_SIZE);
	CHECK(!parent || dp_starts_with(path, parent));
	CHECK_EQ(node.StartingAddr, (UINT64)(uintptr_t)img->data);
	CHECK_EQ(node.EndingAddr, (UINT64)(uintptr_t)img->data + img->size - 1);
	CHECK(!mem_cmp(&node.TypeGuid, type, sizeof(EFI_GUID)));
	CHECK_EQ(node.Instance, 0);
}

/* The RAM disk's own handle has BlockIo with the media of its type. */
static void check_media(EFI_DEVICE_PATH_PROTOCOL *path, const struct image *img, bool cd)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;
	EFI_HANDLE handle = NULL;
	UINT32 block = cd ? 2048 : 512;

	if (!CHECK_STATUS(app_bs->LocateDevicePath(&block_io_guid, &rest, &handle), EFI_SUCCESS) ||
	    !CHECK(dp_is_end(rest)) ||
	    !CHECK_STATUS(app_bs->HandleProtocol(handle, &block_io_guid, (void **)&bio),
			  EFI_SUCCESS))
		return;
	app_print("ramdisk-test: %s: block size %u, last block %llu, %s\n", cd ? "cd" : "disk",
		  (unsigned)bio->Media->BlockSize, (unsigned long long)bio->Media->LastBlock,
		  bio->Media->ReadOnly ? "read-only" : "writable");
	CHECK(bio->Media->MediaPresent);
	CHECK_EQ_KNOWN(bio->Media->BlockSize, block, FW_EDK2,
		       "RamDiskDxe gives every type 512-byte blocks");
	CHECK_EQ_KNOWN(bio->Media->ReadOnly, cd, FW_EDK2, "RamDiskDxe writes to virtual CDs");
	if (bio->Media->BlockSize == block)
		CHECK_EQ(bio->Media->LastBlock, img->size / block - 1);
}

/* Reads name from the volume below path and compares it with want. */
static void check_file(const EFI_DEVICE_PATH_PROTOCOL *path, const CHAR16 *name, const char *want)
{
	EFI_DEVICE_PATH_PROTOCOL *fs_path;
	EFI_HANDLE volume = rdt_find_volume(path, &fs_path);
	UINTN size = 0;
	char *text;

	if (!CHECK(volume != NULL))
		return;
	text = rdt_read_volume_file(volume, name, &size);
	if (CHECK(text != NULL)) {
		app_print("ramdisk-test: read %ls: %s", name, text);
		CHECK_EQ(size, str8_len(want));
		CHECK(!mem_cmp(text, want, size));
		app_free(text);
	}
}

/* Loads \EFI\BOOT\BOOTX64.EFI from the volume below the RAM disk's path and starts it. */
static void check_boot(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *fs_path, *file = NULL, *full = NULL;
	EFI_HANDLE volume = rdt_find_volume(path, &fs_path), image = NULL;

	if (!CHECK(volume != NULL))
		return;
	file = dp_file_path(u"\\EFI\\BOOT\\BOOTX64.EFI");
	full = file ? dp_append(fs_path, file) : NULL;
	if (CHECK(full != NULL) &&
	    CHECK_STATUS(app_bs->LoadImage(TRUE, app_image, full, NULL, 0, &image), EFI_SUCCESS)) {
		app_print("ramdisk-test: starting BOOTX64.EFI from the RAM disk\n");
		CHECK_STATUS(app_bs->StartImage(image, NULL, NULL), EFI_SUCCESS);
	}
	app_free(full);
	app_free(file);
}

/* Unregisters path; afterwards the handle is gone and the disk unknown. */
static void check_unregister(EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_HANDLE handle = NULL;

	CHECK_STATUS(rd->Unregister(path), EFI_SUCCESS);
	if (!EFI_ERROR(app_bs->LocateDevicePath(&block_io_guid, &rest, &handle)))
		CHECK(!dp_is_end(rest)); /* a parent's BlockIo may still match a prefix */
	CHECK_STATUS(rd->Unregister(path), EFI_NOT_FOUND);
}

/* Registers a RAM disk; returns a copy of its device path. The path Register returns is
 * left alone: OVMF's RamDiskDxe hands out the very buffer it installed and frees it in
 * Unregister, so the caller may neither free nor use it afterwards (Ember gives a copy). */
static EFI_DEVICE_PATH_PROTOCOL *register_disk(const struct image *img, EFI_GUID *type,
					       EFI_DEVICE_PATH_PROTOCOL *parent)
{
	EFI_DEVICE_PATH_PROTOCOL *given = NULL, *copy;

	if (!CHECK_STATUS(rd->Register((UINTN)img->data, img->size, type, parent, &given),
			  EFI_SUCCESS) ||
	    !CHECK(given != NULL))
		return NULL;
	copy = dp_append(given, NULL);
	CHECK(copy != NULL);
	return copy;
}

/* The FAT image as a virtual disk without a parent. */
static void check_disk(const struct image *img)
{
	UINTN base = (UINTN)img->data;
	EFI_DEVICE_PATH_PROTOCOL *path = register_disk(img, &virtual_disk_guid, NULL),
				 *again = NULL;

	if (!path)
		return;
	check_path(path, NULL, img, &virtual_disk_guid);
	check_media(path, img, false);
	/* The same disk again would make the same device path (13.17: EFI_ALREADY_STARTED). */
	CHECK_STATUS(rd->Register(base, img->size, &virtual_disk_guid, NULL, &again),
		     EFI_ALREADY_STARTED);
	app_bs->ConnectController(NULL, NULL, NULL, TRUE); /* harmless if Register connected */
	check_file(path, u"\\HELLO.TXT", "hello from a RAM disk\n");
	check_unregister(path);
	app_free(path);
}

/* The ISO as a virtual CD under the app's volume; its BOOTX64.EFI is started. */
static void check_cd(const struct image *img)
{
	EFI_DEVICE_PATH_PROTOCOL *parent = rdt_own_volume_path(), *path, *rest;
	EFI_HANDLE handle = NULL;

	if (!CHECK(parent != NULL) || !(path = register_disk(img, &virtual_cd_guid, parent)))
		return;
	check_path(path, parent, img, &virtual_cd_guid);
	check_media(path, img, true);
	rest = path;
	if (!EFI_ERROR(app_bs->LocateDevicePath(&block_io_guid, &rest, &handle)))
		app_bs->ConnectController(handle, NULL, NULL, TRUE);
	check_file(path, u"\\RAMDISK.TXT", "an El Torito image in a RAM disk\n");
	check_boot(path);
	check_unregister(path);
	app_free(path);
}

/* The statuses 13.17 names for bad arguments. */
static void check_arguments(const struct image *img)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL, *own = rdt_own_volume_path();
	MEDIA_RAM_DISK_DEVICE_PATH unknown[2];
	UINTN base = (UINTN)img->data;

	CHECK_STATUS(rd->Register(base, 0, &virtual_disk_guid, NULL, &path), EFI_INVALID_PARAMETER);
	CHECK_STATUS(rd->Register(base, img->size, NULL, NULL, &path), EFI_INVALID_PARAMETER);
	CHECK_STATUS(rd->Register(base, img->size, &virtual_disk_guid, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(rd->Unregister(NULL), EFI_INVALID_PARAMETER);
	if (CHECK(own != NULL))
		CHECK_STATUS(rd->Unregister(own), EFI_UNSUPPORTED);
	/* A RamDisk() node of a disk nobody registered. */
	mem_set(unknown, 0, sizeof(unknown));
	dp_set_node(&unknown[0].Header, MEDIA_DEVICE_PATH, MEDIA_RAM_DISK_DP, sizeof(unknown[0]));
	unknown[0].StartingAddr = base;
	unknown[0].EndingAddr = base + 511;
	mem_copy(&unknown[0].TypeGuid, &virtual_disk_guid, sizeof(EFI_GUID));
	dp_set_end(&unknown[1].Header);
	CHECK_STATUS(rd->Unregister(&unknown[0].Header), EFI_NOT_FOUND);
}

static bool read_image(const CHAR16 *name, struct image *img)
{
	img->data = rdt_read_own_file(name, &img->size, &img->pages);
	if (!CHECK(img->data != NULL)) {
		app_print("ramdisk-test: cannot read %ls from the app's volume\n", name);
		return false;
	}
	app_print("ramdisk-test: %ls: %llu bytes at 0x%llx\n", name, (unsigned long long)img->size,
		  (unsigned long long)(uintptr_t)img->data);
	return true;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct image disk = {0}, cd = {0};

	app_init(image, st);
	app_print("ramdisk-test on %ls\n", st->FirmwareVendor);
	if (CHECK_STATUS(app_bs->LocateProtocol(&rd_guid, NULL, (void **)&rd), EFI_SUCCESS) &&
	    read_image(u"\\ramdisk.img", &disk) && read_image(u"\\ramdisk.iso", &cd)) {
		check_arguments(&disk);
		check_disk(&disk);
		check_cd(&cd);
	}
	if (disk.data)
		app_bs->FreePages((UINTN)disk.data, disk.pages);
	if (cd.data)
		app_bs->FreePages((UINTN)cd.data, cd.pages);
	check_print_summary("ramdisk-test");
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
