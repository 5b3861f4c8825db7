/* The FAT driver and its medium: write protection, media changes and removal, I/O
 * errors, damaged volumes (never a crash), FAT mirroring, FSInfo and the dirty flag. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include "../../drivers/unicode_collation/collation.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static EFI_GUID fs_info = EFI_FILE_SYSTEM_INFO_ID;
static EFI_GUID label_id = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;
static UINT8 *img;
static size_t img_size;

TEST(fat_media_write_protected)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	UINT8 buf[256], *copy;
	UINTN n = sizeof(buf);

	img = fat_image_mkfs("-F 16", 16384, &img_size);
	EXPECT_EQ(fat_image_run(img, img_size,
				"echo hi > %t && "
				"mcopy -i %s %t ::hi.txt",
				NULL, 0),
		  0);
	copy = malloc(img_size);
	memcpy(copy, img, img_size);
	fat_mem_disk_init(&fs.md, img, img_size);
	fs.md.disk.read_only = true;
	ASSERT_STATUS(fat_sfs_create(&fs.md.disk, &collation_english2, &fs.sfs), EFI_SUCCESS);
	ASSERT_STATUS(fs.sfs->sfs.OpenVolume(&fs.sfs->sfs, &fs.root), EFI_SUCCESS);
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &fs_info, &n, buf), EFI_SUCCESS);
	EXPECT(((EFI_FILE_SYSTEM_INFO *)buf)->ReadOnly);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"hi.txt", RW, 0), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"new.txt", CREATE, 0), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(fs.root->SetInfo(fs.root, &label_id, sizeof(u"X"), u"X"),
		      EFI_WRITE_PROTECTED);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"hi.txt", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT(n == 3 && !memcmp(buf, "hi\n", 3));
	EXPECT_STATUS(f->Write(f, &n, buf), EFI_ACCESS_DENIED);
	EXPECT_STATUS(f->Delete(f), EFI_WARN_DELETE_FAILURE);
	EXPECT_STATUS(fs.root->Flush(fs.root), EFI_WRITE_PROTECTED);
	EXPECT_EQ(fs.md.writes, 0);
	EXPECT(memcmp(copy, img, img_size) == 0);
	free(copy);
	test_fs_done(&fs, true);
}

TEST(fat_media_change_and_removal)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f, *root2;
	UINT8 *other = fat_image_mkfs("-F 12 -n SECOND", 1440, &img_size);
	char buf[16];
	UINTN n = 4;

	free(other);
	img = test_fs_fresh(&fs, "-F 12 -n FIRST", 1440);
	EXPECT_STATUS(test_fs_put(fs.root, u"first.txt", "one", 3), EFI_SUCCESS);
	/* Written through: the medium could go now. */
	EXPECT(fat_image_fsck_clean(img, img_size));
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"first.txt", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	/* Another medium goes in: old handles fail, OpenVolume mounts the new one. */
	other = fat_image_mkfs("-F 12 -n SECOND", 1440, &img_size);
	memcpy(img, other, img_size);
	free(other);
	fs.md.media_id++;
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"first.txt", EFI_FILE_MODE_READ, 0),
		      EFI_MEDIA_CHANGED);
	ASSERT_STATUS(fs.sfs->sfs.OpenVolume(&fs.sfs->sfs, &root2), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(root2->GetInfo(root2, &label_id, &n, buf), EFI_SUCCESS);
	EXPECT(memcmp(buf, u"SECOND", sizeof(u"SECOND")) == 0);
	EXPECT_STATUS(root2->Open(root2, &f, u"first.txt", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	/* The old handles still close. */
	EXPECT_STATUS(fs.root->Close(fs.root), EFI_SUCCESS);
	fs.root = root2;
	/* Removed: no medium, for handles and for OpenVolume. */
	fs.md.present = false;
	n = sizeof(buf);
	EXPECT_STATUS(root2->Read(root2, &n, buf), EFI_NO_MEDIA);
	EXPECT_STATUS(fs.sfs->sfs.OpenVolume(&fs.sfs->sfs, &f), EFI_NO_MEDIA);
	/* Back in (a new medium ID): mounts again. */
	fs.md.present = true;
	fs.md.media_id++;
	ASSERT_STATUS(fs.sfs->sfs.OpenVolume(&fs.sfs->sfs, &f), EFI_SUCCESS);
	f->Close(f);
	/* Not FAT any more: the medium "is no longer supported" (nor is it for fsck). */
	memset(img, 0, 512);
	fs.md.media_id++;
	EXPECT_STATUS(fs.sfs->sfs.OpenVolume(&fs.sfs->sfs, &f), EFI_MEDIA_CHANGED);
	test_fs_done(&fs, false);
}

TEST(fat_media_device_errors)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	char buf[16];
	UINTN n = 5;

	test_fs_fresh(&fs, "-F 16", 16384);
	EXPECT_STATUS(test_fs_put(fs.root, u"file.txt", "fine", 4), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"file.txt", RW, 0), EFI_SUCCESS);
	fs.md.fail = EFI_DEVICE_ERROR;
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_DEVICE_ERROR);
	EXPECT_STATUS(f->Write(f, &n, buf), EFI_DEVICE_ERROR);
	fs.md.fail = EFI_SUCCESS;
	EXPECT_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT(n == 4 && !memcmp(buf, "fine", 4));
	/* Writes fail half-way through an operation. */
	fs.md.fail = EFI_DEVICE_ERROR;
	fs.md.fail_after = fs.md.writes + 2;
	n = 5;
	EXPECT_STATUS(f->Write(f, &n, "again"), EFI_DEVICE_ERROR);
	fs.md.fail = EFI_SUCCESS;
	f->Close(f);
	test_fs_done(&fs, true);
}

/* What a mount cannot start from: a disk smaller than a boot sector, a boot sector that
 * cannot be read; and a medium found write-protected only when written to. */
TEST(fat_media_mount_refusals)
{
	struct test_fs fs;
	struct fat_sfs *sfs;
	EFI_FILE_PROTOCOL *f;
	UINT8 buf[256];
	UINTN n;

	img = fat_image_mkfs("-F 12", 1440, &img_size);
	fat_mem_disk_init(&fs.md, img, 100);
	EXPECT_STATUS(fat_sfs_create(&fs.md.disk, &collation_english2, &sfs), EFI_UNSUPPORTED);
	fat_mem_disk_init(&fs.md, img, img_size);
	fs.md.fail = EFI_DEVICE_ERROR;
	EXPECT_STATUS(fat_sfs_create(&fs.md.disk, &collation_english2, &sfs), EFI_DEVICE_ERROR);
	/* The write protection the medium did not declare shows at the first write. */
	ASSERT_STATUS(test_fs_open(&fs, img, img_size), EFI_SUCCESS);
	fs.md.disk.read_only = true; /* the memory disk refuses writes from now on */
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"new.txt", CREATE, 0), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"new.txt", CREATE, 0), EFI_WRITE_PROTECTED);
	n = sizeof(buf);
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &fs_info, &n, buf), EFI_SUCCESS);
	EXPECT(((EFI_FILE_SYSTEM_INFO *)buf)->ReadOnly);
	EXPECT_EQ(fs.md.writes, 0);
	test_fs_done(&fs, true);
}

/* Mounts a damaged image and walks it: statuses, never a crash. */
static EFI_STATUS walk_damaged(UINT8 *image, size_t size)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	char buf[4096];
	UINTN n;
	EFI_STATUS status = test_fs_open(&fs, image, size);

	if (EFI_ERROR(status))
		return status;
	status = fs.root->Open(fs.root, &f, u"BIG.BIN", EFI_FILE_MODE_READ, 0);
	if (!EFI_ERROR(status)) {
		do {
			n = sizeof(buf);
			status = f->Read(f, &n, buf);
		} while (!EFI_ERROR(status) && n);
		f->Close(f);
	}
	test_fs_close(&fs);
	return status;
}

TEST(fat_media_damaged_volumes)
{
	UINT8 *damaged;
	struct fat_geometry g;
	UINT32 first;

	img = fat_image_mkfs("-F 16 -s 1", 16384, &img_size);
	EXPECT_EQ(fat_image_run(img, img_size,
				"head -c 20000 /dev/zero > %t && "
				"mcopy -i %s %t ::BIG.BIN",
				NULL, 0),
		  0);
	ASSERT_STATUS(fat_bpb_parse(img, img_size, &g), EFI_SUCCESS);
	EXPECT_STATUS(walk_damaged(img, img_size), EFI_SUCCESS);
	first = fat_le16(img + g.root_offset + 26); /* BIG.BIN's first cluster */
	damaged = malloc(img_size);
	/* A loop in the chain: the file is longer than the loop allows. */
	memcpy(damaged, img, img_size);
	fat_put16(damaged + g.fat_offset + 2 * (first + 3), (UINT16)first);
	EXPECT_STATUS(walk_damaged(damaged, img_size), EFI_SUCCESS);
	/* A chain that ends early, one that runs into a free cluster, one out of range. */
	memcpy(damaged, img, img_size);
	fat_put16(damaged + g.fat_offset + 2 * (first + 3), 0xffff);
	EXPECT_STATUS(walk_damaged(damaged, img_size), EFI_VOLUME_CORRUPTED);
	fat_put16(damaged + g.fat_offset + 2 * (first + 3), 0);
	EXPECT_STATUS(walk_damaged(damaged, img_size), EFI_VOLUME_CORRUPTED);
	fat_put16(damaged + g.fat_offset + 2 * (first + 3), 0xfff0);
	EXPECT_STATUS(walk_damaged(damaged, img_size), EFI_VOLUME_CORRUPTED);
	/* The file starts outside the volume. */
	memcpy(damaged, img, img_size);
	fat_put16(damaged + g.root_offset + 26, 0xfff0);
	EXPECT_STATUS(walk_damaged(damaged, img_size), EFI_VOLUME_CORRUPTED);
	/* A directory whose chain comes back on itself. */
	memcpy(damaged, img, img_size);
	EXPECT_EQ(fat_image_run(damaged, img_size, "mmd -i %s ::/LOOPDIR", NULL, 0), 0);
	{
		UINT8 *e = damaged + g.root_offset;
		struct test_fs fs;
		EFI_FILE_PROTOCOL *d;
		UINT32 c;

		while (memcmp(e, "LOOPDIR    ", 11) != 0)
			e += 32;
		c = fat_le16(e + 26);
		fat_put16(damaged + g.fat_offset + 2 * c, (UINT16)c);
		ASSERT_STATUS(test_fs_open(&fs, damaged, img_size), EFI_SUCCESS);
		EXPECT_STATUS(fs.root->Open(fs.root, &d, u"LOOPDIR\\x", EFI_FILE_MODE_READ, 0),
			      EFI_VOLUME_CORRUPTED);
		test_fs_close(&fs);
	}
	/* Not a FAT volume at all. */
	memset(damaged, 0, 512);
	EXPECT_STATUS(walk_damaged(damaged, img_size), EFI_UNSUPPORTED);
	free(damaged);
	free(img);
}

TEST(fat_media_mirroring_fsinfo_dirty_flag)
{
	struct test_fs fs;
	struct fat_geometry g;
	EFI_FILE_PROTOCOL *f;
	UINT8 buf[64 * 1024];
	UINTN n = sizeof(buf);
	UINT32 free_count, next, really;

	img = test_fs_fresh(&fs, "-F 32", 40000);
	img_size = fs.md.size;
	g = fs.sfs->vol->geo;
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"grow.bin", CREATE, 0), EFI_SUCCESS);
	memset(buf, 0x5a, n);
	EXPECT_STATUS(f->Write(f, &n, buf), EFI_SUCCESS);
	/* Between operations the volume is clean; both FATs are the same. */
	EXPECT_EQ(img[g.state_offset] & FAT_STATE_DIRTY, 0);
	EXPECT(memcmp(img + g.fat_offset, img + g.fat_offset + g.fat_bytes, g.fat_bytes) == 0);
	EXPECT(fat_fsinfo_parse(img + g.fsinfo_offset, &free_count, &next));
	EXPECT_STATUS(fat_table_count_free(fs.sfs->vol, &really), EFI_SUCCESS);
	EXPECT_EQ(free_count, really);
	EXPECT(next >= 2 && next <= g.max_cluster);
	EXPECT_STATUS(f->Flush(f), EFI_SUCCESS);
	EXPECT_STATUS(f->Delete(f), EFI_SUCCESS);
	EXPECT(fat_fsinfo_parse(img + g.fsinfo_offset, &free_count, &next));
	EXPECT_EQ(free_count, g.max_cluster - 2); /* all but the root's cluster */
	test_fs_close(&fs);
	EXPECT(fat_image_fsck_clean(img, img_size));
	/* A volume found dirty stays dirty (for fsck to look at). */
	img[g.state_offset] |= FAT_STATE_DIRTY;
	ASSERT_STATUS(test_fs_open(&fs, img, img_size), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(fs.root, u"x", "x", 1), EFI_SUCCESS);
	test_fs_close(&fs);
	EXPECT(img[g.state_offset] & FAT_STATE_DIRTY);
	/* Apart from the flag, what was written holds together. */
	img[g.state_offset] &= (UINT8)~FAT_STATE_DIRTY;
	EXPECT(fat_image_fsck_clean(img, img_size));
	free(img);
}
