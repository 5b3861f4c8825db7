/* fs-test: reading directories (13.5.5): one EFI_FILE_INFO per Read, no "." or "..",
 * EFI_BUFFER_TOO_SMALL without moving on, an empty read at the end, rewinding. */
#include "fs_test.h"

static const CHAR16 *const entries[] = {u"b.txt", u"A.TXT", u"c dir"};

static void make_listing_dir(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *d = NULL;

	/* FsTest\List does not exist yet. */
	CHECK_STATUS(root->Open(root, &d, u"FsTest\\List\\c dir", CREATE_MODE, 0), EFI_NOT_FOUND);
	d = OPEN(root, u"FsTest\\List", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (d)
		d->Close(d);
	CHECK(fst_make_file(root, u"FsTest\\List\\b.txt", "b"));
	CHECK(fst_make_file(root, u"FsTest\\List\\A.TXT", "aa"));
	d = OPEN(root, u"FsTest\\List\\c dir", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (d)
		d->Close(d);
}

/* Reads entries until the end; counts each expected name once, checks attributes. */
static UINTN list_all(EFI_FILE_PROTOCOL *dir, UINTN *found)
{
	UINT64 buffer[64];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buffer;
	UINTN count = 0;

	*found = 0;
	for (;;) {
		UINTN n = sizeof(buffer);

		if (!CHECK_STATUS(dir->Read(dir, &n, info), EFI_SUCCESS) || n == 0)
			return count;
		count++;
		CHECK_EQ(info->Size, n);
		CHECK(str16_cmp(info->FileName, u".") != 0 &&
		      str16_cmp(info->FileName, u"..") != 0);
		for (UINTN i = 0; i < ARRAY_SIZE(entries); i++) {
			if (str16_cmp(info->FileName, entries[i]) != 0)
				continue;
			*found |= 1u << i;
			CHECK_EQ(info->Attribute & EFI_FILE_DIRECTORY,
				 i == 2 ? EFI_FILE_DIRECTORY : 0);
			CHECK_EQ(info->FileSize, i == 0 ? 1 : i == 1 ? 2 : 0);
		}
	}
}

static void check_buffer_too_small(EFI_FILE_PROTOCOL *dir)
{
	UINT64 buffer[64];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buffer;
	UINTN n = 0, needed, found;

	CHECK_STATUS(dir->SetPosition(dir, 0), EFI_SUCCESS);
	CHECK_STATUS(dir->Read(dir, &n, NULL), EFI_BUFFER_TOO_SMALL);
	needed = n;
	CHECK(needed > SIZE_OF_EFI_FILE_INFO);
	n = needed - 1;
	CHECK_STATUS(dir->Read(dir, &n, info), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(n, needed);
	n = needed;
	CHECK_STATUS(dir->Read(dir, &n, info), EFI_SUCCESS);
	CHECK_EQ(n, needed);
	CHECK_EQ(info->Size, needed);
	/* Nothing was skipped by the failed reads: the rest makes up the listing. */
	CHECK_EQ(list_all(dir, &found), ARRAY_SIZE(entries) - 1);
}

void test_directories(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *dir;
	UINTN found, n = 4;
	UINT64 pos;

	make_listing_dir(root);
	dir = OPEN(root, u"fstest\\list", READ_ONLY_MODE, 0);
	if (!dir)
		return;
	CHECK_EQ(list_all(dir, &found), ARRAY_SIZE(entries));
	CHECK_EQ(found, 7);
	/* At the end every read is empty. */
	CHECK_EQ(list_all(dir, &found), 0);
	CHECK_STATUS(dir->SetPosition(dir, 0), EFI_SUCCESS);
	CHECK_EQ(list_all(dir, &found), ARRAY_SIZE(entries));
	check_buffer_too_small(dir);
	CHECK_STATUS(dir->SetPosition(dir, 1), EFI_UNSUPPORTED);
	CHECK_STATUS(dir->SetPosition(dir, 0xFFFFFFFFFFFFFFFFULL), EFI_UNSUPPORTED);
	CHECK_STATUS(dir->GetPosition(dir, &pos), EFI_UNSUPPORTED);
	dir->Close(dir);
	dir = OPEN(root, u"FsTest\\List", RW_MODE, 0);
	if (!dir)
		return;
	CHECK_STATUS(dir->Write(dir, &n, "abcd"), EFI_UNSUPPORTED);
	CHECK_STATUS(dir->Flush(dir), EFI_SUCCESS);
	dir->Close(dir);
}
