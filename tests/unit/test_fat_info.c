/* GetInfo and SetInfo on the FAT driver: EFI_FILE_INFO (rename, move, size, attributes,
 * times), EFI_FILE_SYSTEM_INFO and the volume label, with the statuses of 13.5.13/14. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static EFI_GUID file_info = EFI_FILE_INFO_ID;
static EFI_GUID fs_info = EFI_FILE_SYSTEM_INFO_ID;
static EFI_GUID label_id = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;
static UINT8 *img;
static size_t img_size;

/* SetInfo with the file's current info, changed by the caller, and a new name. */
static EFI_STATUS set_info(EFI_FILE_PROTOCOL *f, EFI_FILE_INFO *info, const CHAR16 *name)
{
	UINT8 buf[SIZE_OF_EFI_FILE_INFO + 512];
	EFI_FILE_INFO *n = (EFI_FILE_INFO *)buf;

	mem_copy(n, info, SIZE_OF_EFI_FILE_INFO);
	str16_copy(n->FileName, name);
	n->Size = SIZE_OF_EFI_FILE_INFO + str16_size(name);
	return f->SetInfo(f, &file_info, n->Size, n);
}

TEST(fat_getinfo_sizes_and_types)
{
	struct test_fs fs;
	UINT8 buf[512];
	UINTN n = 0;
	EFI_FILE_INFO *info;
	EFI_FILE_SYSTEM_INFO *fsi = (EFI_FILE_SYSTEM_INFO *)buf;

	test_fs_fresh(&fs, "-F 16 -n MYVOLUME", 16384);
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &file_info, &n, NULL), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(n, SIZE_OF_EFI_FILE_INFO + 2);
	n = 1;
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &file_info, &n, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fs.root->GetInfo(fs.root, NULL, &n, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &file_info, NULL, buf), EFI_INVALID_PARAMETER);
	n = sizeof(buf);
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &(EFI_GUID){1}, &n, buf), EFI_UNSUPPORTED);
	info = test_fs_info(fs.root);
	ASSERT(info);
	EXPECT_EQ(info->Attribute, EFI_FILE_DIRECTORY);
	EXPECT_EQ(info->FileSize, 512 * 32); /* the FAT16 root's fixed size */
	EXPECT(info->FileName[0] == 0);
	pool_free(info);
	n = 10;
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &fs_info, &n, buf), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(n, SIZE_OF_EFI_FILE_SYSTEM_INFO + sizeof(u"MYVOLUME"));
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &fs_info, &n, buf), EFI_SUCCESS);
	EXPECT(str16_cmp(fsi->VolumeLabel, u"MYVOLUME") == 0);
	EXPECT(!fsi->ReadOnly);
	EXPECT_EQ(fsi->BlockSize, fs.sfs->vol->geo.cluster_size);
	EXPECT(fsi->VolumeSize > 15u << 20 && fsi->VolumeSize <= 16u << 20);
	EXPECT(fsi->FreeSpace > 15u << 20 && fsi->FreeSpace <= fsi->VolumeSize);
	n = 4;
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &label_id, &n, buf), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(n, sizeof(u"MYVOLUME"));
	EXPECT_STATUS(fs.root->GetInfo(fs.root, &label_id, &n, buf), EFI_SUCCESS);
	EXPECT(memcmp(buf, u"MYVOLUME", sizeof(u"MYVOLUME")) == 0);
	EXPECT_STATUS(test_fs_put(fs.root, u"five.txt", "12345", 5), EFI_SUCCESS);
	test_fs_done(&fs, true);
}

TEST(fat_setinfo_rename_and_move)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f, *d, *e;
	EFI_FILE_INFO *info;
	char buf[16];
	UINTN n;

	test_fs_fresh(&fs, "-F 32", 40000);
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"Moved", CREATE, EFI_FILE_DIRECTORY),
		      EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(fs.root, u"taken.txt", "taken", 5), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"original name.txt", CREATE, 0), EFI_SUCCESS);
	n = 7;
	EXPECT_STATUS(f->Write(f, &n, "move me"), EFI_SUCCESS);
	info = test_fs_info(f);
	ASSERT(info);
	EXPECT_STATUS(set_info(f, info, u"Renamed In Place.txt"), EFI_SUCCESS);
	EXPECT_STATUS(set_info(f, info, u"TAKEN.TXT"), EFI_ACCESS_DENIED);
	EXPECT_STATUS(set_info(f, info, u"bad*name"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(set_info(f, info, u"renamed in place.TXT"), EFI_SUCCESS); /* case only */
	EXPECT_STATUS(set_info(f, info, u"Moved\\Final.txt"), EFI_SUCCESS);
	EXPECT_STATUS(set_info(f, info, u"\\Moved\\Final Again.txt"), EFI_SUCCESS);
	EXPECT_STATUS(set_info(f, info, u"NoSuchDir\\x.txt"), EFI_NOT_FOUND);
	pool_free(info);
	info = test_fs_info(f);
	EXPECT(info && str16_cmp(info->FileName, u"Final Again.txt") == 0);
	pool_free(info);
	/* The handle still reads the file where it went. */
	EXPECT_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT(n == 7 && !memcmp(buf, "move me", 7));
	f->Close(f);
	EXPECT_STATUS(test_fs_get(fs.root, u"\\Moved\\final again.txt", buf, sizeof(buf), &n),
		      EFI_SUCCESS);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"original name.txt", EFI_FILE_MODE_READ, 0),
		      EFI_NOT_FOUND);
	/* Directories move with their contents; not into themselves. */
	ASSERT_STATUS(d->Open(d, &e, u"Inner", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	info = test_fs_info(d);
	ASSERT(info);
	EXPECT_STATUS(set_info(d, info, u"Moved\\Inner\\X"), EFI_ACCESS_DENIED);
	EXPECT_STATUS(set_info(d, info, u"\\Moved\\Inner\\Deeper"), EFI_ACCESS_DENIED);
	pool_free(info);
	info = test_fs_info(e);
	ASSERT(info);
	EXPECT_STATUS(set_info(e, info, u"\\Top Level"), EFI_SUCCESS);
	pool_free(info);
	EXPECT_STATUS(test_fs_put(e, u"in top.txt", "t", 1), EFI_SUCCESS);
	EXPECT_STATUS(
	    test_fs_get(fs.root, u"Top Level\\..\\Moved\\Final Again.txt", buf, sizeof(buf), &n),
	    EFI_SUCCESS);
	e->Close(e);
	d->Close(d);
	test_fs_done(&fs, true);
}

TEST(fat_setinfo_size_attributes_times)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f, *r;
	EFI_FILE_INFO *info;
	char buf[64];
	UINTN n;

	test_fs_fresh(&fs, "-F 12", 1440);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"size.bin", CREATE, 0), EFI_SUCCESS);
	n = 10;
	EXPECT_STATUS(f->Write(f, &n, "0123456789"), EFI_SUCCESS);
	info = test_fs_info(f);
	ASSERT(info);
	EXPECT(info->Attribute & EFI_FILE_ARCHIVE); /* written to */
	info->FileSize = 4;
	EXPECT_STATUS(set_info(f, info, u"size.bin"), EFI_SUCCESS);
	info->FileSize = 2000; /* grows with zeros, over a cluster boundary */
	EXPECT_STATUS(set_info(f, info, u"size.bin"), EFI_SUCCESS);
	EXPECT_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT(n == sizeof(buf) && !memcmp(buf, "0123\0\0\0\0\0\0", 10));
	/* Attributes and times. */
	info->Attribute = EFI_FILE_HIDDEN | EFI_FILE_SYSTEM;
	info->ModificationTime =
	    (EFI_TIME){.Year = 2001, .Month = 9, .Day = 11, .Hour = 8, .Minute = 46, .Second = 40};
	info->CreateTime = (EFI_TIME){.Year = 1999,
				      .Month = 12,
				      .Day = 31,
				      .Hour = 23,
				      .Minute = 59,
				      .Second = 59,
				      .Nanosecond = 990000000};
	info->LastAccessTime = (EFI_TIME){0}; /* unchanged */
	EXPECT_STATUS(set_info(f, info, u"size.bin"), EFI_SUCCESS);
	pool_free(info);
	info = test_fs_info(f);
	ASSERT(info);
	EXPECT_EQ(info->FileSize, 2000);
	EXPECT_EQ(info->PhysicalSize, 2048);
	EXPECT_EQ(info->Attribute, EFI_FILE_HIDDEN | EFI_FILE_SYSTEM);
	EXPECT(info->ModificationTime.Year == 2001 && info->ModificationTime.Second == 40);
	EXPECT(info->CreateTime.Year == 1999 && info->CreateTime.Second == 59 &&
	       info->CreateTime.Nanosecond == 990000000);
	EXPECT_EQ(info->LastAccessTime.Year, 2026);
	/* What may not change. */
	info->Attribute |= EFI_FILE_DIRECTORY;
	EXPECT_STATUS(set_info(f, info, u"size.bin"), EFI_ACCESS_DENIED);
	info->Attribute = 0x80;
	EXPECT_STATUS(set_info(f, info, u"size.bin"), EFI_INVALID_PARAMETER);
	info->Attribute = 0;
	info->ModificationTime.Month = 13;
	EXPECT_STATUS(set_info(f, info, u"size.bin"), EFI_INVALID_PARAMETER);
	pool_free(info);
	/* Read-only handle: only the attributes. */
	ASSERT_STATUS(fs.root->Open(fs.root, &r, u"size.bin", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	info = test_fs_info(r);
	ASSERT(info);
	info->FileSize = 1;
	EXPECT_STATUS(set_info(r, info, u"size.bin"), EFI_ACCESS_DENIED);
	info->FileSize = 2000;
	EXPECT_STATUS(set_info(r, info, u"other.bin"), EFI_ACCESS_DENIED);
	info->Attribute = EFI_FILE_READ_ONLY;
	EXPECT_STATUS(set_info(r, info, u"size.bin"), EFI_SUCCESS);
	/* Buffer sizes. */
	EXPECT_STATUS(r->SetInfo(r, &file_info, SIZE_OF_EFI_FILE_INFO, info), EFI_BAD_BUFFER_SIZE);
	info->Size = 1000;
	EXPECT_STATUS(r->SetInfo(r, &file_info, 100, info), EFI_BAD_BUFFER_SIZE);
	EXPECT_STATUS(r->SetInfo(r, &file_info, 100, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(r->SetInfo(r, &(EFI_GUID){2}, 100, info), EFI_UNSUPPORTED);
	pool_free(info);
	r->Close(r);
	f->Close(f);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"size.bin", RW, 0), EFI_ACCESS_DENIED);
	/* A directory's size is not set; the root is not renamed. */
	info = test_fs_info(fs.root);
	ASSERT(info);
	info->FileSize = 0;
	EXPECT_STATUS(set_info(fs.root, info, u""), EFI_ACCESS_DENIED);
	pool_free(info);
	info = test_fs_info(fs.root);
	EXPECT_STATUS(set_info(fs.root, info, u"newroot"), EFI_ACCESS_DENIED);
	EXPECT_STATUS(set_info(fs.root, info, u""), EFI_SUCCESS);
	pool_free(info);
	test_fs_done(&fs, true);
}

static EFI_STATUS set_label(EFI_FILE_PROTOCOL *root, const CHAR16 *label, bool via_fs_info)
{
	UINT8 buf[SIZE_OF_EFI_FILE_SYSTEM_INFO + 64] = {0};
	EFI_FILE_SYSTEM_INFO *fsi = (EFI_FILE_SYSTEM_INFO *)buf;

	if (!via_fs_info)
		return root->SetInfo(root, &label_id, str16_size(label), (VOID *)label);
	str16_copy(fsi->VolumeLabel, label);
	fsi->Size = SIZE_OF_EFI_FILE_SYSTEM_INFO + str16_size(label);
	return root->SetInfo(root, &fs_info, fsi->Size, fsi);
}

static bool label_is(EFI_FILE_PROTOCOL *root, const CHAR16 *want)
{
	CHAR16 got[32];
	UINTN n = sizeof(got);

	return root->GetInfo(root, &label_id, &n, got) == EFI_SUCCESS && str16_cmp(got, want) == 0;
}

TEST(fat_volume_label)
{
	static const char *const args[] = {"-F 12", "-F 16 -n OLDLABEL", "-F 32"};
	static const UINT32 kib[] = {1440, 16384, 40000};

	for (int t = 0; t < 3; t++) {
		struct test_fs fs;
		char out[1024];

		test_fs_fresh(&fs, args[t], kib[t]);
		EXPECT(label_is(fs.root, t == 1 ? u"OLDLABEL" : u""));
		EXPECT_STATUS(set_label(fs.root, u"Ember Disk", true), EFI_SUCCESS);
		EXPECT(label_is(fs.root, u"EMBER DISK"));
		EXPECT_STATUS(set_label(fs.root, u"TWELVE CHARS", false), EFI_INVALID_PARAMETER);
		EXPECT_STATUS(set_label(fs.root, u"A.B", false), EFI_INVALID_PARAMETER);
		EXPECT_STATUS(fs.root->SetInfo(fs.root, &label_id, 4, u"ABCD"),
			      EFI_BAD_BUFFER_SIZE);
		EXPECT_STATUS(
		    fs.root->SetInfo(fs.root, &fs_info, SIZE_OF_EFI_FILE_SYSTEM_INFO, out),
		    EFI_BAD_BUFFER_SIZE);
		test_fs_done(&fs, true);
		/* mtools sees the new label; then Ember removes it. */
		ASSERT_STATUS(
		    test_fs_open(&fs, img = fat_image_mkfs(args[t], kib[t], &img_size), img_size),
		    EFI_SUCCESS);
		EXPECT_STATUS(set_label(fs.root, u"MTOOLS", false), EFI_SUCCESS);
		test_fs_close(&fs);
		EXPECT_EQ(fat_image_run(img, img_size, "mlabel -s -i %s ::", out, sizeof(out)), 0);
		EXPECT(strstr(out, "MTOOLS") != NULL);
		EXPECT(fat_image_fsck_clean(img, img_size));
		ASSERT_STATUS(test_fs_open(&fs, img, img_size), EFI_SUCCESS);
		EXPECT(label_is(fs.root, u"MTOOLS"));
		EXPECT_STATUS(set_label(fs.root, u"", false), EFI_SUCCESS);
		EXPECT(label_is(fs.root, u""));
		test_fs_close(&fs);
		EXPECT_EQ(fat_image_run(img, img_size, "mlabel -s -i %s ::", out, sizeof(out)), 0);
		EXPECT(strstr(out, "has no label") != NULL);
		EXPECT(fat_image_fsck_clean(img, img_size));
		free(img);
	}
}
