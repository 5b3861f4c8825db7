/* EFI_FILE_PROTOCOL.Open/Close/Delete on the FAT driver: modes, attributes, paths, case,
 * aliases and every status of 13.5.2 and 13.5.4 that a memory image can produce. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

TEST(fat_open_argument_checks)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f, *root;

	test_fs_fresh(&fs, "-F 12", 1440);
	root = fs.root;
	EXPECT_STATUS(root->Open(root, NULL, u"x", EFI_FILE_MODE_READ, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, NULL, EFI_FILE_MODE_READ, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(NULL, &f, u"x", EFI_FILE_MODE_READ, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"x", EFI_FILE_MODE_WRITE, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"x", EFI_FILE_MODE_CREATE | EFI_FILE_MODE_READ, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"x", 0, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"x", CREATE, 0x40), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"x", CREATE, EFI_FILE_RESERVED), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"missing", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	EXPECT_STATUS(root->Open(root, &f, u"no\\such\\dir", CREATE, 0), EFI_NOT_FOUND);
	EXPECT_STATUS(root->Open(root, &f, u"..", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	EXPECT_STATUS(root->Open(root, &f, u"a*b", CREATE, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"a:b", CREATE, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Open(root, &f, u"...", CREATE, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(root->Close(NULL), EFI_INVALID_PARAMETER);
	test_fs_done(&fs, true);
}

TEST(fat_open_paths_and_dots)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *a, *b, *f, *again;
	char buf[16];
	UINTN n;

	test_fs_fresh(&fs, "-F 16", 16384);
	ASSERT_STATUS(fs.root->Open(fs.root, &a, u"A", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	ASSERT_STATUS(a->Open(a, &b, u"B", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(b, u"file.txt", "data", 4), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(fs.root, u"\\A\\B\\file.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(b, u"..\\B\\.\\file.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(b, u"..\\..\\A\\B\\file.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(b, u"\\a\\b\\FILE.TXT", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(a, u"B\\\\file.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(a, u"b\\file.txt.", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT_STATUS(b->Open(b, &f, u"..\\..\\..", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	/* From a file: only absolute names. */
	ASSERT_STATUS(b->Open(b, &f, u"file.txt", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	EXPECT_STATUS(f->Open(f, &again, u"file.txt", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	EXPECT_STATUS(f->Open(f, &again, u"\\A", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	again->Close(again);
	f->Close(f);
	/* "" and "." open the directory again. */
	EXPECT_STATUS(a->Open(a, &again, u"", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	again->Close(again);
	EXPECT_STATUS(a->Open(a, &again, u".", RW, 0), EFI_SUCCESS);
	again->Close(again);
	EXPECT_STATUS(fs.root->Open(fs.root, &again, u"\\", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	again->Close(again);
	b->Close(b);
	a->Close(a);
	test_fs_done(&fs, true);
}

TEST(fat_open_case_and_aliases)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	char buf[16];
	UINTN n;

	test_fs_fresh(&fs, "-F 32", 40000);
	EXPECT_STATUS(test_fs_put(fs.root, u"A Long File Name.txt", "one", 3), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(fs.root, u"A Long File Nom.txt", "two", 3), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(fs.root, u"\u00c9t\u00e9.txt", "\u00e9", 1), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_get(fs.root, u"a long file name.TXT", buf, sizeof(buf), &n),
		      EFI_SUCCESS);
	EXPECT(n == 3 && !memcmp(buf, "one", 3));
	/* The 8.3 aliases: ~1 and ~2, in creation order. */
	EXPECT_STATUS(test_fs_get(fs.root, u"ALONGF~1.TXT", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT(n == 3 && !memcmp(buf, "one", 3));
	EXPECT_STATUS(test_fs_get(fs.root, u"alongf~2.txt", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT(n == 3 && !memcmp(buf, "two", 3));
	EXPECT_STATUS(test_fs_get(fs.root, u"\u00e9T\u00c9.TXT", buf, sizeof(buf), &n),
		      EFI_SUCCESS);
	/* Create of an existing name (any case) opens it, contents kept. */
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"A LONG FILE NAME.TXT", CREATE, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT_EQ(n, 3);
	f->Close(f);
	test_fs_done(&fs, true);
}

TEST(fat_open_read_only_files)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	UINTN n = 2;

	test_fs_fresh(&fs, "-F 12", 1440);
	/* The creating handle may write, later ones may only read. */
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"ro.txt", CREATE, EFI_FILE_READ_ONLY),
		      EFI_SUCCESS);
	EXPECT_STATUS(f->Write(f, &n, "ro"), EFI_SUCCESS);
	f->Close(f);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"ro.txt", RW, 0), EFI_ACCESS_DENIED);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"ro.txt", CREATE, 0), EFI_ACCESS_DENIED);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"ro.txt", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	EXPECT_STATUS(f->Write(f, &n, "xx"), EFI_ACCESS_DENIED);
	EXPECT_STATUS(f->Flush(f), EFI_ACCESS_DENIED);
	EXPECT_STATUS(f->Delete(f), EFI_WARN_DELETE_FAILURE);
	test_fs_done(&fs, true);
}

TEST(fat_create_directories_and_files)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *d, *f;
	EFI_FILE_INFO *info;

	test_fs_fresh(&fs, "-F 16", 16384);
	ASSERT_STATUS(
	    fs.root->Open(fs.root, &d, u"Docs", CREATE, EFI_FILE_DIRECTORY | EFI_FILE_HIDDEN),
	    EFI_SUCCESS);
	info = test_fs_info(d);
	ASSERT(info);
	EXPECT_EQ(info->Attribute, EFI_FILE_DIRECTORY | EFI_FILE_HIDDEN);
	EXPECT(str16_cmp(info->FileName, u"Docs") == 0);
	EXPECT_EQ(info->CreateTime.Year, 2026); /* the unit-test clock */
	pool_free(info);
	/* Opening an existing directory with CREATE opens it. */
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"DOCS", CREATE, 0), EFI_SUCCESS);
	info = test_fs_info(f);
	EXPECT(info && (info->Attribute & EFI_FILE_DIRECTORY));
	pool_free(info);
	f->Close(f);
	ASSERT_STATUS(d->Open(d, &f, u"Note", CREATE, EFI_FILE_SYSTEM), EFI_SUCCESS);
	info = test_fs_info(f);
	EXPECT(info && info->Attribute == EFI_FILE_SYSTEM && info->FileSize == 0);
	pool_free(info);
	f->Close(f);
	d->Close(d);
	test_fs_done(&fs, true);
}

TEST(fat_delete)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *d, *f, *g, *root2;
	UINTN n = 4;
	char buf[8];

	test_fs_fresh(&fs, "-F 12", 1440);
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"dir", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(d, u"inner file.txt", "gone", 4), EFI_SUCCESS);
	/* Not empty: the handle closes, the directory stays. */
	EXPECT_STATUS(d->Delete(d), EFI_WARN_DELETE_FAILURE);
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"dir", RW, 0), EFI_SUCCESS);
	ASSERT_STATUS(d->Open(d, &f, u"inner file.txt", RW, 0), EFI_SUCCESS);
	ASSERT_STATUS(d->Open(d, &g, u"INNERF~1.TXT", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	EXPECT_STATUS(f->Delete(f), EFI_SUCCESS);
	/* Another handle on the deleted file fails. */
	EXPECT_STATUS(g->Read(g, &n, buf), EFI_DEVICE_ERROR);
	EXPECT_STATUS(g->Write(g, &n, buf), EFI_DEVICE_ERROR);
	g->Close(g);
	EXPECT_STATUS(d->Open(d, &f, u"inner file.txt", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	EXPECT_STATUS(d->Delete(d), EFI_SUCCESS);
	EXPECT_STATUS(fs.root->Open(fs.root, &d, u"dir", EFI_FILE_MODE_READ, 0), EFI_NOT_FOUND);
	/* The root is never deleted. */
	ASSERT_STATUS(fs.sfs->sfs.OpenVolume(&fs.sfs->sfs, &root2), EFI_SUCCESS);
	EXPECT_STATUS(root2->Delete(root2), EFI_WARN_DELETE_FAILURE);
	EXPECT_STATUS(fs.root->Delete(NULL), EFI_INVALID_PARAMETER);
	test_fs_done(&fs, true);
}
