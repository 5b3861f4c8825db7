/* EFI_RAM_DISK_PROTOCOL (drivers/ram_disk): the statuses of 13.17, the media of each type,
 * writes landing in the registered memory, unregistering, and the boot manager booting the
 * removable-media file of a RAM disk named by its device path alone. Each test runs in its
 * own process (the world of tests/unit/bds_fixture.c). */
#include <stdlib.h>
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/ram_disk.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>

static EFI_RAM_DISK_PROTOCOL *rd;

/* size bytes of core pages holding data (zeros when NULL). */
static UINT8 *core_copy(const void *data, size_t size)
{
	EFI_PHYSICAL_ADDRESS at = 0;

	ASSERT_STATUS(
	    mem_allocate_pages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(size), &at),
	    EFI_SUCCESS);
	if (data)
		memcpy((void *)(uintptr_t)at, data, size);
	else
		memset((void *)(uintptr_t)at, 0, size);
	return (UINT8 *)(uintptr_t)at;
}

static void start(void)
{
	bds_world_start();
	ASSERT_STATUS(protocol_locate(&efi_ram_disk_protocol_guid, (void **)&rd), EFI_SUCCESS);
}

static EFI_BLOCK_IO_PROTOCOL *block_io_of(EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = path;
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;
	EFI_HANDLE h;

	if (EFI_ERROR(handle_locate_device_path(&efi_block_io_protocol_guid, &rest, &h)) ||
	    !dp_is_end(rest) ||
	    EFI_ERROR(protocol_get(h, &efi_block_io_protocol_guid, (void **)&bio)))
		return NULL;
	return bio;
}

static void bad_arguments(void)
{
	EFI_GUID disk = EFI_VIRTUAL_DISK_GUID, cd = EFI_VIRTUAL_CD_GUID;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL, *again = NULL;
	UINT8 *mem, not_ours[4096];
	UINT64 base;
	struct {
		MEDIA_RAM_DISK_DEVICE_PATH node;
		EFI_DEVICE_PATH_PROTOCOL end;
	} __attribute__((packed)) unknown;

	dp_set_end(&unknown.end);
	start();
	mem = core_copy(NULL, 8192);
	base = (UINT64)(uintptr_t)mem;
	/* 13.17's statuses. */
	EXPECT_STATUS(rd->Register(base, 0, &disk, NULL, &path), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rd->Register(base, 8192, NULL, NULL, &path), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rd->Register(base, 8192, &disk, NULL, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rd->Unregister(NULL), EFI_INVALID_PARAMETER);
	/* Ember's: memory the core did not hand out, a range that wraps, less than a block. */
	EXPECT_STATUS(
	    rd->Register((UINT64)(uintptr_t)not_ours, sizeof(not_ours), &disk, NULL, &path),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rd->Register(~0ull - 100, 8192, &disk, NULL, &path), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rd->Register(base, 511, &disk, NULL, &path), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rd->Register(base, 2047, &cd, NULL, &path), EFI_INVALID_PARAMETER);
	/* Registered twice: the same device path. */
	ASSERT_STATUS(rd->Register(base, 8192, &disk, NULL, &path), EFI_SUCCESS);
	EXPECT_STATUS(rd->Register(base, 8192, &disk, NULL, &again), EFI_ALREADY_STARTED);
	EXPECT(again == NULL);
	/* A path without a RamDisk() node; one naming a disk nobody registered. */
	EXPECT_STATUS(rd->Unregister((EFI_DEVICE_PATH_PROTOCOL *)&unknown.end), EFI_UNSUPPORTED);
	memcpy(&unknown.node, path, sizeof(unknown.node));
	unknown.node.EndingAddr--;
	dp_set_end(&unknown.end);
	EXPECT_STATUS(rd->Unregister(&unknown.node.Header), EFI_NOT_FOUND);
	EXPECT_STATUS(rd->Unregister(path), EFI_SUCCESS);
	EXPECT_STATUS(rd->Unregister(path), EFI_NOT_FOUND);
	EXPECT(block_io_of(path) == NULL);
	pool_free(path);
}

TEST(ram_disk_bad_arguments)
{
	RUN_ISOLATED(bad_arguments);
}

static void media_and_writes(void)
{
	EFI_GUID disk = EFI_VIRTUAL_DISK_GUID, cd = EFI_VIRTUAL_CD_GUID;
	EFI_DEVICE_PATH_PROTOCOL *dpath = NULL, *cpath = NULL;
	UINT8 *mem, block[2048];
	EFI_BLOCK_IO_PROTOCOL *bio;

	start();
	mem = core_copy(NULL, 3 * 4096);
	/* 10000 bytes: 19 whole 512-byte blocks, the rest unreachable. */
	ASSERT_STATUS(rd->Register((UINTN)mem, 10000, &disk, NULL, &dpath), EFI_SUCCESS);
	ASSERT((bio = block_io_of(dpath)) != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_EQ(bio->Media->LastBlock, 18);
	EXPECT(!bio->Media->ReadOnly && bio->Media->MediaPresent);
	memset(block, 0xa5, 512);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 3, 512, block), EFI_SUCCESS);
	EXPECT_EQ(mem[3 * 512], 0xa5);
	EXPECT_EQ(mem[4 * 512 - 1], 0xa5);
	EXPECT_EQ(mem[4 * 512], 0);
	mem[0] = 0x5a;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, block), EFI_SUCCESS);
	EXPECT_EQ(block[0], 0x5a);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 19, 512, block),
		      EFI_INVALID_PARAMETER);
	/* The same memory as a virtual CD: read-only, 2048-byte blocks. */
	ASSERT_STATUS(rd->Register((UINTN)mem, 3 * 4096, &cd, NULL, &cpath), EFI_SUCCESS);
	ASSERT((bio = block_io_of(cpath)) != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 2048);
	EXPECT_EQ(bio->Media->LastBlock, 5);
	EXPECT(bio->Media->ReadOnly);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 0, 2048, block),
		      EFI_WRITE_PROTECTED);
	EXPECT_STATUS(rd->Unregister(cpath), EFI_SUCCESS);
	EXPECT_STATUS(rd->Unregister(dpath), EFI_SUCCESS);
	pool_free(cpath);
	pool_free(dpath);
}

TEST(ram_disk_media_and_writes)
{
	RUN_ISOLATED(media_and_writes);
}

/* A device path to the RAM disk alone, as HTTP boot of a disk image would give it: the boot
 * manager finds \EFI\BOOT\BOOTX64.EFI on its file system and starts it. */
static void boot_manager_boots_it(void)
{
	static const struct bds_file files[] = {{"/EFI/BOOT/BOOTX64.EFI", 7}};
	static const UINT16 order[] = {1};
	EFI_GUID disk = EFI_VIRTUAL_DISK_GUID;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	struct bds_platform platform = {0};
	size_t size;
	UINT8 *image, *mem;

	start();
	image = bds_fat_image(files, 1, &size);
	mem = core_copy(image, size);
	free(image);
	ASSERT_STATUS(rd->Register((UINTN)mem, size, &disk, NULL, &path), EFI_SUCCESS);
	bds_option_put(u"Boot", 1, LOAD_OPTION_ACTIVE, u"ram disk", path, NULL, 0);
	bds_order_put(u"BootOrder", order, 1);
	bds_run(&platform);
	/* Boot0001 first (the default option the boot manager then makes for the RAM disk's
	 * file system runs it again, since it returned). */
	ASSERT(bds_world.run_count >= 1);
	EXPECT_EQ(bds_world.runs[0].id, 7);
	EXPECT_EQ(bds_world.runs[0].boot_current, 1);
	EXPECT_STATUS(rd->Unregister(path), EFI_SUCCESS);
	pool_free(path);
}

TEST(ram_disk_boot_manager_boots_it)
{
	RUN_ISOLATED(boot_manager_boots_it);
}

/* A file open on the RAM disk's volume: Unregister takes the volume away (the FAT driver
 * stops with files open) and the open file then fails instead of reading the memory; were
 * the volume to refuse, the disk would stay whole and go once the file is closed. */
static void unregister_with_open_file(void)
{
	static const struct bds_file files[] = {{"/EFI/BOOT/BOOTX64.EFI", 7}};
	EFI_GUID disk = EFI_VIRTUAL_DISK_GUID;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL, *rest;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root, *file;
	EFI_HANDLE volume;
	EFI_STATUS status;
	size_t size;
	UINT8 *image, *mem;

	start();
	image = bds_fat_image(files, 1, &size);
	mem = core_copy(image, size);
	free(image);
	ASSERT_STATUS(rd->Register((UINTN)mem, size, &disk, NULL, &path), EFI_SUCCESS);
	rest = path;
	ASSERT_STATUS(
	    handle_locate_device_path(&efi_simple_file_system_protocol_guid, &rest, &volume),
	    EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(volume, &efi_simple_file_system_protocol_guid, (void **)&sfs),
		      EFI_SUCCESS);
	ASSERT_STATUS(sfs->OpenVolume(sfs, &root), EFI_SUCCESS);
	ASSERT_STATUS(
	    root->Open(root, &file, (CHAR16 *)u"\\EFI\\BOOT\\BOOTX64.EFI", EFI_FILE_MODE_READ, 0),
	    EFI_SUCCESS);
	status = rd->Unregister(path);
	if (!EFI_ERROR(status)) {
		/* The volume is gone: its handles fail, they do not read freed memory. */
		UINT8 buf[16];
		UINTN n = sizeof(buf);
		status = file->Read(file, &n, buf);
		EXPECT(EFI_ERROR(status));
		file->Close(file);
		root->Close(root);
	} else {
		EXPECT(block_io_of(path) != NULL);
		file->Close(file);
		root->Close(root);
		EXPECT_STATUS(rd->Unregister(path), EFI_SUCCESS);
	}
	EXPECT(block_io_of(path) == NULL);
	EXPECT_STATUS(rd->Unregister(path), EFI_NOT_FOUND);
	pool_free(path);
}

TEST(ram_disk_unregister_with_open_file)
{
	RUN_ISOLATED(unregister_with_open_file);
}
