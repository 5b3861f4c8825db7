/* The FAT driver in the driver model: ConnectController over a BlockIo device (through
 * the Disk I/O and partition drivers) installs EFI_SIMPLE_FILE_SYSTEM_PROTOCOL on the
 * volume's handle; medium changes and DisconnectController are honoured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static const EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

static EFI_FILE_PROTOCOL *open_volume(EFI_HANDLE handle)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root = NULL;

	if (EFI_ERROR(protocol_get(handle, &sfs_guid, (void **)&sfs)))
		return NULL;
	if (EFI_ERROR(sfs->OpenVolume(sfs, &root)))
		return NULL;
	return root;
}

TEST(fat_driver_binds_whole_disk)
{
	size_t size;
	UINT8 *img = fat_image_mkfs("-F 16", 16384, &size);
	struct test_block_dev *dev;
	EFI_FILE_PROTOCOL *root, *f, *g;
	char buf[16];
	UINTN n = sizeof(buf);

	test_install_builtin_drivers();
	dev = test_block_dev_create(img, size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	root = open_volume(dev->handle);
	ASSERT(root);
	EXPECT_STATUS(test_fs_put(root, u"Driver Model.txt", "bound", 5), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(root, u"driver model.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT(n == 5 && !memcmp(buf, "bound", 5));
	/* A change of medium: handles fail, OpenVolume mounts again. */
	ASSERT_STATUS(root->Open(root, &f, u"Driver Model.txt", EFI_FILE_MODE_READ, 0),
		      EFI_SUCCESS);
	dev->media.MediaId++;
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_MEDIA_CHANGED);
	root->Close(root);
	root = open_volume(dev->handle);
	ASSERT(root);
	EXPECT_STATUS(test_fs_get(root, u"Driver Model.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	/* Write protection comes from the medium. */
	dev->media.ReadOnly = TRUE;
	dev->media.MediaId++;
	root->Close(root);
	root = open_volume(dev->handle);
	ASSERT(root);
	EXPECT_STATUS(root->Open(root, &g, u"new.txt", CREATE, 0), EFI_WRITE_PROTECTED);
	/* Disconnected: the protocol goes, open handles fail but still close. */
	test_block_dev_destroy(dev);
	n = sizeof(buf);
	EXPECT_STATUS(root->Read(root, &n, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(root->Close(root), EFI_SUCCESS);
	EXPECT_STATUS(f->Close(f), EFI_SUCCESS);
	EXPECT(fat_image_fsck_clean(img, size));
	free(img);
}

TEST(fat_driver_binds_gpt_partition)
{
	size_t vol_size, size = 20u << 20;
	UINT8 *vol = fat_image_mkfs("-F 16", 16384, &vol_size), *img = calloc(1, size);
	struct test_block_dev *dev;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	EFI_FILE_PROTOCOL *root;

	EXPECT_EQ(
	    fat_image_run(img, size, "sgdisk -n 1:2048:34815 -t 1:ef00 %s >/dev/null", NULL, 0), 0);
	memcpy(img + (1u << 20), vol, vol_size);
	test_install_builtin_drivers();
	dev = test_block_dev_create(img, size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	/* On the partition's handle, not the disk's. */
	EXPECT(open_volume(dev->handle) == NULL);
	ASSERT_STATUS(handle_locate_buffer(ByProtocol, &sfs_guid, NULL, &count, &handles),
		      EFI_SUCCESS);
	EXPECT_EQ(count, 1);
	root = open_volume(handles[0]);
	ASSERT(root);
	EXPECT_STATUS(test_fs_put(root, u"in a partition.txt", "gpt", 3), EFI_SUCCESS);
	root->Close(root);
	pool_free(handles);
	test_block_dev_destroy(dev);
	EXPECT_EQ(fat_image_run(img, size, "mtype -i %s@@1M '::in a partition.txt'", (char *)vol,
				vol_size),
		  0);
	EXPECT(memcmp(vol, "gpt", 3) == 0);
	free(vol);
	free(img);
}

/* Whether name can be opened on the volume. */
static bool exists(EFI_FILE_PROTOCOL *root, const CHAR16 *name)
{
	EFI_FILE_PROTOCOL *f;

	if (EFI_ERROR(root->Open(root, &f, (CHAR16 *)name, EFI_FILE_MODE_READ, 0)))
		return false;
	f->Close(f);
	return true;
}

/* Another writer changes the volume under the driver (here mtools), then says so: by a
 * new MediaId, or by reinstalling BlockIo (UEFI 2.10, 13.9). Either way nothing cached
 * from before is used: the new file is seen, and the next allocation does not take its
 * clusters (fsck.fat would find them cross-linked). */
TEST(fat_driver_drops_its_caches_on_change)
{
	static const EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	size_t size;
	UINT8 *img = fat_image_mkfs("-F 16 -s 1", 16384, &size);
	struct test_block_dev *dev;
	EFI_FILE_PROTOCOL *root;
	static UINT8 data[4096];

	test_install_builtin_drivers();
	dev = test_block_dev_create(img, size, 512, 0);
	driver_connect(dev->handle, NULL, NULL, true);
	for (int how = 0; how < 2; how++) {
		root = open_volume(dev->handle);
		ASSERT(root);
		EXPECT_STATUS(test_fs_put(root, how ? u"mine2.bin" : u"mine1.bin", data, 4000),
			      EFI_SUCCESS);
		root->Close(root);
		EXPECT_EQ(
		    fat_image_run(img, size,
				  "head -c 3000 /dev/urandom > %t && mcopy -i %s %t ::/OTHER.BIN "
				  "&& mdel -i %s ::/OTHER.BIN && mcopy -i %s %t ::/OTHER.BIN",
				  NULL, 0),
		    0);
		if (how == 0)
			dev->media.MediaId++;
		else
			EXPECT_STATUS(protocol_reinstall(dev->handle, &block_io_guid,
							 &dev->block_io, &dev->block_io),
				      EFI_SUCCESS);
		root = open_volume(dev->handle);
		ASSERT(root);
		EXPECT(exists(root, u"OTHER.BIN"));
		EXPECT_STATUS(test_fs_put(root, u"after.bin", data, sizeof(data)), EFI_SUCCESS);
		root->Close(root);
		EXPECT(fat_image_fsck_clean(img, size));
		EXPECT_EQ(fat_image_run(img, size, "mdel -i %s ::/OTHER.BIN ::/after.bin", NULL, 0),
			  0);
		dev->media.MediaId++;
	}
	test_block_dev_destroy(dev);
	free(img);
}

/* Start leaves alone a disk that holds no FAT (zeros), a damaged boot sector and a drive
 * without a medium: no file system appears, and the disk is not written. */
TEST(fat_driver_refuses_what_is_not_fat)
{
	size_t size;
	UINT8 *img = fat_image_mkfs("-F 16", 16384, &size), *copy = malloc(size);
	struct test_block_dev *dev;

	test_install_builtin_drivers();
	for (int how = 0; how < 3; how++) {
		memcpy(copy, img, size);
		if (how == 0)
			memset(copy, 0, 512);
		else
			fat_put16(copy + 14, 0xffff); /* reserved area past the end of the volume */
		dev = test_block_dev_create(copy, size, 512, 0);
		if (how == 2) {
			memcpy(copy, img, size); /* a good volume, but no medium in the drive */
			dev->media.MediaPresent = FALSE;
		}
		driver_connect(dev->handle, NULL, NULL, true);
		EXPECT(open_volume(dev->handle) == NULL);
		EXPECT_EQ(dev->writes, 0);
		test_block_dev_destroy(dev);
	}
	free(copy);
	free(img);
}
